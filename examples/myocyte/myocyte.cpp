// Rodinia 3.1 myocyte with acc: many instances of a cardiac myocyte ODE model (91 equations:
// excitation-contraction coupling, ECC, 46 states (ecc.hpp), and Ca-calmodulin / CaMKII /
// calcineurin signalling, CaM, 15 states in each of the dyad, subsarcolemmal and cytosolic
// compartments, coupled by Ca and CaM fluxes), each integrated with the embedded
// Runge-Kutta-Fehlberg 7(8) method under Rodinia's step control. The equations are those of
// Rodinia's openmp/myocyte (ecc.c, cam.c, fin.c, master.c), its initial state and parameters
// those of its data files (data.hpp). Variants of Rodinia's mode 1 (across instances):
//   per_instance     one parallel_loop over the instances; each thread integrates its instance
//                    over all output steps, its stages in a slice of a global array.
//   private_stages   the same with the stages in arrays private to the iteration, and 32
//                    lanes a gang.
//   private_stages_8 the same with 8 lanes a gang.
//   float_private_stages, float_private_stages_8: private_stages and private_stages_8 in
//                    single precision, as Rodinia computes (its fp is float; its constants
//                    are double literals, so parts of it run in double, and here likewise).
// Checked against sequential host runs of the same solver, step by step (see check_steps: the
// step control turns the GPU's different rounding into different step sizes, so whole
// trajectories do not agree), and the total time integrated within 5% of a sequential run.
// Double precision (Rodinia: float), except in the float_ variants.
//
// Rodinia's solver advances each output step (1 ms) by one accepted step of at most 1 ms from
// the previous output state, so its stiff steps (h = 1/64 ms and the like) integrate about 2 ms
// of the model over a span of 100: so does this port, which solves Rodinia's problem, not the
// physiology.
//
//   myocyte [span = 100 ms] [instances = 1024]   (Rodinia: myocyte.out 100 1024 1, mode 1)
#include "../common/rodinia.hpp"
#include "data.hpp"
#include "ecc.hpp"

#include <acc/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <utility>
#include <vector>

namespace {

constexpr int equations = 91;
constexpr int parameters = 16;
constexpr int stages = 13;
// Offsets of the modules in the state vector and of their parameters (Rodinia's master.c).
constexpr int ecc_states = 46;
constexpr int cam_states = 15;
constexpr int cam_dyad = 46, cam_sl = 61, cam_cyt = 76;
static_assert(myocyte::ecc_state::icabk_total + 1 == ecc_states && cam_dyad == ecc_states &&
              cam_cyt + cam_states == equations);
static_assert(sizeof(myocyte::initial_state) == equations * sizeof(double) &&
              sizeof(myocyte::initial_parameters) == parameters * sizeof(double));

// The CaM module of one compartment: the 15 rates into f from the states y and the parameters
// p (CaM, buffer, CaMKII, calcineurin and PP1 totals) at free Ca concentration ca [uM]; returns
// the compartment's Ca flux into CaM [uM/ms]. Rate constants in [1/s] and [1/(uM s)], K = 135 mM
// and Mg = 1 mM, from Saucerman & Bers 2008 as in Rodinia's cam.c.
template <class Real>
ACC_ROUTINE inline Real cam(const Real* y, const Real* p, Real* f, Real ca) {
  const Real CaM = y[0], Ca2CaM = y[1], Ca4CaM = y[2], CaMB = y[3], Ca2CaMB = y[4], Ca4CaMB = y[5];
  const Real Pb2 = y[6], Pb = y[7], Pt = y[8], Pt2 = y[9], Pa = y[10];
  const Real Ca4CaN = y[11], CaMCa4CaN = y[12], Ca2CaMCa4CaN = y[13], Ca4CaMCa4CaN = y[14];
  const Real Btot = p[1], CaMKIItot = p[2], CaNtot = p[3], PP1tot = p[4];
  const Real K = 135.0, Mg = 1.0;  // [mM]
  // Ca binding to CaM, its dissociation constants depending on K and Mg (Mg <= 1 mM).
  const Real Kd02 = 0.0025 * (1 + K / 0.94 - Mg / 0.012) * (1 + K / 8.1 + Mg / 0.022);  // [uM^2]
  const Real Kd24 = 0.128 * (1 + K / 0.64 + Mg / 0.0014) * (1 + K / 13.0 - Mg / 0.153);  // [uM^2]
  const Real k20 = 10, k02 = k20 / Kd02, k42 = 500, k24 = k42 / Kd24;
  // CaM binding to the buffer B.
  const Real k0Boff = 0.0014, k0Bon = k0Boff / 0.2, k2Boff = k0Boff / 100, k2Bon = k0Bon;
  const Real k4Boff = k2Boff, k4Bon = k0Bon;
  const Real k20B = k20 / 100, k02B = k02, k42B = k42, k24B = k24;
  // CaMKII states: Pb2, Pb bound, Pt, Pt2 trapped, Pa autonomous; PP1 dephosphorylation.
  const Real kbi = 2.2, kib = kbi / 33.5e-3, kpp1 = 1.72, Kmpp1 = 11.5;
  const Real kib2 = kib, kb2i = kib2 * 5, kb24 = k24, kb42 = k42 * 33.5e-3 / 5;
  const Real kta = kbi / 1000, kat = kib, kt42 = k42 * 33.5e-6 / 5, kt24 = k24, kat2 = kib, kt2a = kib * 5;
  // Calcineurin (CaN).
  const Real kcanCaoff = 1, kcanCaon = kcanCaoff / 0.5, kcanCaM4on = 46, kcanCaM4off = 0.0013;
  const Real kcanCaM2on = kcanCaM4on, kcanCaM2off = 2508 * kcanCaM4off;
  const Real kcanCaM0on = kcanCaM4on, kcanCaM0off = 165 * kcanCaM2off;
  const Real k02can = k02, k20can = k20 / 165, k24can = k24, k42can = k20 / 2508;

  const Real ca2 = ca * ca;
  const Real r02 = k02 * ca2 * CaM - k20 * Ca2CaM;
  const Real r24 = k24 * ca2 * Ca2CaM - k42 * Ca4CaM;
  const Real B = Btot - CaMB - Ca2CaMB - Ca4CaMB;
  const Real r02B = k02B * ca2 * CaMB - k20B * Ca2CaMB;
  const Real r24B = k24B * ca2 * Ca2CaMB - k42B * Ca4CaMB;
  const Real r0B = k0Bon * CaM * B - k0Boff * CaMB;
  const Real r2B = k2Bon * Ca2CaM * B - k2Boff * Ca2CaMB;
  const Real r4B = k4Bon * Ca4CaM * B - k4Boff * Ca4CaMB;
  const Real Ca2CaN = CaNtot - Ca4CaN - CaMCa4CaN - Ca2CaMCa4CaN - Ca4CaMCa4CaN;
  const Real rCa4CaN = kcanCaon * ca2 * Ca2CaN - kcanCaoff * Ca4CaN;
  const Real r02CaN = k02can * ca2 * CaMCa4CaN - k20can * Ca2CaMCa4CaN;
  const Real r24CaN = k24can * ca2 * Ca2CaMCa4CaN - k42can * Ca4CaMCa4CaN;
  const Real r0CaN = kcanCaM0on * CaM * Ca4CaN - kcanCaM0off * CaMCa4CaN;
  const Real r2CaN = kcanCaM2on * Ca2CaM * Ca4CaN - kcanCaM2off * Ca2CaMCa4CaN;
  const Real r4CaN = kcanCaM4on * Ca4CaM * Ca4CaN - kcanCaM4off * Ca4CaMCa4CaN;
  const Real Pix = 1 - Pb2 - Pb - Pt - Pt2 - Pa;
  const Real rib2 = kib2 * Ca2CaM * Pix - kb2i * Pb2;
  const Real rb2b = kb24 * ca2 * Pb2 - kb42 * Pb;
  const Real rib = kib * Ca4CaM * Pix - kbi * Pb;
  const Real T = Pb + Pt + Pt2 + Pa;
  const Real kbt = 0.055 * T + 0.0074 * T * T + 0.015 * T * T * T;
  const Real rbt = kbt * Pb - kpp1 * PP1tot * Pt / (Kmpp1 + CaMKIItot * Pt);
  const Real rtt2 = kt42 * Pt - kt24 * ca2 * Pt2;
  const Real rta = kta * Pt - kat * Ca4CaM * Pa;
  const Real rt2a = kt2a * Pt2 - kat2 * Ca2CaM * Pa;
  const Real rt2b2 = kpp1 * PP1tot * Pt2 / (Kmpp1 + CaMKIItot * Pt2);
  const Real rai = kpp1 * PP1tot * Pa / (Kmpp1 + CaMKIItot * Pa);
  // Rates per second to per millisecond.
  f[0] = 1e-3 * (-r02 - r0B - r0CaN);
  f[1] = 1e-3 * (r02 - r24 - r2B - r2CaN + CaMKIItot * (-rib2 + rt2a));
  f[2] = 1e-3 * (r24 - r4B - r4CaN + CaMKIItot * (-rib + rta));
  f[3] = 1e-3 * (r0B - r02B);
  f[4] = 1e-3 * (r02B + r2B - r24B);
  f[5] = 1e-3 * (r24B + r4B);
  f[6] = 1e-3 * (rib2 - rb2b + rt2b2);
  f[7] = 1e-3 * (rib + rb2b - rbt);
  f[8] = 1e-3 * (rbt - rta - rtt2);
  f[9] = 1e-3 * (rtt2 - rt2a - rt2b2);
  f[10] = 1e-3 * (rta + rt2a - rai);
  f[11] = 1e-3 * (rCa4CaN - r0CaN - r2CaN - r4CaN);
  f[12] = 1e-3 * (r0CaN - r02CaN);
  f[13] = 1e-3 * (r2CaN + r02CaN - r24CaN);
  f[14] = 1e-3 * (r4CaN + r24CaN);
  return 1e-3 * (2 * CaMKIItot * (rtt2 - rb2b) - 2 * (r02 + r24 + r02B + r24B + rCa4CaN + r02CaN + r24CaN));
}

// The whole right-hand side f = dy/dt at time t (Rodinia's master.c: the ECC module, the CaM
// module in each compartment at that compartment's Ca, then fin.c's coupling). Volumes [L], the
// CaM diffusion constant [L/ms] and buffer rates as in Rodinia's fin.c.
template <class Real>
ACC_ROUTINE inline void rates(Real t, const Real* y, const Real* p, Real* f) {
  myocyte::ecc(t, y, p[0], f);
  const Real jdyad = cam<Real>(y + cam_dyad, p + 1, f + cam_dyad, y[35] * 1e3);  // Ca [mM] -> [uM]
  const Real jsl = cam<Real>(y + cam_sl, p + 6, f + cam_sl, y[36] * 1e3);
  const Real jcyt = cam<Real>(y + cam_cyt, p + 11, f + cam_cyt, y[37] * 1e3);
  const Real Vmyo = 2.1454e-11, Vdyad = 1.7790e-14, VSL = 6.6013e-13, kSLmyo = 8.587e-15;
  const Real k0Boff = 0.0014, k0Bon = k0Boff / 0.2, k2Boff = k0Boff / 100, k2Bon = k0Bon, k4Bon = k0Bon;
  f[35] += 1e-3 * jdyad;
  f[36] += 1e-3 * jsl;
  f[37] += 1e-3 * jcyt;
  const Real* d = y + cam_dyad;
  const Real* s = y + cam_sl;
  const Real* c = y + cam_cyt;
  const Real CaMKIItotDyad = p[3], BtotDyad = p[2];
  const Real CaMtotDyad = d[0] + d[1] + d[2] + d[3] + d[4] + d[5] + CaMKIItotDyad * (d[6] + d[7] + d[8] + d[9]) +
                            d[12] + d[13] + d[14];
  const Real Bdyad = BtotDyad - CaMtotDyad;
  // CaM forms leaving the dyad for the SL, and the SL for the cytosol.
  const Real jd[3] = {Real(1e-3 * (k0Boff * d[0] - k0Bon * Bdyad * s[0])),
                      Real(1e-3 * (k2Boff * d[1] - k2Bon * Bdyad * s[1])),
                      Real(1e-3 * (k2Boff * d[2] - k4Bon * Bdyad * s[2]))};
  for (int m = 0; m < 3; ++m) {
    const Real js = kSLmyo * (s[m] - c[m]);
    f[cam_dyad + m] -= jd[m];
    f[cam_sl + m] += jd[m] * Vdyad / VSL - js / VSL;
    f[cam_cyt + m] += js / Vmyo;
  }
  for (int i = 0; i < equations; ++i)
    if (!(f[i] - f[i] == 0.0)) f[i] = 0.0001;  // Rodinia's guard against NaN and infinity
}

// Fehlberg 7(8)'s coefficients: stage s's on the earlier stages' rates, a(s, 0..s-1).
constexpr double fehlberg_a(int s, int j) {
  switch (s * 16 + j) {
    case 1 * 16 + 0: return 2.0 / 27.0;
    case 2 * 16 + 0: return 1.0 / 36.0;
    case 2 * 16 + 1: return 3.0 / 36.0;
    case 3 * 16 + 0: return 1.0 / 24.0;
    case 3 * 16 + 2: return 3.0 / 24.0;
    case 4 * 16 + 0: return 20.0 / 48.0;
    case 4 * 16 + 2: return -75.0 / 48.0;
    case 4 * 16 + 3: return 75.0 / 48.0;
    case 5 * 16 + 0: return 1.0 / 20.0;
    case 5 * 16 + 3: return 5.0 / 20.0;
    case 5 * 16 + 4: return 4.0 / 20.0;
    case 6 * 16 + 0: return -25.0 / 108.0;
    case 6 * 16 + 3: return 125.0 / 108.0;
    case 6 * 16 + 4: return -260.0 / 108.0;
    case 6 * 16 + 5: return 250.0 / 108.0;
    case 7 * 16 + 0: return 31.0 / 300.0;
    case 7 * 16 + 4: return 61.0 / 225.0;
    case 7 * 16 + 5: return -2.0 / 9.0;
    case 7 * 16 + 6: return 13.0 / 900.0;
    case 8 * 16 + 0: return 2.0;
    case 8 * 16 + 3: return -53.0 / 6.0;
    case 8 * 16 + 4: return 704.0 / 45.0;
    case 8 * 16 + 5: return -107.0 / 9.0;
    case 8 * 16 + 6: return 67.0 / 90.0;
    case 8 * 16 + 7: return 3.0;
    case 9 * 16 + 0: return -91.0 / 108.0;
    case 9 * 16 + 3: return 23.0 / 108.0;
    case 9 * 16 + 4: return -976.0 / 135.0;
    case 9 * 16 + 5: return 311.0 / 54.0;
    case 9 * 16 + 6: return -19.0 / 60.0;
    case 9 * 16 + 7: return 17.0 / 6.0;
    case 9 * 16 + 8: return -1.0 / 12.0;
    case 10 * 16 + 0: return 2383.0 / 4100.0;
    case 10 * 16 + 3: return -341.0 / 164.0;
    case 10 * 16 + 4: return 4496.0 / 1025.0;
    case 10 * 16 + 5: return -301.0 / 82.0;
    case 10 * 16 + 6: return 2133.0 / 4100.0;
    case 10 * 16 + 7: return 45.0 / 82.0;
    case 10 * 16 + 8: return 45.0 / 164.0;
    case 10 * 16 + 9: return 18.0 / 41.0;
    case 11 * 16 + 0: return 3.0 / 205.0;
    case 11 * 16 + 5: return -6.0 / 41.0;
    case 11 * 16 + 6: return -3.0 / 205.0;
    case 11 * 16 + 7: return -3.0 / 41.0;
    case 11 * 16 + 8: return 3.0 / 41.0;
    case 11 * 16 + 9: return 6.0 / 41.0;
    case 12 * 16 + 0: return -1777.0 / 4100.0;
    case 12 * 16 + 3: return -341.0 / 164.0;
    case 12 * 16 + 4: return 4496.0 / 1025.0;
    case 12 * 16 + 5: return -289.0 / 82.0;
    case 12 * 16 + 6: return 2193.0 / 4100.0;
    case 12 * 16 + 7: return 51.0 / 82.0;
    case 12 * 16 + 8: return 33.0 / 164.0;
    case 12 * 16 + 9: return 12.0 / 41.0;
    case 12 * 16 + 11: return 1.0;
    default: return 0.0;
  }
}

// Its nodes c(s): the ECC's pacing current depends on time.
constexpr double fehlberg_c(int s) {
  switch (s) {
    case 1: return 2.0 / 27.0;
    case 2: return 1.0 / 9.0;
    case 3: return 1.0 / 6.0;
    case 4: return 5.0 / 12.0;
    case 5: return 1.0 / 2.0;
    case 6: return 5.0 / 6.0;
    case 7: return 1.0 / 6.0;
    case 8: return 2.0 / 3.0;
    case 9: return 1.0 / 3.0;
    case 10: return 1.0;
    case 12: return 1.0;
    default: return 0.0;  // stages 0 and 11
  }
}

// Stage s's input yt = y0 + h sum_j a(s, j) k_j over the nonzero coefficients only, each a
// constant in the code: the tableau is sparse (55 of the 78 a(s, j) are nonzero), and with the
// coefficients looked up at run time every term is a jump-table dispatch and then a load whose
// latency the sum waits for; here a stage's loads are independent and issue together. The
// terms are added in the order of a loop over j, so the values are that loop's.
template <int S, int J, class Real>
ACC_ROUTINE inline void add_term(Real& sum, const Real* k, int i) {
  constexpr double a = fehlberg_a(S, J);
  if constexpr (a != 0.0) sum += Real(a) * k[J * equations + i];
}

template <int S, class Real, int... J>
ACC_ROUTINE inline void stage_input(const Real* y0, Real h, const Real* k, Real* yt,
                                    std::integer_sequence<int, J...>) {
  for (int i = 0; i < equations; ++i) {
    Real sum = 0.0;
    (add_term<S, J>(sum, k, i), ...);
    yt[i] = y0[i] + h * sum;
  }
}

// stage_input for a stage known at run time, s in 1 .. stages - 1.
template <class Real, int... S>
ACC_ROUTINE inline void stage_input(int s, const Real* y0, Real h, const Real* k, Real* yt,
                                    std::integer_sequence<int, S...>) {
  ((s == S + 1 && (stage_input<S + 1>(y0, h, k, yt, std::make_integer_sequence<int, S + 1>{}), true)) || ...);
}

// One step of Fehlberg's 7(8) pair (NASA TR R-287, 1968; the 13-stage tableau Rodinia's
// embedded_fehlberg_7_8.c uses): y1 = the 7th-order solution from y0 at time t0 over h, err = Rodinia's
// error estimate |41/840 (k1 + k11 - k12 - k13)| per equation. k holds 13 x 91 stage rates, yt
// 91 values of scratch.
template <class Real>
ACC_ROUTINE inline void fehlberg78(Real t0, const Real* y0, Real h, const Real* p, Real* y1, Real* err,
                                   Real* k, Real* yt) {
  rates(t0, y0, p, k);
  for (int s = 1; s < stages; ++s) {
    stage_input(s, y0, h, k, yt, std::make_integer_sequence<int, stages - 1>{});
    rates(t0 + Real(fehlberg_c(s)) * h, yt, p, k + s * equations);
  }
  for (int i = 0; i < equations; ++i) {
    const Real* r = k + i;
    const auto K = [&](int s) { return r[s * equations]; };
    y1[i] = y0[i] + h * (Real(41.0 / 840.0) * (K(0) + K(10)) + Real(34.0 / 105.0) * K(5) +
                         Real(9.0 / 35.0) * (K(6) + K(7)) + Real(9.0 / 280.0) * (K(8) + K(9)));
    err[i] = std::fabs(Real(-41.0 / 840.0) * (K(0) + K(10) - K(11) - K(12)));
  }
}

// Rodinia's solver.c: output step n (1..span) starts at time n - 1 from the state of step n - 1
// with h = 1 and takes one accepted step, shrinking or growing h by the error (at most 12
// attempts; scale 0.8 (tol |y| / err)^(1/7) within [1/8, 4], h at most 0.9 after a rejection).
// y holds span + 1 states of 91; t the times reached. Returns 0, or -1 if a step never passed.
template <class Real>
ACC_ROUTINE inline int solve(Real* y, Real* t, int span, const Real* p, Real* k, Real* yt, Real* err) {
  const Real tolerance = Real(10) / span, exponent = Real(1.0 / 7.0);
  t[0] = 0.0;
  for (int n = 1; n <= span; ++n) {
    const Real* y0 = y + (n - 1) * equations;
    Real* y1 = y + n * equations;
    const Real start = n - 1;
    Real h = 1.0;
    int attempt = 0;
    for (; attempt < 12; ++attempt) {
      fehlberg78(start, y0, h, p, y1, err, k, yt);
      bool any = false, outside = false;
      Real scale = 4.0;
      for (int i = 0; i < equations; ++i) {
        if (!(err[i] > 0)) continue;
        any = true;
        const Real yy = y0[i] == 0 ? tolerance : std::fabs(y0[i]);
        const Real si = Real(0.8) * std::pow(tolerance * yy / err[i], exponent);
        scale = si < scale ? si : scale;
        outside = outside || err[i] > tolerance * yy;
      }
      if (!any || !outside) break;
      scale = scale < 0.125 ? 0.125 : scale;
      h *= scale;
      if (h >= 0.9) h = 0.9;
      if (start + h > span) h = span - start;
      else if (start + 1.5 * h > span) h = 0.5 * h;
    }
    t[n] = start + h;
    if (attempt >= 12) return -1;
  }
  return 0;
}

// What the check of one instance found.
struct step_check {
  long bad = 0;        // values outside the tolerance
  double worst = 0.0;  // the largest relative difference of a state
  double err = 0.0;    // the largest error estimate as a fraction of its bound
};

// Checks one instance's output steps y, t (span + 1 states, as solve writes them): each step,
// taken again here from the instance's previous state with the step size it used, must give its
// state (within rel relative plus abs absolute) and an error estimate within twice solve's bound (the
// estimate of a state that barely moves is rounding noise, which differs between machines).
// Comparing whole trajectories would not do: the step sizes follow the error estimates, so the
// GPU's rounding changes h by more than any tolerance a few steps in.
template <class Real>
step_check check_steps(const Real* y, const Real* t, int span, const Real* p, double rel, double abs) {
  step_check c;
  c.bad += !(t[0] == 0);
  const Real tolerance = Real(10) / span;
  std::vector<Real> y1(equations), err(equations), k(stages * equations), yt(equations);
  for (int n = 1; n <= span; ++n) {
    const Real* y0 = y + (n - 1) * equations;
    const Real start = n - 1, h = t[n] - start;
    if (!(h > 0.0 && h <= 1.0)) {
      ++c.bad;
      continue;
    }
    fehlberg78(start, y0, h, p, y1.data(), err.data(), k.data(), yt.data());
    for (int i = 0; i < equations; ++i) {
      const double got = y[n * equations + i], want = y1[i];
      const double d = std::fabs(got - want);
      c.bad += !(d <= rel * std::fabs(want) + abs);
      c.worst = std::max(c.worst, d / (std::fabs(want) + 1e-300));
      const double bound = tolerance * (y0[i] == 0 ? tolerance : std::fabs(y0[i]));
      c.err = std::max(c.err, double(err[i]) / bound);
      c.bad += !(err[i] <= 2 * bound);
    }
  }
  return c;
}

/// Every instance solved with its stages in arrays private to the iteration (OpenACC:
/// `parallel loop vector_length(lanes) private(stage, scratch)`), in Real. On a GPU private
/// arrays are local memory, which interleaves the threads' copies so that a warp's accesses
/// coalesce.
template <class Real>
void solve_private(int instances, int lanes, std::size_t per, int span, acc::view<Real> y, acc::view<Real> t,
                   acc::view<Real> p, acc::view<int> status) {
  acc::parallel_loop(instances, acc::vector_length(lanes), acc::default_present, ACC_LAMBDA(int m) {
    Real stage[stages * equations], scratch[2 * equations];
    status[m] = solve(&y[m * per], &t[std::size_t(m) * (span + 1)], span, &p[std::size_t(m) * parameters], stage,
                      scratch, scratch + equations);
  });
}

}  // namespace

int main(int argc, char** argv) try {
  const int span = argc > 1 ? std::atoi(argv[1]) : 100;
  const int instances = argc > 2 ? std::atoi(argv[2]) : 1024;
  if (span < 1 || instances < 1) {
    std::fprintf(stderr, "usage: myocyte [span in ms >= 1] [instances >= 1]\n");
    return 2;
  }
  std::printf("myocyte: %d instances over %d ms, on %s\n", instances, span,
              acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");
  const std::size_t per = std::size_t(span + 1) * equations;
  acc::array<double> y("y", instances * per), t("t", std::size_t(instances) * (span + 1));
  acc::array<double> p("params", std::size_t(instances) * parameters);
  acc::array<double> k("stages", std::size_t(instances) * stages * equations);
  acc::array<double> scratch("scratch", std::size_t(instances) * 2 * equations);
  acc::array<int> status("status", instances);
  acc::array<float> yf("y_float", instances * per), tf("t_float", std::size_t(instances) * (span + 1));
  acc::array<float> pf("params_float", std::size_t(instances) * parameters);
  for (int m = 0; m < instances; ++m) {
    // Every instance starts from Rodinia's data, as Rodinia's do.
    std::copy(myocyte::initial_state, myocyte::initial_state + equations, &y[m * per]);
    std::copy(myocyte::initial_parameters, myocyte::initial_parameters + parameters, &p[std::size_t(m) * parameters]);
  }

  // The sequential reference: one run, as every instance starts from the same state.
  std::vector<double> ref_y(y.data(), y.data() + per), ref_t(span + 1);
  std::vector<double> rk(stages * equations), rs(2 * equations);
  const int ref_failed =
      solve(ref_y.data(), ref_t.data(), span, p.data(), rk.data(), rs.data(), rs.data() + equations) != 0;

  // The same in single precision, from the same data rounded to float.
  std::copy(y.data(), y.data() + y.size(), yf.data());
  std::copy(p.data(), p.data() + p.size(), pf.data());
  std::vector<float> ref_yf(yf.data(), yf.data() + per), ref_tf(span + 1);
  std::vector<float> rkf(stages * equations), rsf(2 * equations);
  const int ref_failed_f =
      solve(ref_yf.data(), ref_tf.data(), span, pf.data(), rkf.data(), rsf.data(), rsf.data() + equations) != 0;

  std::vector<double> y0(y.data(), y.data() + y.size());
  std::vector<float> y0f(yf.data(), yf.data() + yf.size());
  acc::data region{acc::copyin(p), acc::create(y), acc::create(t), acc::create(k), acc::create(scratch),
                   acc::create(status), acc::copyin(pf), acc::create(yf), acc::create(tf)};
  acc::view<double> yv = y, tv = t, kv = k, sv = scratch;
  acc::view<double> pv = p;  // not const: the element address is taken
  acc::view<int> st = status;
  acc::view<float> yfv = yf, tfv = tf, pfv = pf;
  auto reset = [&] {
    std::copy(y0.begin(), y0.end(), y.data());
    acc::update_device(y);
  };
  auto reset_float = [&] {
    std::copy(y0f.begin(), y0f.end(), yf.data());
    acc::update_device(yf);
  };
  // OpenACC: #pragma acc parallel loop present(...) for (m...) status[m] = solve(&y[m * per], ...);
  auto per_instance = [&] {
    acc::parallel_loop(instances, acc::default_present, ACC_LAMBDA(int m) {
      st[m] = solve(&yv[m * per], &tv[std::size_t(m) * (span + 1)], span, &pv[std::size_t(m) * parameters],
                    &kv[std::size_t(m) * stages * equations], &sv[std::size_t(m) * 2 * equations],
                    &sv[std::size_t(m) * 2 * equations + equations]);
    });
  };
  // The stages private to the iteration (solve_private): the global arrays above give each
  // thread its own 9 KiB block, and a warp touches 32 lines per access. 32 lanes a gang spread
  // Rodinia's 1024 instances over 32 multiprocessors, as its 32-thread blocks do, where the
  // default 256 would leave all but 4 idle. With 8 lanes they run on 128 multiprocessors, and
  // the private arrays of a gang (8 x 11 KiB) stay in its multiprocessor's L1, where 32 lanes'
  // (350 KiB) do not fit and their stage loads go to L2. The float variants are the same in
  // single precision.
  auto private_stages = [&] { solve_private<double>(instances, 32, per, span, yv, tv, pv, st); };
  auto private_stages_8 = [&] { solve_private<double>(instances, 8, per, span, yv, tv, pv, st); };
  auto float_private_stages = [&] { solve_private<float>(instances, 32, per, span, yfv, tfv, pfv, st); };
  auto float_private_stages_8 = [&] { solve_private<float>(instances, 8, per, span, yfv, tfv, pfv, st); };

  // Every instance's steps checked one by one, and its total integrated time (the sum of its
  // step sizes) within 5% of the sequential run's.
  double ref_time = 0.0, ref_time_f = 0.0;
  for (int n = 1; n <= span; ++n) ref_time += ref_t[n] - (n - 1);
  for (int n = 1; n <= span; ++n) ref_time_f += ref_tf[n] - (n - 1);
  bool ok = ref_failed == 0 && ref_failed_f == 0;
  // Steps taken again must agree to 1e-6 relative plus 1e-9 in double; in float, whose
  // rounding is 2^29 times coarser, to 1e-3 relative plus 1e-7 (the smallest states that move
  // are about 1e-4).
  const auto check_arrays = [&](const char* name, auto& y, auto& t, auto& p, double ref_time, double rel,
                                double abs) {
    acc::update_self(y);
    acc::update_self(t);
    acc::update_self(status);
    step_check all;
    int failed = 0;
    long off_time = 0;
    for (int m = 0; m < instances; ++m) {
      failed += status[m] != 0;
      const auto* tm = &t[std::size_t(m) * (span + 1)];
      const step_check c = check_steps(&y[m * per], tm, span, &p[std::size_t(m) * parameters], rel, abs);
      all.bad += c.bad;
      all.worst = std::max(all.worst, c.worst);
      all.err = std::max(all.err, c.err);
      double time = 0.0;
      for (int n = 1; n <= span; ++n) time += tm[n] - (n - 1);
      off_time += !(std::fabs(time - ref_time) <= 0.05 * ref_time);
    }
    std::printf("    %s: %ld values fail their step's check (max relative difference %.3g, error %.3g of its "
                "bound), %ld instances' integrated time off; %d of %d instances failed a step\n",
                name, all.bad, all.worst, all.err, off_time, failed, instances);
    ok = ok && all.bad == 0 && off_time == 0 && failed == 0;
  };
  const auto check = [&](const char* name) { check_arrays(name, y, t, p, ref_time, 1e-6, 1e-9); };
  const auto check_float = [&](const char* name) { check_arrays(name, yf, tf, pf, ref_time_f, 1e-3, 1e-7); };
  rodinia::report("per_instance", rodinia::median_seconds(reset, per_instance));
  check("per_instance");
  rodinia::report("private_stages", rodinia::median_seconds(reset, private_stages));
  check("private_stages");
  rodinia::report("private_stages_8", rodinia::median_seconds(reset, private_stages_8));
  check("private_stages_8");
  rodinia::report("float_private_stages", rodinia::median_seconds(reset_float, float_private_stages));
  check_float("float_private_stages");
  rodinia::report("float_private_stages_8", rodinia::median_seconds(reset_float, float_private_stages_8));
  check_float("float_private_stages_8");
  const double* last = &ref_y[span * equations];
  std::printf("  sequential run%s: %.6g ms integrated; at the last step Vm %.6g mV; Ca dyad %.6g uM, SL %.6g uM, "
              "cytosol %.6g uM, SR %.6g mM; dyad Ca4CaM %.6g uM\n",
              ref_failed ? " (FAILED a step)" : "", ref_time, last[myocyte::ecc_state::vm], last[35] * 1e3,
              last[36] * 1e3, last[37] * 1e3, last[myocyte::ecc_state::ca_sr], last[cam_dyad + 2]);
  const float* lastf = &ref_yf[span * equations];
  std::printf("  sequential run in float%s: %.6g ms integrated; at the last step Vm %.6g mV; Ca dyad %.6g uM\n",
              ref_failed_f ? " (FAILED a step)" : "", ref_time_f, lastf[myocyte::ecc_state::vm], lastf[35] * 1e3);
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "myocyte: %s\n", e.what());
  return 1;
}
