// NPB BT (Block Tridiagonal), after the NAS Parallel Benchmarks 3.x serial version: the 3-D
// compressible Navier-Stokes equations with a manufactured solution (a forcing term makes a
// known polynomial exact), advanced by an implicit ADI scheme whose three factors are block
// tridiagonal systems of 5x5 blocks along grid lines in xi, eta and zeta. The residual norms and
// the solution error norms after `niter` steps are checked against NPB's values.
//   bt [S|W|A|B|C]   (default S)
// Written for acc from the NPB 3.4 specification of BT (NAS technical reports RNR-94-007 and
// NAS-95-020), reading GMAP/NPB-CPP's NPB-SER/BT/bt.cpp for the algorithm's details; the class
// parameters, the exact solution's coefficients (ce), the scheme's constants and the
// verification values are NPB 3.4's (set_constants() and verify() there).
//
// Every loop nest is one acc construct on present data, inside one data region (compute_rhs's
// three direction sweeps are fused into one point-wise construct): the solves run one grid line
// per iteration, parallel over the two other dimensions, with the line's forward elimination and
// back substitution sequential inside the body, as NPB's OpenACC versions do. initialize and
// exact_rhs also run as constructs, point-wise, so nothing moves between host and device.
//
// Layout: each of the five solution components is a separate contiguous 3-D grid (u(m, k, j, i)
// at u[m * points + (k * ny + j) * nx + i], i fastest), so consecutive i, the fastest index of
// every collapsed construct, are consecutive addresses on a GPU; NPB's u(k, j, i, m) would put
// neighbouring threads 40 bytes apart. The eta and zeta solves (threads along i) read and write
// rhs coalesced; the xi solve (threads along j) walks each thread's line through cache lines.
// The eliminated upper blocks C' that back substitution needs are kept per line in `lhs_c`,
// stored [position][element][line] so that the lines' threads again touch consecutive addresses.
// On the host (an openmp or serial build, or a cuda build's host code) solve_line keeps the
// flux Jacobians of three consecutive points and computes one per point, where a GPU thread
// computes its row's three (the registers to keep them would cost it occupancy).
//
// The host's own forms, chosen where acc::get_device_type() == host (the GPU runs the forms
// above): the solves run one gang per line with the line's C' blocks in gang-shared memory
// (host_solve_lines), as NPB-OMP solves a line in small per-thread arrays; lhs_c is then
// untouched: once the grid outgrows the cache (class A and up), keeping C' there streams 200
// bytes a point through memory in every sweep. compute_rhs's sum runs one grid row per
// iteration through plain pointers (host_rhs_rows), so that g++ vectorises it.
#include "../common/npb_bt.hpp"

#include <acc/parallel.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>

// The host's flux rows read 16 arrays besides the 5 they write: more than g++ checks for
// overlap at run time, so without the promise that they do not overlap it leaves the rows scalar.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDA_ARCH__)
#  define BT_IVDEP _Pragma("GCC ivdep")
#else
#  define BT_IVDEP
#endif

namespace {

using namespace npb::bt;

// --- Parameters and verification values (NPB 3.4 BT: npbparams, verify()) ------------------------
struct bt_class {
  char name;
  int n;       // grid points in each dimension
  int niter;   // time steps
  double dt;
  double xcr[5];  // RMS norms of the residual (rhs / dt) after niter steps
  double xce[5];  // RMS norms of the error against the exact solution
};
constexpr bt_class classes[] = {
    {'S', 12, 60, 0.010,
     {1.7034283709541311e-01, 1.2975252070034097e-02, 3.2527926989486055e-02, 2.6436421275166801e-02,
      1.9211784131744430e-01},
     {4.9976913345811579e-04, 4.5195666782961927e-05, 7.3973765172921357e-05, 7.3821238632439731e-05,
      8.9269630987491446e-04}},
    {'W', 24, 200, 0.0008,
     {0.1125590409344e+03, 0.1180007595731e+02, 0.2710329767846e+02, 0.2469174937669e+02, 0.2638427874317e+03},
     {0.4419655736008e+01, 0.4638531260002e+00, 0.1011551749967e+01, 0.9235878729944e+00, 0.1018045837718e+02}},
    {'A', 64, 200, 0.0008,
     {1.0806346714637264e+02, 1.1319730901220813e+01, 2.5974354511582465e+01, 2.3665622544678910e+01,
      2.5278963211748344e+02},
     {4.2348416040525025e+00, 4.4390282496995698e-01, 9.6692480136345650e-01, 8.8302063039765474e-01,
      9.7379901770829278e+00}},
    {'B', 102, 200, 0.0003,
     {1.4233597229287254e+03, 9.9330522590150238e+01, 3.5646025644535285e+02, 3.2485447959084092e+02,
      3.2707541254659363e+03},
     {5.2969847140936856e+01, 4.4632896115670668e+00, 1.3122573342210174e+01, 1.2006925323559144e+01,
      1.2459576151035986e+02}},
    {'C', 162, 200, 0.0001,
     {0.62398116551764615e+04, 0.50793239190423964e+03, 0.15423530093013596e+04, 0.13302387929291190e+04,
      0.11604087428436455e+05},
     {0.16462008369091265e+03, 0.11497107903824313e+02, 0.41207446207461508e+02, 0.37087651059694167e+02,
      0.36211053051841265e+03}},
};
constexpr double epsilon = 1.0e-8;  // NPB's verification tolerance (relative)

/// NPB's fourth-order artificial dissipation at position pos of a line of n points, one-sided
/// near the ends (am2 is unused at pos 1, ap2 at pos n - 2).
ACC_ROUTINE double fourth_difference(int pos, int n, double am2, double am1, double a0, double ap1, double ap2) {
  if (pos == 1) return 5.0 * a0 - 4.0 * ap1 + ap2;
  if (pos == 2) return -4.0 * am1 + 6.0 * a0 - 4.0 * ap1 + ap2;
  if (pos == n - 3) return am2 - 4.0 * am1 + 6.0 * a0 - 4.0 * ap1;
  if (pos == n - 2) return am2 - 4.0 * am1 + 5.0 * a0;
  return am2 - 4.0 * am1 + 6.0 * a0 - 4.0 * ap1 + ap2;
}

/// The exact solution's fluxes along direction d at one point, as exact_rhs differences them:
/// ue the solution, buf its velocities (buf[0] the squared speed), cuf the normal velocity
/// squared, q the kinetic energy.
struct exact_terms {
  double ue[5], buf[5], cuf, q;
};
ACC_ROUTINE exact_terms exact_terms_at(const coefficients& c, int d, double xi, double eta, double zeta) {
  exact_terms t;
  for (int m = 0; m < 5; ++m) t.ue[m] = exact_solution(c, m, xi, eta, zeta);
  const double dtpp = 1.0 / t.ue[0];
  for (int m = 1; m < 5; ++m) t.buf[m] = dtpp * t.ue[m];
  const int cn = d + 1, ta = d == 0 ? 2 : 1, tb = d == 2 ? 2 : 3;  // normal, then the tangential ones
  t.cuf = t.buf[cn] * t.buf[cn];
  t.buf[0] = t.cuf + t.buf[ta] * t.buf[ta] + t.buf[tb] * t.buf[tb];
  t.q = 0.5 * (t.buf[1] * t.ue[1] + t.buf[2] * t.ue[2] + t.buf[3] * t.ue[3]);
  return t;
}

/// Adds direction d's flux differences and dissipation of the exact solution to fo at the
/// interior point (k, j, i) (NPB's exact_rhs, before the sign change).
ACC_ROUTINE void add_exact_flux(const coefficients& c, const grid& g, int d, int k, int j, int i, double fo[5]) {
  const int idx[3] = {i, j, k};
  const int pos = idx[d], n = g.n[d], cn = d + 1;
  double x[3] = {double(i) * c.dn[0], double(j) * c.dn[1], double(k) * c.dn[2]};
  double ue[5][5] = {};  // offsets -2..2 along d
  exact_terms t[3];      // offsets -1..1
  for (int o = -2; o <= 2; ++o) {
    if (pos + o < 0 || pos + o > n - 1) continue;
    x[d] = double(pos + o) * c.dn[d];
    const exact_terms e = exact_terms_at(c, d, x[0], x[1], x[2]);
    for (int m = 0; m < 5; ++m) ue[o + 2][m] = e.ue[m];
    if (o >= -1 && o <= 1) t[o + 1] = e;
  }
  const exact_terms &tm = t[0], &t0 = t[1], &tp = t[2];
  const double* um = ue[1];
  const double* u0 = ue[2];
  const double* up = ue[3];
  const double t2 = c.t2[d], c1 = c.c1, c2 = c.c2;
  const double* dt1 = c.dt1[d];
  const double* con = c.con[d];

  fo[0] = fo[0] - t2 * (up[cn] - um[cn]) + dt1[0] * (up[0] - 2.0 * u0[0] + um[0]);
  for (int m = 1; m <= 3; ++m) {
    if (m == cn) {
      fo[m] = fo[m] - t2 * ((up[m] * tp.buf[cn] + c2 * (up[4] - tp.q)) - (um[m] * tm.buf[cn] + c2 * (um[4] - tm.q))) +
              con[0] * (tp.buf[m] - 2.0 * t0.buf[m] + tm.buf[m]) + dt1[m] * (up[m] - 2.0 * u0[m] + um[m]);
    } else {
      fo[m] = fo[m] - t2 * (up[m] * tp.buf[cn] - um[m] * tm.buf[cn]) +
              con[1] * (tp.buf[m] - 2.0 * t0.buf[m] + tm.buf[m]) + dt1[m] * (up[m] - 2.0 * u0[m] + um[m]);
    }
  }
  fo[4] = fo[4] - t2 * (tp.buf[cn] * (c1 * up[4] - c2 * tp.q) - tm.buf[cn] * (c1 * um[4] - c2 * tm.q)) +
          0.5 * con[2] * (tp.buf[0] - 2.0 * t0.buf[0] + tm.buf[0]) + con[3] * (tp.cuf - 2.0 * t0.cuf + tm.cuf) +
          con[4] * (tp.buf[4] - 2.0 * t0.buf[4] + tm.buf[4]) + dt1[4] * (up[4] - 2.0 * u0[4] + um[4]);
  for (int m = 0; m < 5; ++m)
    fo[m] = fo[m] - c.dssp * fourth_difference(pos, n, ue[0][m], ue[1][m], ue[2][m], ue[3][m], ue[4][m]);
}

/// The forcing term that makes the exact solution stationary: minus the discrete operator
/// applied to it at interior points, zero on the boundary.
void exact_rhs(const fields& f, const coefficients& c) {
  const grid g = f.g;
  acc::parallel_loop(acc::collapse(g.n[2], g.n[1], g.n[0]), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    double fo[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    const bool interior = k > 0 && k < g.n[2] - 1 && j > 0 && j < g.n[1] - 1 && i > 0 && i < g.n[0] - 1;
    if (interior) {
      for (int d = 0; d < 3; ++d) add_exact_flux(c, g, d, k, j, i, fo);
      for (int m = 0; m < 5; ++m) fo[m] = -1.0 * fo[m];
    }
    const long p = g.at(k, j, i);
    for (int m = 0; m < 5; ++m) f.F(m, p) = fo[m];
  });
}

// --- The explicit part: rhs = dt * (forcing - discrete operator applied to u) ---------------------
/// Adds direction d's convective and viscous flux differences and fourth-order dissipation of u
/// at interior point p (position pos along d) to r.
ACC_ROUTINE void add_flux(const fields& f, const coefficients& c, int d, long p, int pos, double r[5]) {
  const long s = f.g.stride(d), pp = p + s, pm = p - s;
  const int n = f.g.n[d], cn = d + 1;
  const double t2 = c.t2[d], c1 = c.c1, c2 = c.c2;
  const double* dt1 = c.dt1[d];
  const double* con = c.con[d];
  const double v0 = f.A(cn, p), vp = f.A(cn, pp), vm = f.A(cn, pm);  // normal velocity

  r[0] = r[0] + dt1[0] * (f.U(0, pp) - 2.0 * f.U(0, p) + f.U(0, pm)) - t2 * (f.U(cn, pp) - f.U(cn, pm));
  for (int m = 1; m <= 3; ++m) {
    const double diff = dt1[m] * (f.U(m, pp) - 2.0 * f.U(m, p) + f.U(m, pm));
    if (m == cn) {
      r[m] = r[m] + diff + con[1] * c.con43 * (vp - 2.0 * v0 + vm) -
             t2 * (f.U(m, pp) * vp - f.U(m, pm) * vm +
                   (f.U(4, pp) - f.A(square, pp) - f.U(4, pm) + f.A(square, pm)) * c2);
    } else {
      r[m] = r[m] + diff + con[1] * (f.A(m, pp) - 2.0 * f.A(m, p) + f.A(m, pm)) -
             t2 * (f.U(m, pp) * vp - f.U(m, pm) * vm);
    }
  }
  r[4] = r[4] + dt1[4] * (f.U(4, pp) - 2.0 * f.U(4, p) + f.U(4, pm)) +
         con[2] * (f.A(qs, pp) - 2.0 * f.A(qs, p) + f.A(qs, pm)) + con[3] * (vp * vp - 2.0 * v0 * v0 + vm * vm) +
         con[4] * (f.U(4, pp) * f.A(rho_inv, pp) - 2.0 * f.U(4, p) * f.A(rho_inv, p) +
                   f.U(4, pm) * f.A(rho_inv, pm)) -
         t2 * ((c1 * f.U(4, pp) - c2 * f.A(square, pp)) * vp - (c1 * f.U(4, pm) - c2 * f.A(square, pm)) * vm);
  for (int m = 0; m < 5; ++m) {
    const double am2 = pos >= 2 ? f.U(m, p - 2 * s) : 0.0;
    const double ap2 = pos <= n - 3 ? f.U(m, p + 2 * s) : 0.0;
    r[m] = r[m] - c.dssp * fourth_difference(pos, n, am2, f.U(m, pm), f.U(m, p), f.U(m, pp), ap2);
  }
}

// compute_rhs's host form: one interior grid row (k, j) per iteration, walking i through plain
// pointers in one short loop per direction and component, so that g++ vectorises the rows (the
// point-wise form above calls fourth_difference with a position that changes along i, and its
// branches keep the loop scalar). The x dissipation's one-sided ends run apart from the row's
// interior; y's and z's position is fixed along a row, so their stencil becomes five weights
// chosen once per row.

/// The fourth-difference stencil at position pos of a line of n points as coefficients of the
/// values at pos - 2 .. pos + 2 (fourth_difference's one-sided ends with zeros).
ACC_ROUTINE inline void fourth_difference_weights(int pos, int n, double w[5]) {
  for (int o = 0; o < 5; ++o) {
    double e[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    e[o] = 1.0;
    w[o] = fourth_difference(pos, n, e[0], e[1], e[2], e[3], e[4]);
  }
}

/// Direction D's flux differences and dissipation along the interior of the row starting at
/// point b (position pos along D for D = 1, 2), added to r[m][i].
template <int D>
ACC_ROUTINE BT_INLINE void add_flux_row(const fields& f, const coefficients& c, long b, int pos, double* const r[5]) {
  const grid& g = f.g;
  const long s = g.stride(D), P = g.points;
  const int nx = g.n[0], cn = D + 1;
  const double* const u0 = f.u.data() + b;
  const double* const u1 = u0 + P;
  const double* const u2 = u0 + 2 * P;
  const double* const u3 = u0 + 3 * P;
  const double* const u4 = u0 + 4 * P;
  const double* const un = u0 + cn * P;
  const double* const a = f.aux.data() + b;
  const double* const rho = a + rho_inv * P;
  const double* const vel = a + cn * P;  // normal velocity
  const double* const w1 = a + 1 * P;
  const double* const w2 = a + 2 * P;
  const double* const w3 = a + 3 * P;
  const double* const sq = a + square * P;
  const double* const q = a + qs * P;
  double* __restrict const r0 = r[0];
  double* __restrict const r1 = r[1];
  double* __restrict const r2 = r[2];
  double* __restrict const r3 = r[3];
  double* __restrict const r4 = r[4];
  const double t2 = c.t2[D], c1 = c.c1, c2 = c.c2, con43 = c.con43;
  const double dt10 = c.dt1[D][0], dt11 = c.dt1[D][1], dt12 = c.dt1[D][2], dt13 = c.dt1[D][3], dt14 = c.dt1[D][4];
  const double con1 = c.con[D][1], con2 = c.con[D][2], con3 = c.con[D][3], con4 = c.con[D][4];
  // One loop per component: a loop over all five streams 21 arrays, and its pointers spill.
  BT_IVDEP
  for (int i = 1; i < nx - 1; ++i)
    r0[i] = r0[i] + dt10 * (u0[i + s] - 2.0 * u0[i] + u0[i - s]) - t2 * (un[i + s] - un[i - s]);
  const auto momentum = [&](double* __restrict rm, const double* um, const double* wm, double dtm, bool normal) {
    if (normal) {
      BT_IVDEP
      for (int i = 1; i < nx - 1; ++i) {
        const long p = i, pp = i + s, pm = i - s;
        const double vp = vel[pp], vm = vel[pm];
        const double pressure = (u4[pp] - sq[pp] - u4[pm] + sq[pm]) * c2;
        rm[i] = rm[i] + dtm * (um[pp] - 2.0 * um[p] + um[pm]) + con1 * con43 * (vp - 2.0 * vel[p] + vm) -
                t2 * (um[pp] * vp - um[pm] * vm + pressure);
      }
    } else {
      BT_IVDEP
      for (int i = 1; i < nx - 1; ++i) {
        const long p = i, pp = i + s, pm = i - s;
        const double vp = vel[pp], vm = vel[pm];
        rm[i] = rm[i] + dtm * (um[pp] - 2.0 * um[p] + um[pm]) + con1 * (wm[pp] - 2.0 * wm[p] + wm[pm]) -
                t2 * (um[pp] * vp - um[pm] * vm);
      }
    }
  };
  momentum(r1, u1, w1, dt11, D == 0);
  momentum(r2, u2, w2, dt12, D == 1);
  momentum(r3, u3, w3, dt13, D == 2);
  BT_IVDEP
  for (int i = 1; i < nx - 1; ++i) {
    const long p = i, pp = i + s, pm = i - s;
    const double v0 = vel[p], vp = vel[pp], vm = vel[pm];
    r4[i] = r4[i] + dt14 * (u4[pp] - 2.0 * u4[p] + u4[pm]) + con2 * (q[pp] - 2.0 * q[p] + q[pm]) +
            con3 * (vp * vp - 2.0 * v0 * v0 + vm * vm) +
            con4 * (u4[pp] * rho[pp] - 2.0 * u4[p] * rho[p] + u4[pm] * rho[pm]) -
            t2 * ((c1 * u4[pp] - c2 * sq[pp]) * vp - (c1 * u4[pm] - c2 * sq[pm]) * vm);
  }
  const double dssp = c.dssp;
  for (int m = 0; m < 5; ++m) {
    const double* const um = u0 + m * P;
    double* __restrict const rm = r[m];
    if (D == 0) {
      for (int i : {1, 2, nx - 3, nx - 2}) {
        const double am2 = i >= 2 ? um[i - 2] : 0.0, ap2 = i <= nx - 3 ? um[i + 2] : 0.0;
        rm[i] = rm[i] - dssp * fourth_difference(i, nx, am2, um[i - 1], um[i], um[i + 1], ap2);
      }
      for (int i = 3; i < nx - 3; ++i)
        rm[i] = rm[i] - dssp * (um[i - 2] - 4.0 * um[i - 1] + 6.0 * um[i] - 4.0 * um[i + 1] + um[i + 2]);
    } else {
      const int n = g.n[D];
      double w[5];
      fourth_difference_weights(pos, n, w);
      const double w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
      // A window end outside the grid has weight zero: read the row itself there instead.
      const double* const m2 = um + (pos >= 2 ? -2 * s : 0);
      const double* const m1 = um - s;
      const double* const p1 = um + s;
      const double* const p2 = um + (pos + 2 < n ? 2 * s : 0);
      for (int i = 1; i < nx - 1; ++i)
        rm[i] = rm[i] - dssp * (w0 * m2[i] + w1 * m1[i] + w2 * um[i] + w3 * p1[i] + w4 * p2[i]);
    }
  }
}

/// compute_rhs's second part on the host: the interior rows' rhs, summed in place.
void host_rhs_rows(const fields& f, const coefficients& c) {
  const grid g = f.g;
  acc::parallel_loop(acc::collapse(g.n[2] - 2, g.n[1] - 2), acc::default_present, ACC_LAMBDA(int kk, int jj) {
    const int k = kk + 1, j = jj + 1, nx = g.n[0];
    const long b = g.at(k, j, 0), P = g.points;
    double* const r[5] = {f.rhs.data() + b, f.rhs.data() + P + b, f.rhs.data() + 2 * P + b, f.rhs.data() + 3 * P + b,
                          f.rhs.data() + 4 * P + b};
    for (int m = 0; m < 5; ++m) {
      double* __restrict const rm = r[m];
      const double* const fo = f.forcing.data() + m * P + b;
      for (int i = 1; i < nx - 1; ++i) rm[i] = fo[i];
    }
    add_flux_row<0>(f, c, b, 0, r);
    add_flux_row<1>(f, c, b, j, r);
    add_flux_row<2>(f, c, b, k, r);
    const double dt = c.dt;
    for (int m = 0; m < 5; ++m) {
      double* __restrict const rm = r[m];
      for (int i = 1; i < nx - 1; ++i) rm[i] = rm[i] * dt;
    }
  });
}

/// NPB's compute_rhs. Boundary rhs is never read (the solves, add and the norms cover interior
/// points), so only interior points are written.
void compute_rhs(const fields& f, const coefficients& c) {
  const grid g = f.g;
  acc::parallel_loop(acc::collapse(g.n[2], g.n[1], g.n[0]), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    derive_aux(f, g.at(k, j, i));
  });
  if (acc::get_device_type() == acc::device_type::host) {
    host_rhs_rows(f, c);
    return;
  }
  const double dt = c.dt;
  acc::parallel_loop(acc::collapse(g.n[2] - 2, g.n[1] - 2, g.n[0] - 2), acc::default_present,
                     ACC_LAMBDA(int kk, int jj, int ii) {
    const int k = kk + 1, j = jj + 1, i = ii + 1;
    const long p = g.at(k, j, i);
    double r[5];
    for (int m = 0; m < 5; ++m) r[m] = f.F(m, p);
    add_flux(f, c, 0, p, i, r);
    add_flux(f, c, 1, p, j, r);
    add_flux(f, c, 2, p, k, r);
    for (int m = 0; m < 5; ++m) f.R(m, p) = r[m] * dt;
  });
}

/// The host's solve along direction d (NPB-OMP's x/y/z_solve): one gang per line, in the GPU
/// form's order (neighbouring lines in a thread's run share rhs's and u's cache lines), the
/// line's C' blocks in gang-shared memory: 25 n doubles that stay in the core's cache from
/// elimination to back substitution. Stored per line across the whole grid as the GPU keeps
/// them, they are 200 bytes a point written and read back from memory in every sweep, each
/// element of a line on its own page.
template <int d>
void host_solve_lines(const fields& f, const coefficients& c) {
  const grid g = f.g;
  const int n = g.n[d];
  const int outer = d == 2 ? g.n[1] - 2 : g.n[2] - 2, inner = d == 0 ? g.n[1] - 2 : g.n[0] - 2;
  const int lines = outer * inner;
  acc::parallel(acc::num_gangs(lines), acc::shared_bytes(25 * sizeof(double) * std::size_t(n)), acc::default_present,
                ACC_LAMBDA(const acc::gang_t& gang) {
    double* const cp = gang.shared<double>(25 * std::size_t(n)).data();
    acc::loop(gang, acc::gang, lines, [&](int l) {
      const int o = l / inner, i = l % inner;
      const long p0 = d == 0 ? g.at(o + 1, i + 1, 0) : d == 1 ? g.at(o + 1, 0, i + 1) : g.at(0, o + 1, i + 1);
      solve_line(f, c, d, p0, [cp](int pos, int e) -> double& { return cp[pos * 25 + e]; });
    });
  });
}

/// NPB's x_solve, y_solve and z_solve: d = 0, 1, 2.
template <int d>
void solve(const fields& f, const coefficients& c) {
  if (acc::get_device_type() == acc::device_type::host)
    host_solve_lines<d>(f, c);
  else
    solve_lines<d>(f, c);
}

void add(const fields& f) {
  const grid g = f.g;
  acc::parallel_loop(acc::collapse(g.n[2] - 2, g.n[1] - 2, g.n[0] - 2), acc::default_present,
                     ACC_LAMBDA(int kk, int jj, int ii) {
    const long p = g.at(kk + 1, jj + 1, ii + 1);
    for (int m = 0; m < 5; ++m) f.U(m, p) = f.U(m, p) + f.R(m, p);
  });
}

/// One time step (NPB's adi).
void adi(const fields& f, const coefficients& c) {
  compute_rhs(f, c);
  solve<0>(f, c);
  solve<1>(f, c);
  solve<2>(f, c);
  add(f);
}

// --- Norms (NPB's rhs_norm and error_norm) ---------------------------------------------------------
/// NPB scales both sums by the interior point count, one dimension at a time.
void finish_norm(const grid& g, double s[5]) {
  for (int m = 0; m < 5; ++m) {
    for (int d = 0; d < 3; ++d) s[m] = s[m] / double(g.n[d] - 2);
    s[m] = std::sqrt(s[m]);
  }
}

void rhs_norm(const fields& f, double rms[5]) {
  const grid g = f.g;
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  acc::parallel_loop(acc::collapse(g.n[2] - 2, g.n[1] - 2, g.n[0] - 2), acc::default_present,
                     acc::reduction(acc::plus, s0), acc::reduction(acc::plus, s1), acc::reduction(acc::plus, s2),
                     acc::reduction(acc::plus, s3), acc::reduction(acc::plus, s4),
                     ACC_LAMBDA(int kk, int jj, int ii, double& r0, double& r1, double& r2, double& r3, double& r4) {
    const long p = g.at(kk + 1, jj + 1, ii + 1);
    const double v0 = f.R(0, p), v1 = f.R(1, p), v2 = f.R(2, p), v3 = f.R(3, p), v4 = f.R(4, p);
    r0 += v0 * v0;
    r1 += v1 * v1;
    r2 += v2 * v2;
    r3 += v3 * v3;
    r4 += v4 * v4;
  });
  rms[0] = s0, rms[1] = s1, rms[2] = s2, rms[3] = s3, rms[4] = s4;
  finish_norm(g, rms);
}

void error_norm(const fields& f, const coefficients& c, double rms[5]) {
  const grid g = f.g;
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
  acc::parallel_loop(acc::collapse(g.n[2], g.n[1], g.n[0]), acc::default_present, acc::reduction(acc::plus, s0),
                     acc::reduction(acc::plus, s1), acc::reduction(acc::plus, s2), acc::reduction(acc::plus, s3),
                     acc::reduction(acc::plus, s4),
                     ACC_LAMBDA(int k, int j, int i, double& r0, double& r1, double& r2, double& r3, double& r4) {
    const long p = g.at(k, j, i);
    const double xi = double(i) * c.dn[0], eta = double(j) * c.dn[1], zeta = double(k) * c.dn[2];
    double e[5];
    for (int m = 0; m < 5; ++m) e[m] = f.U(m, p) - exact_solution(c, m, xi, eta, zeta);
    r0 += e[0] * e[0];
    r1 += e[1] * e[1];
    r2 += e[2] * e[2];
    r3 += e[3] * e[3];
    r4 += e[4] * e[4];
  });
  rms[0] = s0, rms[1] = s1, rms[2] = s2, rms[3] = s3, rms[4] = s4;
  finish_norm(g, rms);
}

const bt_class* find_class(const char* arg) {
  for (const bt_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

/// Prints one norm's comparison; returns whether it is within epsilon.
bool compare(int m, double value, double reference) {
  const double diff = std::fabs((value - reference) / reference);
  const bool ok = diff <= epsilon;
  std::printf("   %s%2d %20.13e %20.13e %20.13e\n", ok ? "  " : "! ", m + 1, value, reference, diff);
  return ok;
}

}  // namespace

int main(int argc, char** argv) try {
  const bt_class* cls = find_class(argc > 1 ? argv[1] : "S");
  if (!cls) {
    std::fprintf(stderr, "usage: %s [S|W|A|B|C]\n", argv[0]);
    return 2;
  }
  grid g{{cls->n, cls->n, cls->n}, 0};
  g.points = long(g.n[0]) * g.n[1] * g.n[2];
  const coefficients c = make_coefficients(g.n, cls->dt);
  // The C' blocks of every line of the largest sweep: n[d] positions x 25 elements x lines.
  long lhs_c_size = 0;
  for (int d = 0; d < 3; ++d) {
    long lines = 1;
    for (int e = 0; e < 3; ++e)
      if (e != d) lines *= g.n[e] - 2;
    lhs_c_size = std::max(lhs_c_size, 25L * g.n[d] * lines);
  }
  acc::array<double> u("u", 5 * g.points), rhs("rhs", 5 * g.points), forcing("forcing", 5 * g.points),
      aux("aux", aux_fields * g.points), lhs_c("lhs_c", lhs_c_size);
  const fields f{g, u, rhs, forcing, aux, lhs_c};

  std::printf("NPB BT class %c: grid %d x %d x %d, niter = %d, dt = %g\n", cls->name, g.n[0], g.n[1], g.n[2],
              cls->niter, cls->dt);
  double xce[5], xcr[5], seconds = 0.0;
  {
    acc::data region{acc::create(u), acc::create(rhs), acc::create(forcing), acc::create(aux), acc::create(lhs_c)};
    initialize(f, c);
    exact_rhs(f, c);
    // NPB runs one untimed step to touch every page (here also: load the kernels), then restarts.
    adi(f, c);
    initialize(f, c);

    const auto start = std::chrono::steady_clock::now();
    for (int step = 1; step <= cls->niter; ++step) {
      if (step % 20 == 0 || step == 1) std::printf("  time step %4d\n", step);
      adi(f, c);
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    error_norm(f, c, xce);
    compute_rhs(f, c);
    rhs_norm(f, xcr);
    for (double& x : xcr) x /= cls->dt;
  }

  bool ok = true;
  std::printf("  RMS norms of the residual: computed, reference, relative difference\n");
  for (int m = 0; m < 5; ++m) ok &= compare(m, xcr[m], cls->xcr[m]);
  std::printf("  RMS norms of the solution error: computed, reference, relative difference\n");
  for (int m = 0; m < 5; ++m) ok &= compare(m, xce[m], cls->xce[m]);

  // NPB's operation count for BT: niter (3478.8 n^3 - 17655.7 n^2 + 28023.7 n), n the mean extent.
  const double n3 = double(g.n[0]) * g.n[1] * g.n[2], navg = (g.n[0] + g.n[1] + g.n[2]) / 3.0;
  const double mops = 1e-6 * cls->niter * (3478.8 * n3 - 17655.7 * navg * navg + 28023.7 * navg) / seconds;
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("  on %s\n", gpu ? "nvidia" : "host");
  std::printf("  time = %.4f s, Mop/s = %.2f\n  verification %s\n", seconds, mops, ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bt: %s\n", e.what());
  return 1;
}
