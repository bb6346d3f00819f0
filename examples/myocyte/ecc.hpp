// The excitation-contraction coupling (ECC) module of Rodinia 3.1's myocyte: 46 of the model's 91
// equations, a rabbit ventricular myocyte after Shannon et al. 2004 as Saucerman & Bers 2008
// couple it to CaM signalling. Membrane currents (Na, K, Cl, L-type Ca, Na/K pump, Na/Ca
// exchanger, sarcolemmal Ca pump, backgrounds), SR release (RyR), uptake (SERCA) and leak, Na
// and Ca buffers, and the concentrations in the junction, the subsarcolemmal space (SL), the
// cytosol and the SR; the membrane is paced by a current injected for 5 ms every cycle length.
// Every constant below is the value in Rodinia's openmp/myocyte/ecc.c (units in the comments);
// the equations are written from that file, state numbers 0-based (its initvalu_k is y[k - 1]).
#pragma once

#include <acc/parallel.hpp>

#include <cmath>

namespace myocyte {

/// The ECC states' positions in the state vector.
namespace ecc_state {
constexpr int m = 0, h = 1, j = 2;                      // I_Na gates
constexpr int d = 3, f = 4, fca_junc = 5, fca_sl = 6;  // I_CaL gates, Ca-dependent inactivation
constexpr int xtos = 7, ytos = 8, xtof = 9, ytof = 10;  // I_to slow and fast gates
constexpr int xkr = 11, xks = 12;                       // I_Kr, I_Ks gates
constexpr int ryr_r = 13, ryr_o = 14, ryr_i = 15;       // RyR resting, open, inactivated
constexpr int nab_junc = 16, nab_sl = 17;               // Na bound to buffers [mM]
constexpr int tnc_low = 18, tnc_high_ca = 19, tnc_high_mg = 20, cam_buffer = 21;
constexpr int myosin_ca = 22, myosin_mg = 23, sr_buffer = 24;  // cytosolic Ca buffers [mM]
constexpr int sll_junc = 25, sll_sl = 26, slh_junc = 27, slh_sl = 28;  // sarcolemmal buffers [mM]
constexpr int csqn = 29, ca_sr = 30;                               // SR [mM]
constexpr int na_junc = 31, na_sl = 32, na_i = 33, k_i = 34;       // [mM]
constexpr int ca_junc = 35, ca_sl = 36, ca_i = 37;                 // [mM]
constexpr int vm = 38, rtos = 39;                                  // [mV]; I_to slow recovery gate
// 40 and 41 have no equation (their rates are zero); 42-45 integrate the Ca that I_CaL, the SL
// Ca pump, the Na/Ca exchanger and the Ca background carry [uM].
constexpr int ica_total = 42, ipca_total = 43, incx_total = 44, icabk_total = 45;
}  // namespace ecc_state

/// The ECC module's 46 rates f[0..45] [1/ms] at time t [ms] from the states y, the pacing
/// cycle length [ms] given; Real is double, or float as in Rodinia (whose double literals
/// promote parts of the arithmetic to double, as they do here).
template <class Real>
ACC_ROUTINE inline void ecc(Real t, const Real* y, Real cycle_length, Real* f) {
  namespace s = ecc_state;
  // Physical constants and the cell. Temp = 310 K makes every Q10 factor pow(Q10, 0) = 1, so
  // they are left out.
  const Real R = 8314, Frdy = 96485, Temp = 310;  // [J/kmol/K], [C/mol], [K]
  const Real FoRT = Frdy / R / Temp, RToF = 1 / FoRT;
  const Real Cmem = 1.3810e-10;                                // [F]
  const Real pi = 3.1416;                                      // as ecc.c: it sets the volumes
  const Real cellLength = 100, cellRadius = 10.25;             // [um]
  const Real Vcell = pi * cellRadius * cellRadius * cellLength * 1e-15;  // [L]
  const Real Vmyo = 0.65 * Vcell, Vsr = 0.035 * Vcell, Vsl = 0.02 * Vcell, Vjunc = 0.0539 * 0.01 * Vcell;
  const Real J_ca_juncsl = 1 / 1.2134e12, J_ca_slmyo = 1 / 2.68510e11;                // [L/ms]
  const Real J_na_juncsl = 1 / (1.6382e12 / 3 * 100), J_na_slmyo = 1 / (1.8308e10 / 3 * 100);  // [L/ms]
  // Fractions of the currents in the junction and the SL.
  const Real Fjunc = 0.11, Fsl = 1 - Fjunc, Fjunc_CaL = 0.9, Fsl_CaL = 1 - Fjunc_CaL;
  // Fixed concentrations [mM].
  const Real Cli = 15, Clo = 150, Ko = 5.4, Nao = 140, Cao = 1.8, Mgi = 1;
  // Currents' parameters: conductances [mS/uF], permeabilities [cm/s], maxima [uA/uF], [mM].
  const Real GNa = 16.0, GNaB = 0.297e-3, IbarNaK = 1.90719, KmNaip = 11, KmKo = 1.5;
  const Real pNaK = 0.01833, GtoSlow = 0.06, GtoFast = 0.02, gkp = 0.001;
  const Real GClCa = 0.109625, GClB = 9e-3, KdClCa = 100e-3;
  const Real pNa = 1.5e-8, pCa = 5.4e-4, pK = 2.7e-7;
  const Real IbarNCX = 9.0, KmCai = 3.59e-3, KmCao = 1.3, KmNai = 12.29, KmNao = 87.5, ksat = 0.27, nu = 0.35;
  const Real Kdact = 0.256e-3, IbarSLCaP = 0.0673, KmPCa = 0.5e-3, GCaB = 2.513e-4;
  // SR: SERCA [mM/ms], [mM]; RyR rates [1/ms], [1/(mM^2 ms)], [1/(mM ms)].
  const Real Vmax_SRCaP = 2.86e-4, Kmf = 0.246e-3, Kmr = 1.7, hillSRCaP = 1.787;
  const Real ks = 25, koCa = 10, kom = 0.06, kiCa = 0.5, kim = 0.005, ec50SR = 0.45, MaxSR = 15, MinSR = 1;
  // Buffers: totals [mM], off [1/ms] and on [1/(mM ms)] rates.
  const Real Bmax_Naj = 7.561, Bmax_Nasl = 1.65, koff_na = 1e-3, kon_na = 0.1e-3;
  const Real Bmax_TnClow = 70e-3, koff_tncl = 19.6e-3, kon_tncl = 32.7;
  const Real Bmax_TnChigh = 140e-3, koff_tnchca = 0.032e-3, kon_tnchca = 2.37, koff_tnchmg = 3.33e-3,
               kon_tnchmg = 3e-3;
  const Real Bmax_myosin = 140e-3, koff_myoca = 0.46e-3, kon_myoca = 13.8, koff_myomg = 0.057e-3,
               kon_myomg = 0.0157;
  const Real Bmax_SR = 19 * 0.9e-3, koff_sr = 60e-3, kon_sr = 100;
  const Real Bmax_SLlowsl = 37.38e-3 * Vmyo / Vsl, Bmax_SLlowj = 4.62e-3 * Vmyo / Vjunc * 0.1;
  const Real koff_sll = 1300e-3, kon_sll = 100;
  const Real Bmax_SLhighsl = 13.35e-3 * Vmyo / Vsl, Bmax_SLhighj = 1.65e-3 * Vmyo / Vjunc * 0.1;
  const Real koff_slh = 30e-3, kon_slh = 100;
  const Real Bmax_Csqn = 2.7, koff_csqn = 65, kon_csqn = 100;

  const Real V = y[s::vm];
  const Real Na_j = y[s::na_junc], Na_sl = y[s::na_sl], Na_i = y[s::na_i], K_i = y[s::k_i];
  const Real Ca_j = y[s::ca_junc], Ca_sl = y[s::ca_sl], Ca_i = y[s::ca_i], Ca_sr = y[s::ca_sr];

  // Reversal potentials [mV].
  const Real ena_junc = RToF * std::log(Nao / Na_j), ena_sl = RToF * std::log(Nao / Na_sl);
  const Real ek = RToF * std::log(Ko / K_i);
  const Real eca_junc = RToF / 2 * std::log(Cao / Ca_j), eca_sl = RToF / 2 * std::log(Cao / Ca_sl);
  const Real ecl = RToF * std::log(Cli / Clo);

  // I_Na, fast Na current: Hodgkin-Huxley gates m, h, j.
  const Real am = 0.32 * (V + 47.13) / (1 - std::exp(-0.1 * (V + 47.13)));
  const Real bm = 0.08 * std::exp(-V / 11);
  Real ah, bh, aj, bj;
  if (V >= -40) {
    ah = 0;
    aj = 0;
    bh = 1 / (0.13 * (1 + std::exp(-(V + 10.66) / 11.1)));
    bj = 0.3 * std::exp(-2.535e-7 * V) / (1 + std::exp(-0.1 * (V + 32)));
  } else {
    ah = 0.135 * std::exp((80 + V) / -6.8);
    bh = 3.56 * std::exp(0.079 * V) + 3.1e5 * std::exp(0.35 * V);
    aj = (-127140 * std::exp(0.2444 * V) - 3.474e-5 * std::exp(-0.04391 * V)) * (V + 37.78) / (1 + std::exp(0.311 * (V + 79.23)));
    bj = 0.1212 * std::exp(-0.01052 * V) / (1 + std::exp(-0.1378 * (V + 40.14)));
  }
  const Real gm = y[s::m], gh = y[s::h], gj = y[s::j];
  f[s::m] = am * (1 - gm) - bm * gm;
  f[s::h] = ah * (1 - gh) - bh * gh;
  f[s::j] = aj * (1 - gj) - bj * gj;
  const Real open_na = GNa * gm * gm * gm * gh * gj;
  const Real I_Na_junc = Fjunc * open_na * (V - ena_junc), I_Na_sl = Fsl * open_na * (V - ena_sl);

  // I_nabk, Na background.
  const Real I_nabk_junc = Fjunc * GNaB * (V - ena_junc), I_nabk_sl = Fsl * GNaB * (V - ena_sl);

  // I_nak, Na/K pump.
  const Real sigma = (std::exp(Nao / 67.3) - 1) / 7;
  const Real fnak = 1 / (1 + 0.1245 * std::exp(-0.1 * V * FoRT) + 0.0365 * sigma * std::exp(-V * FoRT));
  const Real rj = KmNaip / Na_j, rsl = KmNaip / Na_sl;
  const Real I_nak_junc = Fjunc * IbarNaK * fnak * Ko / (1 + rj * rj * rj * rj) / (Ko + KmKo);
  const Real I_nak_sl = Fsl * IbarNaK * fnak * Ko / (1 + rsl * rsl * rsl * rsl) / (Ko + KmKo);
  const Real I_nak = I_nak_junc + I_nak_sl;

  // I_Kr, rapid delayed rectifier.
  const Real gkr = 0.03 * std::sqrt(Ko / 5.4);
  const Real xrss = 1 / (1 + std::exp(-(V + 50) / 7.5));
  const Real tauxr =
      1 / (0.00138 * (V + 7) / (1 - std::exp(-0.123 * (V + 7))) + 6.1e-4 * (V + 10) / (std::exp(0.145 * (V + 10)) - 1));
  f[s::xkr] = (xrss - y[s::xkr]) / tauxr;
  const Real rkr = 1 / (1 + std::exp((V + 33) / 22.4));
  const Real I_kr = gkr * y[s::xkr] * rkr * (V - ek);

  // I_Ks, slow delayed rectifier, its conductance set by the local pCa. The junctional part
  // uses the I_Kr gate squared where the SL part uses the I_Ks gate: so ecc.c computes it, and
  // this port solves Rodinia's system.
  const Real pcaks_junc = -std::log10(Ca_j) + 3.0, pcaks_sl = -std::log10(Ca_sl) + 3.0;
  const Real gks_junc = 0.07 * (0.057 + 0.19 / (1 + std::exp((-7.2 + pcaks_junc) / 0.6)));
  const Real gks_sl = 0.07 * (0.057 + 0.19 / (1 + std::exp((-7.2 + pcaks_sl) / 0.6)));
  const Real eks = RToF * std::log((Ko + pNaK * Nao) / (K_i + pNaK * Na_i));
  const Real xsss = 1 / (1 + std::exp(-(V - 1.5) / 16.7));
  const Real tauxs = 1 / (7.19e-5 * (V + 30) / (1 - std::exp(-0.148 * (V + 30))) +
                            1.31e-4 * (V + 30) / (std::exp(0.0687 * (V + 30)) - 1));
  f[s::xks] = (xsss - y[s::xks]) / tauxs;
  const Real I_ks = Fjunc * gks_junc * y[s::xkr] * y[s::xkr] * (V - eks) +
                      Fsl * gks_sl * y[s::xks] * y[s::xks] * (V - eks);

  // I_Kp, plateau K current.
  const Real kp_kp = 1 / (1 + std::exp(7.488 - V / 5.98));
  const Real I_kp = Fjunc * gkp * kp_kp * (V - ek) + Fsl * gkp * kp_kp * (V - ek);

  // I_to, transient outward K current, slow and fast.
  const Real xtoss = 1 / (1 + std::exp(-(V + 3.0) / 15));
  const Real ytoss = 1 / (1 + std::exp((V + 33.5) / 10));
  const Real rtoss = ytoss;
  const Real tauxtos = 9 / (1 + std::exp((V + 3.0) / 15)) + 0.5;
  const Real tauytos = 3e3 / (1 + std::exp((V + 60.0) / 10)) + 30;
  const Real taurtos = 2800 / (1 + std::exp((V + 60.0) / 10)) + 220;
  f[s::xtos] = (xtoss - y[s::xtos]) / tauxtos;
  f[s::ytos] = (ytoss - y[s::ytos]) / tauytos;
  f[s::rtos] = (rtoss - y[s::rtos]) / taurtos;
  const Real I_tos = GtoSlow * y[s::xtos] * (y[s::ytos] + 0.5 * y[s::rtos]) * (V - ek);
  const Real tauxtof = 3.5 * std::exp(-V * V / 30 / 30) + 1.5;
  const Real tauytof = 20.0 / (1 + std::exp((V + 33.5) / 10)) + 20.0;
  f[s::xtof] = (xtoss - y[s::xtof]) / tauxtof;
  f[s::ytof] = (ytoss - y[s::ytof]) / tauytof;
  const Real I_tof = GtoFast * y[s::xtof] * y[s::ytof] * (V - ek);
  const Real I_to = I_tos + I_tof;

  // I_K1, time-independent inward rectifier.
  const Real aki = 1.02 / (1 + std::exp(0.2385 * (V - ek - 59.215)));
  const Real bki = (0.49124 * std::exp(0.08032 * (V + 5.476 - ek)) + std::exp(0.06175 * (V - ek - 594.31))) /
                     (1 + std::exp(-0.5143 * (V - ek + 4.753)));
  const Real I_ki = 0.9 * std::sqrt(Ko / 5.4) * (aki / (aki + bki)) * (V - ek);

  // I_ClCa, Ca-activated Cl current, and the Cl background.
  const Real I_ClCa =
      Fjunc * GClCa / (1 + KdClCa / Ca_j) * (V - ecl) + Fsl * GClCa / (1 + KdClCa / Ca_sl) * (V - ecl);
  const Real I_Clbk = GClB * (V - ecl);

  // I_CaL, L-type Ca channel, with its Na and K components (GHK fluxes).
  const Real dss = 1 / (1 + std::exp(-(V + 14.5) / 6.0));
  const Real taud = dss * (1 - std::exp(-(V + 14.5) / 6.0)) / (0.035 * (V + 14.5));
  const Real fss = 1 / (1 + std::exp((V + 35.06) / 3.6)) + 0.6 / (1 + std::exp((50 - V) / 20));
  const Real fx = 0.0337 * (V + 14.5);
  const Real tauf = 1 / (0.0197 * std::exp(-fx * fx) + 0.02);
  f[s::d] = (dss - y[s::d]) / taud;
  f[s::f] = (fss - y[s::f]) / tauf;
  f[s::fca_junc] = 1.7 * Ca_j * (1 - y[s::fca_junc]) - 11.9e-3 * y[s::fca_junc];
  f[s::fca_sl] = 1.7 * Ca_sl * (1 - y[s::fca_sl]) - 11.9e-3 * y[s::fca_sl];
  const Real e1 = std::exp(V * FoRT), e2 = std::exp(2 * V * FoRT);
  const Real ibarca_j = pCa * 4 * (V * Frdy * FoRT) * (0.341 * Ca_j * e2 - 0.341 * Cao) / (e2 - 1);
  const Real ibarca_sl = pCa * 4 * (V * Frdy * FoRT) * (0.341 * Ca_sl * e2 - 0.341 * Cao) / (e2 - 1);
  const Real ibark = pK * (V * Frdy * FoRT) * (0.75 * K_i * e1 - 0.75 * Ko) / (e1 - 1);
  const Real ibarna_j = pNa * (V * Frdy * FoRT) * (0.75 * Na_j * e1 - 0.75 * Nao) / (e1 - 1);
  const Real ibarna_sl = pNa * (V * Frdy * FoRT) * (0.75 * Na_sl * e1 - 0.75 * Nao) / (e1 - 1);
  const Real df = y[s::d] * y[s::f];
  const Real open_junc = Fjunc_CaL * df * (1 - y[s::fca_junc]) * 0.45;
  const Real open_sl = Fsl_CaL * df * (1 - y[s::fca_sl]) * 0.45;
  const Real I_Ca_junc = ibarca_j * open_junc, I_Ca_sl = ibarca_sl * open_sl;
  const Real I_Ca = I_Ca_junc + I_Ca_sl;
  const Real to_uM = Cmem / (Vmyo * 2 * Frdy) * 1e3;  // a Ca current [uA/uF] as [uM/ms] of cytosol
  f[s::ica_total] = -I_Ca * to_uM;
  const Real I_CaK = ibark * (open_junc + open_sl);
  const Real I_CaNa_junc = ibarna_j * open_junc, I_CaNa_sl = ibarna_sl * open_sl;

  // I_ncx, Na/Ca exchanger.
  const Real kj = Kdact / Ca_j, ksl = Kdact / Ca_sl;
  const Real Ka_junc = 1 / (1 + kj * kj * kj), Ka_sl = 1 / (1 + ksl * ksl * ksl);
  const Real Nao3 = Nao * Nao * Nao, KmNai3 = KmNai * KmNai * KmNai, KmNao3 = KmNao * KmNao * KmNao;
  const Real Na_j3 = Na_j * Na_j * Na_j, Na_sl3 = Na_sl * Na_sl * Na_sl;
  const Real en = std::exp(nu * V * FoRT), en1 = std::exp((nu - 1) * V * FoRT);
  const Real s1_junc = en * Na_j3 * Cao, s1_sl = en * Na_sl3 * Cao;
  const Real s2_junc = en1 * Nao3 * Ca_j, s2_sl = en1 * Nao3 * Ca_sl;
  const Real s3_junc = (KmCai * Nao3 * (1 + Na_j3 / KmNai3) + KmNao3 * Ca_j + KmNai3 * Cao * (1 + Ca_j / KmCai) +
                          KmCao * Na_j3 + Na_j3 * Cao + Nao3 * Ca_j) *
                         (1 + ksat * en1);
  const Real s3_sl = (KmCai * Nao3 * (1 + Na_sl3 / KmNai3) + KmNao3 * Ca_sl + KmNai3 * Cao * (1 + Ca_sl / KmCai) +
                        KmCao * Na_sl3 + Na_sl3 * Cao + Nao3 * Ca_sl) *
                       (1 + ksat * en1);
  const Real I_ncx_junc = Fjunc * IbarNCX * Ka_junc * (s1_junc - s2_junc) / s3_junc;
  const Real I_ncx_sl = Fsl * IbarNCX * Ka_sl * (s1_sl - s2_sl) / s3_sl;
  f[s::incx_total] = 2 * (I_ncx_junc + I_ncx_sl) * to_uM;

  // I_pca, sarcolemmal Ca pump.
  const Real pj = std::pow(Ca_j, 1.6), psl = std::pow(Ca_sl, 1.6), pk = std::pow(KmPCa, 1.6);
  const Real I_pca_junc = Fjunc * IbarSLCaP * pj / (pk + pj), I_pca_sl = Fsl * IbarSLCaP * psl / (pk + psl);
  f[s::ipca_total] = -(I_pca_junc + I_pca_sl) * to_uM;

  // I_cabk, Ca background.
  const Real I_cabk_junc = Fjunc * GCaB * (V - eca_junc), I_cabk_sl = Fsl * GCaB * (V - eca_sl);
  f[s::icabk_total] = -(I_cabk_junc + I_cabk_sl) * to_uM;

  // SR: RyR release (a four-state channel whose rates depend on SR Ca), SERCA uptake, leak.
  const Real kCaSR = MaxSR - (MaxSR - MinSR) / (1 + std::pow(ec50SR / Ca_sr, 2.5));
  const Real koSRCa = koCa / kCaSR, kiSRCa = kiCa * kCaSR;
  const Real Rr = y[s::ryr_r], Ro = y[s::ryr_o], Ri = y[s::ryr_i], RI = 1 - Rr - Ro - Ri;
  const Real Ca_j2 = Ca_j * Ca_j;
  const Real r_to_i = kiSRCa * Ca_j * Rr - kim * RI;      // R -> RI
  const Real r_to_o = koSRCa * Ca_j2 * Rr - kom * Ro;     // R -> O
  const Real o_to_i = kiSRCa * Ca_j * Ro - kim * Ri;      // O -> I
  const Real ri_to_i = koSRCa * Ca_j2 * RI - kom * Ri;    // RI -> I
  f[s::ryr_r] = -r_to_i - r_to_o;
  f[s::ryr_o] = r_to_o - o_to_i;
  f[s::ryr_i] = o_to_i + ri_to_i;
  const Real J_SRCarel = ks * Ro * (Ca_sr - Ca_j);  // [mM/ms]
  const Real up = std::pow(Ca_i / Kmf, hillSRCaP), down = std::pow(Ca_sr / Kmr, hillSRCaP);
  const Real J_serca = Vmax_SRCaP * (up - down) / (1 + up + down);
  const Real J_SRleak = 5.348e-6 * (Ca_sr - Ca_j);  // [mM/ms]

  // Na buffers.
  f[s::nab_junc] = kon_na * Na_j * (Bmax_Naj - y[s::nab_junc]) - koff_na * y[s::nab_junc];
  f[s::nab_sl] = kon_na * Na_sl * (Bmax_Nasl - y[s::nab_sl]) - koff_na * y[s::nab_sl];

  // Cytosolic Ca buffers: troponin C (low affinity; high affinity, competed for by Mg), myosin
  // (Ca and Mg), SR sites. ECC's own CaM buffer is held constant: the CaM module buffers Ca.
  const Real tnch_free = Bmax_TnChigh - y[s::tnc_high_ca] - y[s::tnc_high_mg];
  const Real myosin_free = Bmax_myosin - y[s::myosin_ca] - y[s::myosin_mg];
  f[s::tnc_low] = kon_tncl * Ca_i * (Bmax_TnClow - y[s::tnc_low]) - koff_tncl * y[s::tnc_low];
  f[s::tnc_high_ca] = kon_tnchca * Ca_i * tnch_free - koff_tnchca * y[s::tnc_high_ca];
  f[s::tnc_high_mg] = kon_tnchmg * Mgi * tnch_free - koff_tnchmg * y[s::tnc_high_mg];
  f[s::cam_buffer] = 0;
  f[s::myosin_ca] = kon_myoca * Ca_i * myosin_free - koff_myoca * y[s::myosin_ca];
  f[s::myosin_mg] = kon_myomg * Mgi * myosin_free - koff_myomg * y[s::myosin_mg];
  f[s::sr_buffer] = kon_sr * Ca_i * (Bmax_SR - y[s::sr_buffer]) - koff_sr * y[s::sr_buffer];
  const Real J_CaB_cytosol = f[s::tnc_low] + f[s::tnc_high_ca] + f[s::tnc_high_mg] + f[s::cam_buffer] +
                               f[s::myosin_ca] + f[s::myosin_mg] + f[s::sr_buffer];

  // Junctional and SL Ca buffers (sarcolemmal low and high affinity sites).
  f[s::sll_junc] = kon_sll * Ca_j * (Bmax_SLlowj - y[s::sll_junc]) - koff_sll * y[s::sll_junc];
  f[s::sll_sl] = kon_sll * Ca_sl * (Bmax_SLlowsl - y[s::sll_sl]) - koff_sll * y[s::sll_sl];
  f[s::slh_junc] = kon_slh * Ca_j * (Bmax_SLhighj - y[s::slh_junc]) - koff_slh * y[s::slh_junc];
  f[s::slh_sl] = kon_slh * Ca_sl * (Bmax_SLhighsl - y[s::slh_sl]) - koff_slh * y[s::slh_sl];
  const Real J_CaB_junction = f[s::sll_junc] + f[s::slh_junc];
  const Real J_CaB_sl = f[s::sll_sl] + f[s::slh_sl];

  // SR Ca, buffered by calsequestrin.
  f[s::csqn] = kon_csqn * Ca_sr * (Bmax_Csqn - y[s::csqn]) - koff_csqn * y[s::csqn];
  f[s::ca_sr] = J_serca * Vmyo / Vsr - (J_SRleak * Vmyo / Vsr + J_SRCarel) - f[s::csqn];

  // Na: membrane currents into the junction and the SL, diffusion junction-SL-cytosol.
  const Real I_Na_tot_junc = I_Na_junc + I_nabk_junc + 3 * I_ncx_junc + 3 * I_nak_junc + I_CaNa_junc;  // [uA/uF]
  const Real I_Na_tot_sl = I_Na_sl + I_nabk_sl + 3 * I_ncx_sl + 3 * I_nak_sl + I_CaNa_sl;
  f[s::na_junc] = -I_Na_tot_junc * Cmem / (Vjunc * Frdy) + J_na_juncsl / Vjunc * (Na_sl - Na_j) - f[s::nab_junc];
  f[s::na_sl] = -I_Na_tot_sl * Cmem / Vsl / Frdy + J_na_juncsl / Vsl * (Na_j - Na_sl) +
                J_na_slmyo / Vsl * (Na_i - Na_sl) - f[s::nab_sl];
  f[s::na_i] = J_na_slmyo / Vmyo * (Na_sl - Na_i);

  // K: held constant (ecc.c's rate is zero), though its currents act on the membrane.
  const Real I_K_tot = I_to + I_kr + I_ks + I_ki - 2 * I_nak + I_CaK + I_kp;
  f[s::k_i] = 0;

  // Ca in the junction, the SL and the cytosol.
  const Real I_Ca_tot_junc = I_Ca_junc + I_cabk_junc + I_pca_junc - 2 * I_ncx_junc;  // [uA/uF]
  const Real I_Ca_tot_sl = I_Ca_sl + I_cabk_sl + I_pca_sl - 2 * I_ncx_sl;
  f[s::ca_junc] = -I_Ca_tot_junc * Cmem / (Vjunc * 2 * Frdy) + J_ca_juncsl / Vjunc * (Ca_sl - Ca_j) - J_CaB_junction +
                  J_SRCarel * Vsr / Vjunc + J_SRleak * Vmyo / Vjunc;
  f[s::ca_sl] = -I_Ca_tot_sl * Cmem / (Vsl * 2 * Frdy) + J_ca_juncsl / Vsl * (Ca_j - Ca_sl) +
                J_ca_slmyo / Vsl * (Ca_i - Ca_sl) - J_CaB_sl;
  f[s::ca_i] = -J_serca - J_CaB_cytosol + J_ca_slmyo / Vmyo * (Ca_sl - Ca_i);

  // Membrane potential, paced by 9.5 uA/uF for the first 5 ms of each cycle.
  const Real I_app = std::fmod(t, cycle_length) <= 5 ? 9.5 : 0.0;
  const Real I_tot = I_Na_tot_junc + I_Na_tot_sl + I_ClCa + I_Clbk + I_Ca_tot_junc + I_Ca_tot_sl + I_K_tot;
  f[s::vm] = -(I_tot - I_app);
  f[40] = 0;
  f[41] = 0;
}

}  // namespace myocyte
