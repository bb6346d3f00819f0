// Rodinia 3.1 myocyte with acc: many instances of a cardiac myocyte ODE model (91 equations:
// excitation-contraction coupling, ECC, 46 states, and Ca-calmodulin / CaMKII / calcineurin
// signalling, CaM, 15 states in each of the dyad, subsarcolemmal and cytosolic compartments,
// coupled by Ca and CaM fluxes), each integrated with the embedded Runge-Kutta-Fehlberg 7(8)
// method under Rodinia's step control. One variant, as an OpenACC user parallelises Rodinia's
// mode 1 (across instances):
//   per_instance   one parallel_loop over the instances; each thread integrates its instance
//                  over all output steps with its stages in thread-private memory.
// Checked against a sequential host run of the same solver: every state at every output step
// within 1e-6 relative plus 1e-9 absolute, step times within 1e-9 (the GPU's fused multiply-adds
// and its pow round differently, and the step control feeds that back into the states).
// Double precision throughout (Rodinia: float).
//
// INCOMPLETE MODEL. Written here: the RKF 7(8) solver and Rodinia's step controller, the CaM
// module for the three compartments (Saucerman & Bers 2008, Rodinia's cam.c) and their coupling
// (Rodinia's fin.c: CaM diffusion dyad-SL-cytosol, the CaM buffering flux of Ca into the ECC's
// Ca states 35-37). Missing: the ECC module's own 46 rate equations (Rodinia's ecc.c: membrane
// currents, SR release and uptake, Na/Ca handling, buffers); their rates are zero here, so the
// ECC states stay at their initial values except the three Ca concentrations, which move only
// by CaM buffering. Rodinia's initial state (data/myocyte/y.txt) and parameters (params.txt)
// are not in its repository either: the values below are chosen here (CaM totals and binding
// partners of the order of Saucerman & Bers' model, all CaM free at t = 0, Ca raised to a few
// uM and varied per instance so that the instances differ).
//
//   myocyte [span = 100 ms] [instances = 1024]   (Rodinia's run script: myocyte.out 100 1 0)
#include "../common/rodinia.hpp"

#include <acc/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

constexpr int equations = 91;
constexpr int parameters = 16;
constexpr int stages = 13;
// Offsets of the modules in the state vector and of their parameters (Rodinia's master.c).
constexpr int ecc_states = 46;
constexpr int cam_states = 15;
constexpr int cam_dyad = 46, cam_sl = 61, cam_cyt = 76;

// The CaM module of one compartment: the 15 rates into f from the states y and the parameters
// p (CaM, buffer, CaMKII, calcineurin and PP1 totals) at free Ca concentration ca [uM]; returns
// the compartment's Ca flux into CaM [uM/ms]. Rate constants in [1/s] and [1/(uM s)], K = 135 mM
// and Mg = 1 mM, from Saucerman & Bers 2008 as in Rodinia's cam.c.
ACC_ROUTINE inline double cam(const double* y, const double* p, double* f, double ca) {
  const double CaM = y[0], Ca2CaM = y[1], Ca4CaM = y[2], CaMB = y[3], Ca2CaMB = y[4], Ca4CaMB = y[5];
  const double Pb2 = y[6], Pb = y[7], Pt = y[8], Pt2 = y[9], Pa = y[10];
  const double Ca4CaN = y[11], CaMCa4CaN = y[12], Ca2CaMCa4CaN = y[13], Ca4CaMCa4CaN = y[14];
  const double Btot = p[1], CaMKIItot = p[2], CaNtot = p[3], PP1tot = p[4];
  const double K = 135.0, Mg = 1.0;  // [mM]
  // Ca binding to CaM, its dissociation constants depending on K and Mg (Mg <= 1 mM).
  const double Kd02 = 0.0025 * (1 + K / 0.94 - Mg / 0.012) * (1 + K / 8.1 + Mg / 0.022);  // [uM^2]
  const double Kd24 = 0.128 * (1 + K / 0.64 + Mg / 0.0014) * (1 + K / 13.0 - Mg / 0.153);  // [uM^2]
  const double k20 = 10, k02 = k20 / Kd02, k42 = 500, k24 = k42 / Kd24;
  // CaM binding to the buffer B.
  const double k0Boff = 0.0014, k0Bon = k0Boff / 0.2, k2Boff = k0Boff / 100, k2Bon = k0Bon;
  const double k4Boff = k2Boff, k4Bon = k0Bon;
  const double k20B = k20 / 100, k02B = k02, k42B = k42, k24B = k24;
  // CaMKII states: Pb2, Pb bound, Pt, Pt2 trapped, Pa autonomous; PP1 dephosphorylation.
  const double kbi = 2.2, kib = kbi / 33.5e-3, kpp1 = 1.72, Kmpp1 = 11.5;
  const double kib2 = kib, kb2i = kib2 * 5, kb24 = k24, kb42 = k42 * 33.5e-3 / 5;
  const double kta = kbi / 1000, kat = kib, kt42 = k42 * 33.5e-6 / 5, kt24 = k24, kat2 = kib, kt2a = kib * 5;
  // Calcineurin (CaN).
  const double kcanCaoff = 1, kcanCaon = kcanCaoff / 0.5, kcanCaM4on = 46, kcanCaM4off = 0.0013;
  const double kcanCaM2on = kcanCaM4on, kcanCaM2off = 2508 * kcanCaM4off;
  const double kcanCaM0on = kcanCaM4on, kcanCaM0off = 165 * kcanCaM2off;
  const double k02can = k02, k20can = k20 / 165, k24can = k24, k42can = k20 / 2508;

  const double ca2 = ca * ca;
  const double r02 = k02 * ca2 * CaM - k20 * Ca2CaM;
  const double r24 = k24 * ca2 * Ca2CaM - k42 * Ca4CaM;
  const double B = Btot - CaMB - Ca2CaMB - Ca4CaMB;
  const double r02B = k02B * ca2 * CaMB - k20B * Ca2CaMB;
  const double r24B = k24B * ca2 * Ca2CaMB - k42B * Ca4CaMB;
  const double r0B = k0Bon * CaM * B - k0Boff * CaMB;
  const double r2B = k2Bon * Ca2CaM * B - k2Boff * Ca2CaMB;
  const double r4B = k4Bon * Ca4CaM * B - k4Boff * Ca4CaMB;
  const double Ca2CaN = CaNtot - Ca4CaN - CaMCa4CaN - Ca2CaMCa4CaN - Ca4CaMCa4CaN;
  const double rCa4CaN = kcanCaon * ca2 * Ca2CaN - kcanCaoff * Ca4CaN;
  const double r02CaN = k02can * ca2 * CaMCa4CaN - k20can * Ca2CaMCa4CaN;
  const double r24CaN = k24can * ca2 * Ca2CaMCa4CaN - k42can * Ca4CaMCa4CaN;
  const double r0CaN = kcanCaM0on * CaM * Ca4CaN - kcanCaM0off * CaMCa4CaN;
  const double r2CaN = kcanCaM2on * Ca2CaM * Ca4CaN - kcanCaM2off * Ca2CaMCa4CaN;
  const double r4CaN = kcanCaM4on * Ca4CaM * Ca4CaN - kcanCaM4off * Ca4CaMCa4CaN;
  const double Pix = 1 - Pb2 - Pb - Pt - Pt2 - Pa;
  const double rib2 = kib2 * Ca2CaM * Pix - kb2i * Pb2;
  const double rb2b = kb24 * ca2 * Pb2 - kb42 * Pb;
  const double rib = kib * Ca4CaM * Pix - kbi * Pb;
  const double T = Pb + Pt + Pt2 + Pa;
  const double kbt = 0.055 * T + 0.0074 * T * T + 0.015 * T * T * T;
  const double rbt = kbt * Pb - kpp1 * PP1tot * Pt / (Kmpp1 + CaMKIItot * Pt);
  const double rtt2 = kt42 * Pt - kt24 * ca2 * Pt2;
  const double rta = kta * Pt - kat * Ca4CaM * Pa;
  const double rt2a = kt2a * Pt2 - kat2 * Ca2CaM * Pa;
  const double rt2b2 = kpp1 * PP1tot * Pt2 / (Kmpp1 + CaMKIItot * Pt2);
  const double rai = kpp1 * PP1tot * Pa / (Kmpp1 + CaMKIItot * Pa);
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

// The whole right-hand side f = dy/dt (Rodinia's master.c with fin.c). Volumes [L] and the CaM
// diffusion constants [L/ms] and buffer rates as in Rodinia's fin.c.
ACC_ROUTINE inline void rates(const double* y, const double* p, double* f) {
  for (int i = 0; i < ecc_states; ++i) f[i] = 0.0;  // the ECC module is not written (see the top)
  const double jdyad = cam(y + cam_dyad, p + 1, f + cam_dyad, y[35] * 1e3);  // Ca [mM] -> [uM]
  const double jsl = cam(y + cam_sl, p + 6, f + cam_sl, y[36] * 1e3);
  const double jcyt = cam(y + cam_cyt, p + 11, f + cam_cyt, y[37] * 1e3);
  const double Vmyo = 2.1454e-11, Vdyad = 1.7790e-14, VSL = 6.6013e-13, kSLmyo = 8.587e-15;
  const double k0Boff = 0.0014, k0Bon = k0Boff / 0.2, k2Boff = k0Boff / 100, k2Bon = k0Bon, k4Bon = k0Bon;
  f[35] += 1e-3 * jdyad;
  f[36] += 1e-3 * jsl;
  f[37] += 1e-3 * jcyt;
  const double* d = y + cam_dyad;
  const double* s = y + cam_sl;
  const double* c = y + cam_cyt;
  const double CaMKIItotDyad = p[3], BtotDyad = p[2];
  const double CaMtotDyad = d[0] + d[1] + d[2] + d[3] + d[4] + d[5] + CaMKIItotDyad * (d[6] + d[7] + d[8] + d[9]) +
                            d[12] + d[13] + d[14];
  const double Bdyad = BtotDyad - CaMtotDyad;
  // CaM forms leaving the dyad for the SL, and the SL for the cytosol.
  const double jd[3] = {1e-3 * (k0Boff * d[0] - k0Bon * Bdyad * s[0]), 1e-3 * (k2Boff * d[1] - k2Bon * Bdyad * s[1]),
                        1e-3 * (k2Boff * d[2] - k4Bon * Bdyad * s[2])};
  for (int m = 0; m < 3; ++m) {
    const double js = kSLmyo * (s[m] - c[m]);
    f[cam_dyad + m] -= jd[m];
    f[cam_sl + m] += jd[m] * Vdyad / VSL - js / VSL;
    f[cam_cyt + m] += js / Vmyo;
  }
  for (int i = 0; i < equations; ++i)
    if (!(f[i] - f[i] == 0.0)) f[i] = 0.0001;  // Rodinia's guard against NaN and infinity
}

// One step of Fehlberg's 7(8) pair (NASA TR R-287, 1968; the 13-stage tableau Rodinia's
// embedded_fehlberg_7_8.c uses): y1 = the 7th-order solution from y0 over h, err = Rodinia's
// error estimate |41/840 (k1 + k11 - k12 - k13)| per equation. k holds 13 x 91 stage rates, yt
// 91 values of scratch.
ACC_ROUTINE inline void fehlberg78(const double* y0, double h, const double* p, double* y1, double* err, double* k,
                                   double* yt) {
  // The stages' coefficients on the earlier rates: row s lists a(s, 0..s-1).
  const auto a = [](int s, int j) -> double {
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
  };
  // The model does not depend on time (the ECC's stimulus is part of the missing module), so the
  // stages' nodes c(s) are not needed.
  rates(y0, p, k);
  for (int s = 1; s < stages; ++s) {
    for (int i = 0; i < equations; ++i) {
      double sum = 0.0;
      for (int j = 0; j < s; ++j) sum += a(s, j) * k[j * equations + i];
      yt[i] = y0[i] + h * sum;
    }
    rates(yt, p, k + s * equations);
  }
  for (int i = 0; i < equations; ++i) {
    const double* r = k + i;
    const auto K = [&](int s) { return r[s * equations]; };
    y1[i] = y0[i] + h * (41.0 / 840.0 * (K(0) + K(10)) + 34.0 / 105.0 * K(5) + 9.0 / 35.0 * (K(6) + K(7)) +
                         9.0 / 280.0 * (K(8) + K(9)));
    err[i] = fabs(-41.0 / 840.0 * (K(0) + K(10) - K(11) - K(12)));
  }
}

// Rodinia's solver.c: output step n (1..span) starts at time n - 1 from the state of step n - 1
// with h = 1 and takes one accepted step, shrinking or growing h by the error (at most 12
// attempts; scale 0.8 (tol |y| / err)^(1/7) within [1/8, 4], h at most 0.9 after a rejection).
// y holds span + 1 states of 91; t the times reached. Returns 0, or -1 if a step never passed.
ACC_ROUTINE inline int solve(double* y, double* t, int span, const double* p, double* k, double* yt, double* err) {
  const double tolerance = 10.0 / span, exponent = 1.0 / 7.0;
  t[0] = 0.0;
  for (int n = 1; n <= span; ++n) {
    const double* y0 = y + (n - 1) * equations;
    double* y1 = y + n * equations;
    const double start = n - 1;
    double h = 1.0;
    int attempt = 0;
    for (; attempt < 12; ++attempt) {
      fehlberg78(y0, h, p, y1, err, k, yt);
      bool any = false, outside = false;
      double scale = 4.0;
      for (int i = 0; i < equations; ++i) {
        if (!(err[i] > 0)) continue;
        any = true;
        const double yy = y0[i] == 0.0 ? tolerance : fabs(y0[i]);
        const double si = 0.8 * pow(tolerance * yy / err[i], exponent);
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

// The initial state and parameters of an instance (see the top: chosen here).
void initial(double* y, double* p, rodinia::random& r) {
  std::fill(y, y + equations, 0.0);
  const double ca_dyad = 10e-3, ca_sl = 1e-3, ca_cyt = 0.5e-3;  // [mM]
  const double f = 1.0 + 0.5 * r.uniform();
  y[35] = ca_dyad * f;
  y[36] = ca_sl * f;
  y[37] = ca_cyt * f;
  // Per compartment: CaM, buffer, CaMKII, CaN and PP1 totals [uM] (Saucerman & Bers 2008's order
  // of magnitude: much CaM and CaMKII in the dyad, a buffer in the SL and cytosol).
  const double totals[3][5] = {{418.0, 0.0, 120.0, 3.6, 96.5}, {5.65, 24.2, 0.0995, 0.003, 0.57},
                               {5.65, 24.2, 0.0995, 0.003, 0.57}};
  p[0] = 1000.0;  // the ECC module's (pacing cycle length [ms]; unused while it is missing)
  const int offset[3] = {cam_dyad, cam_sl, cam_cyt};
  for (int c = 0; c < 3; ++c) {
    for (int q = 0; q < 5; ++q) p[1 + 5 * c + q] = totals[c][q];
    y[offset[c]] = totals[c][0];  // all CaM free
  }
}

}  // namespace

int main(int argc, char** argv) try {
  const int span = argc > 1 ? std::atoi(argv[1]) : 100;
  const int instances = argc > 2 ? std::atoi(argv[2]) : 1024;
  if (span < 1 || instances < 1) {
    std::fprintf(stderr, "usage: myocyte [span in ms >= 1] [instances >= 1]\n");
    return 2;
  }
  std::printf("myocyte: %d instances over %d ms, on %s (the ECC module's equations are not ported)\n", instances,
              span, acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");
  const std::size_t per = std::size_t(span + 1) * equations;
  acc::array<double> y("y", instances * per), t("t", std::size_t(instances) * (span + 1));
  acc::array<double> p("params", std::size_t(instances) * parameters);
  acc::array<double> k("stages", std::size_t(instances) * stages * equations);
  acc::array<double> scratch("scratch", std::size_t(instances) * 2 * equations);
  acc::array<int> status("status", instances);
  rodinia::random r(91);
  for (int m = 0; m < instances; ++m) initial(&y[m * per], &p[std::size_t(m) * parameters], r);

  // The sequential reference.
  std::vector<double> ref_y(y.data(), y.data() + instances * per), ref_t(t.size());
  std::vector<double> rk(stages * equations), rs(2 * equations);
  int ref_failed = 0;
  for (int m = 0; m < instances; ++m)
    ref_failed += solve(&ref_y[m * per], &ref_t[std::size_t(m) * (span + 1)], span, &p[std::size_t(m) * parameters],
                        rk.data(), rs.data(), rs.data() + equations) != 0;

  std::vector<double> y0(y.data(), y.data() + y.size());
  acc::data region{acc::copyin(p), acc::create(y), acc::create(t), acc::create(k), acc::create(scratch),
                   acc::create(status)};
  acc::view<double> yv = y, tv = t, kv = k, sv = scratch;
  acc::view<double> pv = p;  // not const: the element address is taken
  acc::view<int> st = status;
  auto reset = [&] {
    std::copy(y0.begin(), y0.end(), y.data());
    acc::update_device(y);
  };
  // OpenACC: #pragma acc parallel loop present(...) for (m...) status[m] = solve(&y[m * per], ...);
  auto run = [&] {
    acc::parallel_loop(instances, acc::default_present, ACC_LAMBDA(int m) {
      st[m] = solve(&yv[m * per], &tv[std::size_t(m) * (span + 1)], span, &pv[std::size_t(m) * parameters],
                    &kv[std::size_t(m) * stages * equations], &sv[std::size_t(m) * 2 * equations],
                    &sv[std::size_t(m) * 2 * equations + equations]);
    });
  };
  rodinia::report("per_instance", rodinia::median_seconds(reset, run));
  acc::update_self(y);
  acc::update_self(t);
  acc::update_self(status);
  double worst = 0.0;
  long bad = 0;
  int failed = 0;
  for (int m = 0; m < instances; ++m) failed += status[m] != 0;
  for (std::size_t i = 0; i < ref_y.size(); ++i) {
    const double d = std::fabs(y[i] - ref_y[i]), lim = 1e-6 * std::fabs(ref_y[i]) + 1e-9;
    if (!(d <= lim)) ++bad;
    worst = std::max(worst, d / (std::fabs(ref_y[i]) + 1e-300));
  }
  for (std::size_t i = 0; i < ref_t.size(); ++i) bad += !(std::fabs(t[i] - ref_t[i]) <= 1e-9 * (1 + ref_t[i]));
  std::printf("    per_instance: %ld values differ from the sequential run (max relative difference %.3g); %d of %d "
              "instances failed a step (reference %d)\n",
              bad, worst, failed, instances, ref_failed);
  const double* last = &ref_y[span * equations];
  std::printf("  instance 0 at t = %.4g ms: Ca dyad %.6g uM, SL %.6g uM, cytosol %.6g uM; dyad Ca4CaM %.6g uM\n",
              ref_t[span], last[35] * 1e3, last[36] * 1e3, last[37] * 1e3, last[cam_dyad + 2]);
  return rodinia::verdict(bad == 0 && failed == ref_failed && ref_failed == 0);
} catch (const std::exception& e) {
  std::fprintf(stderr, "myocyte: %s\n", e.what());
  return 1;
}
