// NPB SP (Scalar Pentadiagonal), after the NAS Parallel Benchmarks 3.x OpenMP/OpenACC versions:
// the compressible Navier-Stokes equations on a cube, advanced by an approximately factored
// implicit (ADI) scheme whose factors diagonalise into scalar pentadiagonal systems along x, y
// and z. The forcing term comes from a known smooth solution, so after the time steps the
// residual (rms of rhs) and the error against that solution are checked against NPB's values.
//   sp [S|W|A|B|C] [simple]   (default S; "simple" runs NPB's nine passes per step instead of
//                              the fused four, for comparison)
// Written for acc from the NPB 3.4 specification of SP (NAS technical reports RNR-94-007 and
// NAS-95-020), reading the serial C++ translation GMAP/NPB-CPP (NPB-SER/SP/sp.cpp) for the
// algorithm; class parameters, the exact solution's coefficients (ce), the flow constants
// and the verification values are NPB 3.4's, as that file lists them.
//
// Data layout: every field is a flat acc::array, grid point (k, j, i) at (k p + j) p + i with the
// pitch p = n on the GPU and n rounded up to odd on a host (main says why), and the
// five components of u, rhs and forcing are stored one whole grid after another (component-
// major, u[m][k][j][i]), so the consecutive i of neighbouring GPU threads are consecutive
// addresses for every component, as in GMAP/NPB-GPU's u and forcing. The line solves make each
// matrix row when the elimination reaches it and keep the rows in flight in registers; only the
// two eliminated upper diagonals, which back substitution needs, go to scratch arrays indexed
// (diagonal, position, line) with the line fastest, so neighbouring threads (neighbouring lines)
// touch neighbouring addresses. The y and z solves run their lines over (k, i) and (j, i), so
// their rhs accesses are consecutive too; the x solve's lines are (k, j) and walk rhs along i,
// n doubles apart between threads (a cache line serves a thread for 8 steps).
// On a multicore host (the openmp and serial builds, and the cuda build without a GPU)
// compute_rhs and the line solves have host forms (compute_rhs_rows, solve_host), chosen at
// run time: rows walked through plain pointers, and the solves a plane of lines per gang with
// the lines innermost, as NPB's OpenMP version maps them, so that g++ vectorises across lines.
#include <acc/parallel.hpp>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <type_traits>

// The per-point flux and matrix-row routines are forced inline into the host's loops: g++ keeps
// them out of line, and their results then go through memory. nvcc's device pass keeps its own
// choice.
#if defined(__CUDA_ARCH__) || !defined(__GNUC__)
#  define SP_INLINE inline
#  define SP_INLINE_LAMBDA
#else
#  define SP_INLINE inline __attribute__((always_inline))
#  define SP_INLINE_LAMBDA __attribute__((always_inline))
#endif

namespace {

// --- Classes and verification values (NPB 3.4 SP: npbparams.h and verify()) --------------------
struct sp_class {
  char name;
  int n;         // grid points per dimension
  int niter;     // time steps
  double dt;
  double xcr[5];  // rms of the residual after niter steps, divided by dt
  double xce[5];  // rms of the error against the exact solution
};
constexpr sp_class classes[] = {
    {'S', 12, 100, 0.015,
     {2.7470315451339479e-02, 1.0360746705285417e-02, 1.6235745065095532e-02, 1.5840557224455615e-02,
      3.4849040609362460e-02},
     {2.7289258557377227e-05, 1.0364446640837285e-05, 1.6154798287166471e-05, 1.5750704994480102e-05,
      3.4177666183390531e-05}},
    {'W', 36, 400, 0.0015,
     {0.1893253733584e-02, 0.1717075447775e-03, 0.2778153350936e-03, 0.2887475409984e-03, 0.3143611161242e-02},
     {0.7542088599534e-04, 0.6512852253086e-05, 0.1049092285688e-04, 0.1128838671535e-04, 0.1212845639773e-03}},
    {'A', 64, 400, 0.0015,
     {2.4799822399300195, 1.1276337964368832, 1.5028977888770491, 1.4217816211695179, 2.1292113035138280},
     {1.0900140297820550e-04, 3.7343951769282091e-05, 5.0092785406541633e-05, 4.7671093939528255e-05,
      1.3621613399213001e-04}},
    {'B', 102, 400, 0.001,
     {0.6903293579998e+02, 0.3095134488084e+02, 0.4103336647017e+02, 0.3864769009604e+02, 0.5643482272596e+02},
     {0.9810006190188e-02, 0.1022827905670e-02, 0.1720597911692e-02, 0.1694479428231e-02, 0.1847456263981e-01}},
    {'C', 162, 400, 0.00067,
     {0.5881691581829e+03, 0.2454417603569e+03, 0.3293829191851e+03, 0.3081924971891e+03, 0.4597223799176e+03},
     {0.2598120500183e+00, 0.2590888922315e-01, 0.5132886416320e-01, 0.4806073419454e-01, 0.5483377491301e+00}},
};
constexpr double epsilon = 1.0e-8;  // NPB's verification tolerance (relative)

// The exact solution's coefficients: component m is ce[0][m] + a quartic in each of xi, eta,
// zeta without cross terms (NPB's set_constants).
constexpr double ce[13][5] = {
    {2.0, 1.0, 2.0, 2.0, 5.0},      {0.0, 0.0, 2.0, 2.0, 4.0},     {0.0, 0.0, 0.0, 0.0, 3.0},
    {4.0, 0.0, 0.0, 0.0, 2.0},      {5.0, 1.0, 0.0, 0.0, 0.1},     {3.0, 2.0, 2.0, 2.0, 0.4},
    {0.5, 3.0, 3.0, 3.0, 0.3},      {0.02, 0.01, 0.04, 0.03, 0.05}, {0.01, 0.03, 0.03, 0.05, 0.04},
    {0.03, 0.02, 0.05, 0.04, 0.03}, {0.5, 0.4, 0.3, 0.2, 0.1},     {0.4, 0.3, 0.5, 0.1, 0.3},
    {0.3, 0.5, 0.4, 0.3, 0.2},
};

ACC_ROUTINE inline double max2(double a, double b) { return a > b ? a : b; }

/// The constants of one direction (x, y or z), named after NPB's x ones: with h = 1 / (n - 1),
/// t1 = 1/h^2 (tx1), t2 = 1/(2h) (tx2), d = dx1..dx5, dt1 = d * t1 (dx1tx1..), con = xxcon1..5.
struct axis_constants {
  double t1, t2, t3;
  double d[5], dt1[5], con[5];
  double dmax;                  // the larger d of the two tangential velocity components
  double dtt1, dtt2, c2dtt1;    // dt t1, dt t2, 2 dt t1
};

/// Everything the kernels read besides the fields; captured by value (a few hundred bytes).
struct sp_constants {
  int n;               // grid points per dimension (NPB's classes are cubes)
  int pitch;           // a grid row's and a plane's length in memory, in rows and points (>= n)
  std::size_t points;  // n pitch^2: the distance between two components of u, rhs, forcing
  double dt, dnm1;     // time step, grid spacing 1 / (n - 1)
  double c1, c2, c1c2, c1c5, c3c4, con43, bt, c2iv, dssp, comz1, comz4, comz5, comz6;
  axis_constants axis[3];
  double ce[13][5];

  ACC_ROUTINE std::size_t at(int k, int j, int i) const {
    return (std::size_t(k) * pitch + std::size_t(j)) * pitch + std::size_t(i);
  }
  /// Distance between neighbours along direction D (1 = x, 2 = y, 3 = z).
  ACC_ROUTINE std::size_t stride(int d) const {
    return d == 1 ? 1 : d == 2 ? std::size_t(pitch) : std::size_t(pitch) * pitch;
  }

  /// NPB's exact_solution: the smooth field the forcing is made from.
  ACC_ROUTINE void exact_solution(double xi, double eta, double zeta, double out[5]) const {
    for (int m = 0; m < 5; ++m)
      out[m] = ce[0][m] + xi * (ce[1][m] + xi * (ce[4][m] + xi * (ce[7][m] + xi * ce[10][m]))) +
               eta * (ce[2][m] + eta * (ce[5][m] + eta * (ce[8][m] + eta * ce[11][m]))) +
               zeta * (ce[3][m] + zeta * (ce[6][m] + zeta * (ce[9][m] + zeta * ce[12][m])));
  }
};

/// NPB's set_constants for an n^3 grid and time step dt, stored with rows and planes pitch long.
sp_constants make_constants(int n, double dt, int pitch) {
  sp_constants c{};
  c.n = n;
  c.pitch = pitch;
  c.points = std::size_t(n) * pitch * pitch;
  c.dt = dt;
  c.dnm1 = 1.0 / double(n - 1);
  c.c1 = 1.4;
  c.c2 = 0.4;
  const double c3 = 0.1, c4 = 1.0, c5 = 1.4;
  c.c1c2 = c.c1 * c.c2;
  c.c1c5 = c.c1 * c5;
  c.c3c4 = c3 * c4;
  c.con43 = 4.0 / 3.0;
  const double con16 = 1.0 / 6.0, conz1 = 1.0 - c.c1c5;
  c.bt = std::sqrt(0.5);
  c.c2iv = 2.5;
  // Second-order dissipation: 0.75 in x and y, 1 in z; the fourth-order one scales with the largest.
  const double dxyz[3] = {0.75, 0.75, 1.0};
  c.dssp = 0.25 * max2(dxyz[0], max2(dxyz[1], dxyz[2]));
  const double dtdssp = dt * c.dssp;
  c.comz1 = dtdssp;
  c.comz4 = 4.0 * dtdssp;
  c.comz5 = 5.0 * dtdssp;
  c.comz6 = 6.0 * dtdssp;
  for (int a = 0; a < 3; ++a) {
    axis_constants& x = c.axis[a];
    x.t1 = 1.0 / (c.dnm1 * c.dnm1);
    x.t2 = 1.0 / (2.0 * c.dnm1);
    x.t3 = 1.0 / c.dnm1;
    for (int m = 0; m < 5; ++m) {
      x.d[m] = dxyz[a];
      x.dt1[m] = x.d[m] * x.t1;
    }
    // The tangential velocity components of direction a + 1 (x: 2, 3; y: 1, 3; z: 1, 2).
    const int t0 = a == 0 ? 2 : 1, t1 = a == 2 ? 2 : 3;
    x.dmax = max2(x.d[t0], x.d[t1]);
    x.dtt1 = dt * x.t1;
    x.dtt2 = dt * x.t2;
    x.c2dtt1 = 2.0 * x.dtt1;
    const double c3c4t3 = c.c3c4 * x.t3;
    x.con[0] = c3c4t3 * c.con43 * x.t3;
    x.con[1] = c3c4t3 * x.t3;
    x.con[2] = c3c4t3 * conz1 * x.t3;
    x.con[3] = c3c4t3 * con16 * x.t3;
    x.con[4] = c3c4t3 * c.c1c5 * x.t3;
  }
  for (int p = 0; p < 13; ++p)
    for (int m = 0; m < 5; ++m) c.ce[p][m] = ce[p][m];
  return c;
}

/// The fields, all resident on the device for the whole run.
struct sp_fields {
  acc::array<double> u, rhs, forcing;                      // 5 components each, component-major
  acc::array<double> us, vs, ws, qs, rho_i, speed, square;  // per grid point
  acc::array<double> lhs, lhsp, lhsm;  // line solves: 2 upper diagonals x n positions x n^2 lines
  acc::array<double> rtmp;  // the fused solves' eliminated rhs: 5 components x n positions x n^2 lines

  sp_fields(int n, std::size_t points)
      : u("u", 5 * points), rhs("rhs", 5 * points), forcing("forcing", 5 * points), us("us", points),
        vs("vs", points), ws("ws", points), qs("qs", points), rho_i("rho_i", points), speed("speed", points),
        square("square", points), lhs("lhs", 2 * cube(n)), lhsp("lhsp", 2 * cube(n)), lhsm("lhsm", 2 * cube(n)),
        rtmp("rtmp", 5 * cube(n)) {}
  static std::size_t cube(int n) { return std::size_t(n) * n * n; }

  /// Velocity component m (1 = x, 2 = y, 3 = z).
  ACC_ROUTINE const acc::array<double>& velocity(int m) const { return m == 1 ? us : m == 2 ? vs : ws; }
};

/// NPB's fourth-order dissipation stencil at position pos of a line of n points, from the values
/// w[0..4] at pos-2..pos+2; near the ends the stencil is one-sided (entries outside are unused).
ACC_ROUTINE inline double fourth_difference(const double w[5], int pos, int n) {
  if (pos == 1) return 5.0 * w[2] - 4.0 * w[3] + w[4];
  if (pos == 2) return -4.0 * w[1] + 6.0 * w[2] - 4.0 * w[3] + w[4];
  if (pos == n - 3) return w[0] - 4.0 * w[1] + 6.0 * w[2] - 4.0 * w[3];
  if (pos == n - 2) return w[0] - 4.0 * w[1] + 5.0 * w[2];
  return w[0] - 4.0 * w[1] + 6.0 * w[2] - 4.0 * w[3] + w[4];
}

/// The five values of component m around point p along a line (stride s) at position pos,
/// clamped to the grid: the clamped ones are never used by fourth_difference.
ACC_ROUTINE inline void load_window(const acc::array<double>& a, std::size_t base, std::size_t p, std::size_t s,
                                    int pos, int n, double w[5]) {
  for (int o = -2; o <= 2; ++o) {
    const int q = pos + o;
    w[o + 2] = (q < 0 || q >= n) ? 0.0 : a[base + p + std::ptrdiff_t(o) * std::ptrdiff_t(s)];
  }
}

// --- Initialisation (untimed) ------------------------------------------------------------------

/// The forcing term of direction D (1 = x, 2 = y, 3 = z) at interior point (k, j, i), added to f
/// as NPB's exact_rhs does: flux differences of the exact solution, then its dissipation.
template <int D>
ACC_ROUTINE void add_exact_flux(const sp_constants& c, int k, int j, int i, double f[5]) {
  const axis_constants& a = c.axis[D - 1];
  const int pos = D == 1 ? i : D == 2 ? j : k;
  constexpr int t0 = D == 1 ? 2 : 1, t1 = D == 3 ? 2 : 3;  // the tangential components
  // ue, buf, cuf, q at pos-2..pos+2 (NPB keeps them for the whole line).
  double ue[5][5] = {}, buf[5][5] = {}, cuf[5] = {}, q[5] = {};
  for (int o = 0; o < 5; ++o) {
    const int p = pos + o - 2;
    if (p < 0 || p >= c.n) continue;  // outside the grid: never read
    double x = i * c.dnm1, y = j * c.dnm1, z = k * c.dnm1;
    (D == 1 ? x : D == 2 ? y : z) = p * c.dnm1;
    double e[5];
    c.exact_solution(x, y, z, e);
    for (int m = 0; m < 5; ++m) ue[m][o] = e[m];
    const double dtpp = 1.0 / e[0];
    for (int m = 1; m < 5; ++m) buf[m][o] = dtpp * e[m];
    cuf[o] = buf[D][o] * buf[D][o];
    buf[0][o] = cuf[o] + buf[t0][o] * buf[t0][o] + buf[t1][o] * buf[t1][o];
    q[o] = 0.5 * (buf[1][o] * ue[1][o] + buf[2][o] * ue[2][o] + buf[3][o] * ue[3][o]);
  }
  constexpr int P = 3, C = 2, M = 1;  // window slots of pos+1, pos, pos-1
  f[0] = f[0] - a.t2 * (ue[D][P] - ue[D][M]) + a.dt1[0] * (ue[0][P] - 2.0 * ue[0][C] + ue[0][M]);
  for (int m = 1; m < 4; ++m) {
    if (m == D)
      f[m] = f[m] -
             a.t2 * ((ue[m][P] * buf[D][P] + c.c2 * (ue[4][P] - q[P])) - (ue[m][M] * buf[D][M] + c.c2 * (ue[4][M] - q[M]))) +
             a.con[0] * (buf[m][P] - 2.0 * buf[m][C] + buf[m][M]) + a.dt1[m] * (ue[m][P] - 2.0 * ue[m][C] + ue[m][M]);
    else
      f[m] = f[m] - a.t2 * (ue[m][P] * buf[D][P] - ue[m][M] * buf[D][M]) +
             a.con[1] * (buf[m][P] - 2.0 * buf[m][C] + buf[m][M]) + a.dt1[m] * (ue[m][P] - 2.0 * ue[m][C] + ue[m][M]);
  }
  f[4] = f[4] - a.t2 * (buf[D][P] * (c.c1 * ue[4][P] - c.c2 * q[P]) - buf[D][M] * (c.c1 * ue[4][M] - c.c2 * q[M])) +
         0.5 * a.con[2] * (buf[0][P] - 2.0 * buf[0][C] + buf[0][M]) + a.con[3] * (cuf[P] - 2.0 * cuf[C] + cuf[M]) +
         a.con[4] * (buf[4][P] - 2.0 * buf[4][C] + buf[4][M]) + a.dt1[4] * (ue[4][P] - 2.0 * ue[4][C] + ue[4][M]);
  for (int m = 0; m < 5; ++m) f[m] = f[m] - c.dssp * fourth_difference(ue[m], pos, c.n);
}

/// NPB's exact_rhs: the forcing that makes the exact solution a steady state of the scheme;
/// zero on the boundary.
void exact_rhs(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n, n, n), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    double r[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    if (k > 0 && k < n - 1 && j > 0 && j < n - 1 && i > 0 && i < n - 1) {
      add_exact_flux<1>(c, k, j, i, r);
      add_exact_flux<2>(c, k, j, i, r);
      add_exact_flux<3>(c, k, j, i, r);
      for (int m = 0; m < 5; ++m) r[m] = -1.0 * r[m];
    }
    const std::size_t p = c.at(k, j, i);
    for (int m = 0; m < 5; ++m) f.forcing[m * c.points + p] = r[m];
  });
}

/// NPB's initialize: transfinite interpolation of the exact solution's boundary values inside,
/// the exact solution on the faces (where faces meet, the later of NPB's west, east, south,
/// north, bottom, top writes wins, with its own coordinate exactly 0 or 1).
void initialize(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n, n, n), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    const double xi = i * c.dnm1, eta = j * c.dnm1, zeta = k * c.dnm1;
    double v[5];
    if (k == 0 || k == n - 1) {
      c.exact_solution(xi, eta, k == 0 ? 0.0 : 1.0, v);
    } else if (j == 0 || j == n - 1) {
      c.exact_solution(xi, j == 0 ? 0.0 : 1.0, zeta, v);
    } else if (i == 0 || i == n - 1) {
      c.exact_solution(i == 0 ? 0.0 : 1.0, eta, zeta, v);
    } else {
      double face[2][3][5];
      for (int s = 0; s < 2; ++s) {
        c.exact_solution(double(s), eta, zeta, face[s][0]);
        c.exact_solution(xi, double(s), zeta, face[s][1]);
        c.exact_solution(xi, eta, double(s), face[s][2]);
      }
      for (int m = 0; m < 5; ++m) {
        const double px = xi * face[1][0][m] + (1.0 - xi) * face[0][0][m];
        const double py = eta * face[1][1][m] + (1.0 - eta) * face[0][1][m];
        const double pz = zeta * face[1][2][m] + (1.0 - zeta) * face[0][2][m];
        v[m] = px + py + pz - px * py - px * pz - py * pz + px * py * pz;
      }
    }
    const std::size_t p = c.at(k, j, i);
    for (int m = 0; m < 5; ++m) f.u[m * c.points + p] = v[m];
  });
}

// --- The time step --------------------------------------------------------------------------

/// The flux differences and dissipation of direction D at interior point p (position pos along
/// D), added to r as NPB's compute_rhs does for that direction.
template <int D>
ACC_ROUTINE SP_INLINE void add_flux(const sp_fields& f, const sp_constants& c, std::size_t p, int pos, double r[5]) {
  const axis_constants& a = c.axis[D - 1];
  const std::size_t s = c.stride(D), P = c.points;
  const std::size_t pp = p + s, pm = p - s;
  const acc::array<double>& vel = f.velocity(D);
  const double vijk = vel[p], vp1 = vel[pp], vm1 = vel[pm];
  const auto& u = f.u;
  r[0] = r[0] + a.dt1[0] * (u[pp] - 2.0 * u[p] + u[pm]) - a.t2 * (u[D * P + pp] - u[D * P + pm]);
  for (int m = 1; m < 4; ++m) {
    const std::size_t o = m * P;
    if (m == D) {
      r[m] = r[m] + a.dt1[m] * (u[o + pp] - 2.0 * u[o + p] + u[o + pm]) + a.con[1] * c.con43 * (vp1 - 2.0 * vijk + vm1) -
             a.t2 * (u[o + pp] * vp1 - u[o + pm] * vm1 +
                     (u[4 * P + pp] - f.square[pp] - u[4 * P + pm] + f.square[pm]) * c.c2);
    } else {
      const acc::array<double>& w = f.velocity(m);
      r[m] = r[m] + a.dt1[m] * (u[o + pp] - 2.0 * u[o + p] + u[o + pm]) + a.con[1] * (w[pp] - 2.0 * w[p] + w[pm]) -
             a.t2 * (u[o + pp] * vp1 - u[o + pm] * vm1);
    }
  }
  const std::size_t o = 4 * P;
  r[4] = r[4] + a.dt1[4] * (u[o + pp] - 2.0 * u[o + p] + u[o + pm]) +
         a.con[2] * (f.qs[pp] - 2.0 * f.qs[p] + f.qs[pm]) + a.con[3] * (vp1 * vp1 - 2.0 * vijk * vijk + vm1 * vm1) +
         a.con[4] * (u[o + pp] * f.rho_i[pp] - 2.0 * u[o + p] * f.rho_i[p] + u[o + pm] * f.rho_i[pm]) -
         a.t2 * ((c.c1 * u[o + pp] - c.c2 * f.square[pp]) * vp1 - (c.c1 * u[o + pm] - c.c2 * f.square[pm]) * vm1);
  for (int m = 0; m < 5; ++m) {
    double w[5];
    load_window(u, m * P, p, s, pos, c.n, w);
    r[m] = r[m] - c.dssp * fourth_difference(w, pos, c.n);
  }
}

/// NPB's txinvr at one point: r = P^-1 r, the block-diagonal change to characteristic variables.
ACC_ROUTINE inline void txinvr_point(const sp_fields& f, const sp_constants& c, std::size_t p, double r[5]) {
  const double ru1 = f.rho_i[p], uu = f.us[p], vv = f.vs[p], ww = f.ws[p], ac = f.speed[p];
  const double ac2inv = ac * ac;
  const double r1 = r[0], r2 = r[1], r3 = r[2], r4 = r[3], r5 = r[4];
  const double t1 = c.c2 / ac2inv * (f.qs[p] * r1 - uu * r2 - vv * r3 - ww * r4 + r5);
  const double t2 = c.bt * ru1 * (uu * r1 - r2);
  const double t3 = (c.bt * ru1 * ac) * t1;
  r[0] = r1 - t1;
  r[1] = -ru1 * (ww * r1 - r4);
  r[2] = ru1 * (vv * r1 - r3);
  r[3] = -t2 + t3;
  r[4] = t2 + t3;
}

// --- compute_rhs's host form ------------------------------------------------------------------
// On a multicore host (acc::get_device_type() != nvidia: the openmp and serial builds, and the
// cuda build falling back to the host) compute_rhs runs one grid row (k, j) per iteration and
// walks i through plain local pointers, as NPB's loops do, so that g++ vectorises the rows:
// through the captured acc::arrays it reloads every data pointer after each store (a store might
// alias the capture), and the position-dependent dissipation branches keep the point-wise loop
// scalar. Here the x dissipation's four one-sided positions at the row's ends run apart from
// its interior, and y's and z's, whose position is fixed along a row, become five coefficients
// chosen once per row. The GPU keeps the point-wise form above (one thread per point,
// consecutive i in neighbouring threads).

bool host_rows() { return acc::get_device_type() != acc::device_type::nvidia; }

/// NPB's fourth-difference stencil at position pos of a line of n points as five coefficients of
/// the values at pos-2..pos+2 (the one-sided ends get zeros, which add nothing).
ACC_ROUTINE inline void fourth_difference_coefficients(int pos, int n, double d[5]) {
  const double interior[5] = {1.0, -4.0, 6.0, -4.0, 1.0}, first[5] = {0.0, 0.0, 5.0, -4.0, 1.0},
               second[5] = {0.0, -4.0, 6.0, -4.0, 1.0}, before_last[5] = {1.0, -4.0, 6.0, -4.0, 0.0},
               last[5] = {1.0, -4.0, 5.0, 0.0, 0.0};
  const double* const pick = pos == 1       ? first
                             : pos == 2     ? second
                             : pos == n - 3 ? before_last
                             : pos == n - 2 ? last
                                            : interior;
  for (int o = 0; o < 5; ++o) d[o] = pick[o];
}

/// The flux differences of direction D (no dissipation) along the interior of a row, added to
/// r0..r4. u and the per-point arrays point at the row's first point; s is D's stride.
template <int D>
ACC_ROUTINE SP_INLINE void add_flux_row(const sp_fields& f, const sp_constants& c, std::size_t b, int n,
                                        double* __restrict r0, double* __restrict r1, double* __restrict r2,
                                        double* __restrict r3, double* __restrict r4) {
  const axis_constants& a = c.axis[D - 1];
  const std::ptrdiff_t s = std::ptrdiff_t(c.stride(D));
  const std::size_t P = c.points;
  const double* const u0 = f.u.data() + b;
  const double* const u1 = u0 + P;
  const double* const u2 = u0 + 2 * P;
  const double* const u3 = u0 + 3 * P;
  const double* const u4 = u0 + 4 * P;
  const double* const ud = u0 + D * P;
  const double* const vel = f.velocity(D).data() + b;
  const double* const us = f.us.data() + b;
  const double* const vs = f.vs.data() + b;
  const double* const ws = f.ws.data() + b;
  const double* const qs = f.qs.data() + b;
  const double* const rho = f.rho_i.data() + b;
  const double* const sq = f.square.data() + b;
  const double dt10 = a.dt1[0], dt11 = a.dt1[1], dt12 = a.dt1[2], dt13 = a.dt1[3], dt14 = a.dt1[4];
  const double t2 = a.t2, con0 = a.con[1] * c.con43, con1 = a.con[1], con2 = a.con[2], con3 = a.con[3],
               con4 = a.con[4], c1 = c.c1, c2 = c.c2;
  // The tangential components' viscous terms use their own velocity.
  const double* const w1 = us;
  const double* const w2 = vs;
  const double* const w3 = ws;
  for (int i = 1; i < n - 1; ++i) {
    const std::ptrdiff_t p = i, pp = p + s, pm = p - s;
    const double vijk = vel[p], vp1 = vel[pp], vm1 = vel[pm];
    r0[i] = r0[i] + dt10 * (u0[pp] - 2.0 * u0[p] + u0[pm]) - t2 * (ud[pp] - ud[pm]);
    const double pressure = (u4[pp] - sq[pp] - u4[pm] + sq[pm]) * c2;
    if (D == 1)
      r1[i] = r1[i] + dt11 * (u1[pp] - 2.0 * u1[p] + u1[pm]) + con0 * (vp1 - 2.0 * vijk + vm1) -
              t2 * (u1[pp] * vp1 - u1[pm] * vm1 + pressure);
    else
      r1[i] = r1[i] + dt11 * (u1[pp] - 2.0 * u1[p] + u1[pm]) + con1 * (w1[pp] - 2.0 * w1[p] + w1[pm]) -
              t2 * (u1[pp] * vp1 - u1[pm] * vm1);
    if (D == 2)
      r2[i] = r2[i] + dt12 * (u2[pp] - 2.0 * u2[p] + u2[pm]) + con0 * (vp1 - 2.0 * vijk + vm1) -
              t2 * (u2[pp] * vp1 - u2[pm] * vm1 + pressure);
    else
      r2[i] = r2[i] + dt12 * (u2[pp] - 2.0 * u2[p] + u2[pm]) + con1 * (w2[pp] - 2.0 * w2[p] + w2[pm]) -
              t2 * (u2[pp] * vp1 - u2[pm] * vm1);
    if (D == 3)
      r3[i] = r3[i] + dt13 * (u3[pp] - 2.0 * u3[p] + u3[pm]) + con0 * (vp1 - 2.0 * vijk + vm1) -
              t2 * (u3[pp] * vp1 - u3[pm] * vm1 + pressure);
    else
      r3[i] = r3[i] + dt13 * (u3[pp] - 2.0 * u3[p] + u3[pm]) + con1 * (w3[pp] - 2.0 * w3[p] + w3[pm]) -
              t2 * (u3[pp] * vp1 - u3[pm] * vm1);
    r4[i] = r4[i] + dt14 * (u4[pp] - 2.0 * u4[p] + u4[pm]) + con2 * (qs[pp] - 2.0 * qs[p] + qs[pm]) +
            con3 * (vp1 * vp1 - 2.0 * vijk * vijk + vm1 * vm1) +
            con4 * (u4[pp] * rho[pp] - 2.0 * u4[p] * rho[p] + u4[pm] * rho[pm]) -
            t2 * ((c1 * u4[pp] - c2 * sq[pp]) * vp1 - (c1 * u4[pm] - c2 * sq[pm]) * vm1);
  }
}

/// The dissipation of direction D along the interior of a row (b: its first point), subtracted
/// from r: y and z (fixed position pos along the row) with five coefficients, x with its four
/// one-sided end positions apart from the interior.
template <int D>
ACC_ROUTINE SP_INLINE void add_dissipation_row(const sp_fields& f, const sp_constants& c, std::size_t b, int n,
                                               int pos, double* const r[5]) {
  const std::ptrdiff_t s = std::ptrdiff_t(c.stride(D));
  const double dssp = c.dssp;
  for (int m = 0; m < 5; ++m) {
    const double* const u = f.u.data() + m * c.points + b;
    double* __restrict const rm = r[m];
    if (D == 1) {
      for (int i : {1, 2, n - 3, n - 2}) {
        double w[5];
        for (int o = -2; o <= 2; ++o) w[o + 2] = (i + o < 0 || i + o >= n) ? 0.0 : u[i + o];
        rm[i] = rm[i] - dssp * fourth_difference(w, i, n);
      }
      for (int i = 3; i < n - 3; ++i)
        rm[i] = rm[i] - dssp * (u[i - 2] - 4.0 * u[i - 1] + 6.0 * u[i] - 4.0 * u[i + 1] + u[i + 2]);
    } else {
      double d[5];
      fourth_difference_coefficients(pos, n, d);
      const double d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3], d4 = d[4];
      // The window's ends may lie outside the grid where their coefficient is zero: read them
      // clamped to the centre instead.
      const double* const um2 = u + (pos >= 2 ? -2 * s : 0);
      const double* const um1 = u - s;
      const double* const up1 = u + s;
      const double* const up2 = u + (pos + 2 < n ? 2 * s : 0);
      for (int i = 1; i < n - 1; ++i)
        rm[i] = rm[i] - dssp * (d0 * um2[i] + d1 * um1[i] + d2 * u[i] + d3 * up1[i] + d4 * up2[i]);
    }
  }
}

/// compute_rhs's host form: the derived quantities row by row, then each interior row's rhs
/// summed in place through the row's pointers (forcing, x, y, z, then dt and txinvr).
template <bool Txinvr, class... Clauses>
void compute_rhs_rows(const sp_fields& f, const sp_constants& c, Clauses... clauses) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n, n), acc::default_present, clauses..., ACC_LAMBDA(int k, int j) {
    const std::size_t b = c.at(k, j, 0), P = c.points;
    const double* const u = f.u.data() + b;
    double* __restrict const rho = f.rho_i.data() + b;
    double* __restrict const us = f.us.data() + b;
    double* __restrict const vs = f.vs.data() + b;
    double* __restrict const ws = f.ws.data() + b;
    double* __restrict const sq = f.square.data() + b;
    double* __restrict const qs = f.qs.data() + b;
    double* __restrict const speed = f.speed.data() + b;
    const double c1c2 = c.c1c2;
    for (int i = 0; i < n; ++i) {
      const double u0 = u[i], u1 = u[P + i], u2 = u[2 * P + i], u3 = u[3 * P + i], u4 = u[4 * P + i];
      const double rho_inv = 1.0 / u0;
      rho[i] = rho_inv;
      us[i] = u1 * rho_inv;
      vs[i] = u2 * rho_inv;
      ws[i] = u3 * rho_inv;
      const double s = 0.5 * (u1 * u1 + u2 * u2 + u3 * u3) * rho_inv;
      sq[i] = s;
      qs[i] = s * rho_inv;
      speed[i] = std::sqrt(c1c2 * rho_inv * (u4 - s));
    }
    const bool edge_row = k == 0 || k == n - 1 || j == 0 || j == n - 1;
    for (int m = 0; m < 5; ++m) {
      double* __restrict const r = f.rhs.data() + m * P + b;
      const double* const fo = f.forcing.data() + m * P + b;
      if (edge_row)
        for (int i = 0; i < n; ++i) r[i] = fo[i];
      else
        r[0] = fo[0], r[n - 1] = fo[n - 1];
    }
  });
  acc::parallel_loop(acc::collapse(n - 2, n - 2), acc::default_present, clauses..., ACC_LAMBDA(int k, int j) {
    ++k, ++j;
    const std::size_t b = c.at(k, j, 0), P = c.points;
    double* const r[5] = {f.rhs.data() + b, f.rhs.data() + P + b, f.rhs.data() + 2 * P + b,
                          f.rhs.data() + 3 * P + b, f.rhs.data() + 4 * P + b};
    for (int m = 0; m < 5; ++m) {
      double* __restrict const rm = r[m];
      const double* const fo = f.forcing.data() + m * P + b;
      for (int i = 1; i < n - 1; ++i) rm[i] = fo[i];
    }
    add_flux_row<1>(f, c, b, n, r[0], r[1], r[2], r[3], r[4]);
    add_dissipation_row<1>(f, c, b, n, 0, r);
    add_flux_row<2>(f, c, b, n, r[0], r[1], r[2], r[3], r[4]);
    add_dissipation_row<2>(f, c, b, n, j, r);
    add_flux_row<3>(f, c, b, n, r[0], r[1], r[2], r[3], r[4]);
    add_dissipation_row<3>(f, c, b, n, k, r);
    double* __restrict const r0 = r[0];
    double* __restrict const r1 = r[1];
    double* __restrict const r2 = r[2];
    double* __restrict const r3 = r[3];
    double* __restrict const r4 = r[4];
    const double dt = c.dt;
    if constexpr (Txinvr) {
      const double *const rho = f.rho_i.data() + b, *const us = f.us.data() + b, *const vs = f.vs.data() + b,
                   *const ws = f.ws.data() + b, *const speed = f.speed.data() + b, *const qs = f.qs.data() + b;
      const double c2 = c.c2, bt = c.bt;
      for (int i = 1; i < n - 1; ++i) {
        // txinvr_point's arithmetic on dt r.
        const double ru1 = rho[i], uu = us[i], vv = vs[i], ww = ws[i], ac = speed[i];
        const double ac2inv = ac * ac;
        const double q1 = r0[i] * dt, q2 = r1[i] * dt, q3 = r2[i] * dt, q4 = r3[i] * dt, q5 = r4[i] * dt;
        const double t1 = c2 / ac2inv * (qs[i] * q1 - uu * q2 - vv * q3 - ww * q4 + q5);
        const double t2 = bt * ru1 * (uu * q1 - q2);
        const double t3 = (bt * ru1 * ac) * t1;
        r0[i] = q1 - t1;
        r1[i] = -ru1 * (ww * q1 - q4);
        r2[i] = ru1 * (vv * q1 - q3);
        r3[i] = -t2 + t3;
        r4[i] = t2 + t3;
      }
    } else {
      for (int i = 1; i < n - 1; ++i) {
        r0[i] = r0[i] * dt;
        r1[i] = r1[i] * dt;
        r2[i] = r2[i] * dt;
        r3[i] = r3[i] * dt;
        r4[i] = r4[i] * dt;
      }
    }
  });
}

/// NPB's compute_rhs: the derived per-point quantities on the whole grid, then
/// rhs = dt (forcing + x, y and z fluxes and dissipation) inside (NPB's separate x, y, z loop
/// nests fused into one pass per point, each rhs element summed in NPB's order). The boundary
/// keeps the forcing. With Txinvr the interior gets NPB's txinvr too, in the same pass (the
/// time step's form; verification wants the plain rhs).
template <bool Txinvr = false, class... Clauses>
void compute_rhs(const sp_fields& f, const sp_constants& c, Clauses... clauses) {
  if (host_rows()) {
    compute_rhs_rows<Txinvr>(f, c, clauses...);
    return;
  }
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n, n, n), acc::default_present, clauses..., ACC_LAMBDA(int k, int j, int i) {
    const std::size_t p = c.at(k, j, i), P = c.points;
    const double u0 = f.u[p], u1 = f.u[P + p], u2 = f.u[2 * P + p], u3 = f.u[3 * P + p], u4 = f.u[4 * P + p];
    const double rho_inv = 1.0 / u0;
    f.rho_i[p] = rho_inv;
    f.us[p] = u1 * rho_inv;
    f.vs[p] = u2 * rho_inv;
    f.ws[p] = u3 * rho_inv;
    const double sq = 0.5 * (u1 * u1 + u2 * u2 + u3 * u3) * rho_inv;
    f.square[p] = sq;
    f.qs[p] = sq * rho_inv;
    f.speed[p] = std::sqrt(c.c1c2 * rho_inv * (u4 - sq));
    if (k == 0 || k == n - 1 || j == 0 || j == n - 1 || i == 0 || i == n - 1)
      for (int m = 0; m < 5; ++m) f.rhs[m * P + p] = f.forcing[m * P + p];
  });
  acc::parallel_loop(acc::collapse(n - 2, n - 2, n - 2), acc::default_present, clauses..., ACC_LAMBDA(int k, int j, int i) {
    ++k, ++j, ++i;
    const std::size_t p = c.at(k, j, i), P = c.points;
    double r[5];
    for (int m = 0; m < 5; ++m) r[m] = f.forcing[m * P + p];
    add_flux<1>(f, c, p, i, r);
    add_flux<2>(f, c, p, j, r);
    add_flux<3>(f, c, p, k, r);
    for (int m = 0; m < 5; ++m) r[m] = r[m] * c.dt;
    if constexpr (Txinvr) txinvr_point(f, c, p, r);
    for (int m = 0; m < 5; ++m) f.rhs[m * P + p] = r[m];
  });
}

/// NPB's txinvr on the interior.
void txinvr(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2, n - 2), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    const std::size_t p = c.at(k + 1, j + 1, i + 1), P = c.points;
    double r[5];
    for (int m = 0; m < 5; ++m) r[m] = f.rhs[m * P + p];
    txinvr_point(f, c, p, r);
    for (int m = 0; m < 5; ++m) f.rhs[m * P + p] = r[m];
  });
}

/// NPB's ninvr at one point (after the x solve).
ACC_ROUTINE inline void ninvr_point(const sp_constants& c, double r[5]) {
  const double r1 = r[0], r2 = r[1], r3 = r[2], r4 = r[3], r5 = r[4];
  const double t1 = c.bt * r3, t2 = 0.5 * (r4 + r5);
  r[0] = -r2;
  r[1] = r1;
  r[2] = c.bt * (r4 - r5);
  r[3] = -t1 + t2;
  r[4] = t1 + t2;
}

/// NPB's pinvr at one point (after the y solve).
ACC_ROUTINE inline void pinvr_point(const sp_constants& c, double r[5]) {
  const double r1 = r[0], r2 = r[1], r3 = r[2], r4 = r[3], r5 = r[4];
  const double t1 = c.bt * r1, t2 = 0.5 * (r4 + r5);
  r[0] = c.bt * (r4 - r5);
  r[1] = -r3;
  r[2] = r2;
  r[3] = -t1 + t2;
  r[4] = t1 + t2;
}

/// NPB's tzetar at one point (after the z solve): back from characteristic variables, given
/// the point's velocities, speed of sound, qs and density u[0].
ACC_ROUTINE inline void tzetar_point(const sp_constants& c, double xvel, double yvel, double zvel, double ac,
                                     double qs, double uzik1, double r[5]) {
  const double ac2u = ac * ac;
  const double r1 = r[0], r2 = r[1], r3 = r[2], r4 = r[3], r5 = r[4];
  const double btuz = c.bt * uzik1;
  const double t1 = btuz / ac * (r4 + r5), t2 = r3 + t1, t3 = btuz * (r4 - r5);
  r[0] = t2;
  r[1] = -uzik1 * r2 + xvel * t2;
  r[2] = uzik1 * r1 + yvel * t2;
  r[3] = zvel * t2 + t3;
  r[4] = uzik1 * (-xvel * r2 + yvel * r1) + qs * t2 + c.c2iv * ac2u * t1 + zvel * t3;
}

/// A pointwise pass over the interior: rhs = op(point, rhs).
template <class Op>
void rhs_pointwise(const sp_fields& f, const sp_constants& c, Op op) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2, n - 2), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    const std::size_t p = c.at(k + 1, j + 1, i + 1), P = c.points;
    double r[5];
    for (int m = 0; m < 5; ++m) r[m] = f.rhs[m * P + p];
    op(f, c, p, r);
    for (int m = 0; m < 5; ++m) f.rhs[m * P + p] = r[m];
  });
}
struct ninvr_op {
  ACC_ROUTINE void operator()(const sp_fields&, const sp_constants& c, std::size_t, double r[5]) const {
    ninvr_point(c, r);
  }
};
struct pinvr_op {
  ACC_ROUTINE void operator()(const sp_fields&, const sp_constants& c, std::size_t, double r[5]) const {
    pinvr_point(c, r);
  }
};
struct tzetar_op {
  ACC_ROUTINE void operator()(const sp_fields& f, const sp_constants& c, std::size_t p, double r[5]) const {
    tzetar_point(c, f.us[p], f.vs[p], f.ws[p], f.speed[p], f.qs[p], f.u[p], r);
  }
};
void ninvr(const sp_fields& f, const sp_constants& c) { rhs_pointwise(f, c, ninvr_op{}); }
void pinvr(const sp_fields& f, const sp_constants& c) { rhs_pointwise(f, c, pinvr_op{}); }
void tzetar(const sp_fields& f, const sp_constants& c) { rhs_pointwise(f, c, tzetar_op{}); }

/// NPB's rhon / rhoq / rhos for direction D: the largest viscous eigenvalue factor at a point
/// of density reciprocal rho_i.
template <int D>
ACC_ROUTINE inline double viscous_rho(const sp_constants& c, double rho_i) {
  const axis_constants& a = c.axis[D - 1];
  const double ru1 = c.c3c4 * rho_i;
  return max2(max2(a.d[D] + c.con43 * ru1, a.d[4] + c.c1c5 * ru1), max2(a.dmax + ru1, a.d[0]));
}

/// Row i of factor F of direction D's pentadiagonal matrix (NPB's lhs, lhsp, lhsm for F = 0, 1,
/// 2: the u, u + c and u - c eigenvalues), diagonals l[0..4] from the second below to the second
/// above, from the viscous factors rho, velocities vel and sound speeds spd at i - 1, i, i + 1
/// (index 0, 1, 2): the viscous and convective terms, NPB's fourth-order dissipation near and
/// away from the ends, and identity rows at both ends.
template <int D, int F>
ACC_ROUTINE SP_INLINE void matrix_row(const sp_constants& c, int i, const double rho[3], const double vel[3],
                            const double spd[3], double l[5]) {
  const int n = c.n;
  if (i == 0 || i == n - 1) {
    l[0] = 0.0, l[1] = 0.0, l[2] = 1.0, l[3] = 0.0, l[4] = 0.0;
    return;
  }
  const axis_constants& a = c.axis[D - 1];
  l[0] = 0.0;
  l[1] = -a.dtt2 * vel[0] - a.dtt1 * rho[0];
  l[2] = 1.0 + a.c2dtt1 * rho[1];
  l[3] = a.dtt2 * vel[2] - a.dtt1 * rho[2];
  l[4] = 0.0;
  if (i == 1) {
    l[2] = l[2] + c.comz5, l[3] = l[3] - c.comz4, l[4] = l[4] + c.comz1;
  } else if (i == 2) {
    l[1] = l[1] - c.comz4, l[2] = l[2] + c.comz6, l[3] = l[3] - c.comz4, l[4] = l[4] + c.comz1;
  } else if (i <= n - 4) {
    l[0] = l[0] + c.comz1, l[1] = l[1] - c.comz4, l[2] = l[2] + c.comz6, l[3] = l[3] - c.comz4;
    l[4] = l[4] + c.comz1;
  } else if (i == n - 3) {
    l[0] = l[0] + c.comz1, l[1] = l[1] - c.comz4, l[2] = l[2] + c.comz6, l[3] = l[3] - c.comz4;
  } else {
    l[0] = l[0] + c.comz1, l[1] = l[1] - c.comz4, l[2] = l[2] + c.comz5;
  }
  if constexpr (F == 1) {
    l[1] = l[1] - a.dtt2 * spd[0];
    l[3] = l[3] + a.dtt2 * spd[2];
  } else if constexpr (F == 2) {
    l[1] = l[1] + a.dtt2 * spd[0];
    l[3] = l[3] - a.dtt2 * spd[2];
  }
}

/// The same row, reading its neighbours' values from the fields (the line starts at p0).
template <int D, int F>
ACC_ROUTINE SP_INLINE void matrix_row(const sp_fields& f, const sp_constants& c, std::size_t p0, int i, double l[5]) {
  if (i == 0 || i == c.n - 1) {
    const double none[3] = {0.0, 0.0, 0.0};
    matrix_row<D, F>(c, i, none, none, none, l);
    return;
  }
  const std::size_t s = c.stride(D), p = p0 + std::size_t(i) * s, pm = p - s, pp = p + s;
  const acc::array<double>& v = f.velocity(D);
  const double rho[3] = {viscous_rho<D>(c, f.rho_i[pm]), viscous_rho<D>(c, f.rho_i[p]), viscous_rho<D>(c, f.rho_i[pp])};
  const double vel[3] = {v[pm], 0.0, v[pp]};
  const double spd[3] = {F == 0 ? 0.0 : f.speed[pm], 0.0, F == 0 ? 0.0 : f.speed[pp]};
  matrix_row<D, F>(c, i, rho, vel, spd, l);
}

/// The Thomas algorithm for factor F of direction D on one line: components [M0, M1) of rhs
/// (first at rhs[m P + p0], then stride s) are overwritten with the solution. The matrix rows
/// are made as the elimination reaches them and the rows being eliminated stay in registers (a
/// window of three rows), with the rhs values they touch; only the two upper diagonals that back
/// substitution needs are kept, in scratch indexed (diagonal, position, line) with the line
/// fastest. The operations are NPB's, in its order; NPB scales the last row by a reciprocal for
/// the first factor and divides for the other two, kept as Reciprocal.
template <int D, int F, int M0, int M1, bool Reciprocal>
ACC_ROUTINE void thomas(const sp_fields& f, const sp_constants& c, const acc::array<double>& scratch, std::size_t p0,
                        std::size_t line) {
  constexpr int M = M1 - M0;
  const int n = c.n;
  const std::size_t s = c.stride(D), lines = std::size_t(n) * n, P = c.points;
  auto R = [&](int m, int pos) -> double& { return f.rhs[(M0 + m) * P + p0 + std::size_t(pos) * s]; };
  auto U = [&](int d, int pos) -> double& {  // eliminated upper diagonals d = 3, 4
    return scratch[(std::size_t(d - 3) * n + std::size_t(pos)) * lines + line];
  };
  // Row i (its diagonal and the two above), row i + 1 (from the first sub-diagonal), row i + 2.
  double l[5];
  matrix_row<D, F>(f, c, p0, 0, l);
  double a2 = l[2], a3 = l[3], a4 = l[4];
  matrix_row<D, F>(f, c, p0, 1, l);
  double b1 = l[1], b2 = l[2], b3 = l[3], b4 = l[4];
  double ra[M], rb[M];
  for (int m = 0; m < M; ++m) ra[m] = R(m, 0), rb[m] = R(m, 1);
  for (int i = 0; i <= n - 3; ++i) {
    matrix_row<D, F>(f, c, p0, i + 2, l);
    double rc[M];
    for (int m = 0; m < M; ++m) rc[m] = R(m, i + 2);
    const double fac1 = 1.0 / a2;
    a3 = fac1 * a3;
    a4 = fac1 * a4;
    U(3, i) = a3;
    U(4, i) = a4;
    for (int m = 0; m < M; ++m) R(m, i) = ra[m] = fac1 * ra[m];
    b2 = b2 - b1 * a3;
    b3 = b3 - b1 * a4;
    for (int m = 0; m < M; ++m) rb[m] = rb[m] - b1 * ra[m];
    l[1] = l[1] - l[0] * a3;
    l[2] = l[2] - l[0] * a4;
    for (int m = 0; m < M; ++m) rc[m] = rc[m] - l[0] * ra[m];
    a2 = b2, a3 = b3, a4 = b4, b1 = l[1], b2 = l[2], b3 = l[3], b4 = l[4];
    for (int m = 0; m < M; ++m) ra[m] = rb[m], rb[m] = rc[m];
  }
  // The last two rows have no rows below them to eliminate.
  const double fac1 = 1.0 / a2;
  a3 = fac1 * a3;
  for (int m = 0; m < M; ++m) ra[m] = fac1 * ra[m];
  b2 = b2 - b1 * a3;
  for (int m = 0; m < M; ++m) rb[m] = rb[m] - b1 * ra[m];
  if constexpr (Reciprocal) {
    const double fac2 = 1.0 / b2;
    for (int m = 0; m < M; ++m) rb[m] = fac2 * rb[m];
  } else {
    for (int m = 0; m < M; ++m) rb[m] = rb[m] / b2;
  }
  // Back substitution, carrying the two solved values below.
  for (int m = 0; m < M; ++m) {
    ra[m] = ra[m] - a3 * rb[m];
    R(m, n - 1) = rb[m];
    R(m, n - 2) = ra[m];
  }
  for (int q = n - 3; q >= 0; --q) {
    const double u3 = U(3, q), u4 = U(4, q);
    for (int m = 0; m < M; ++m) {
      const double x = R(m, q) - u3 * ra[m] - u4 * rb[m];
      R(m, q) = x;
      rb[m] = ra[m], ra[m] = x;
    }
  }
}

/// One line of NPB's x_solve / y_solve / z_solve (direction D): rhs components 0-2 with the u
/// factor, 3 with u + c and 4 with u - c.
template <int D>
ACC_ROUTINE void solve_line(const sp_fields& f, const sp_constants& c, std::size_t p0, std::size_t line) {
  thomas<D, 0, 0, 3, true>(f, c, f.lhs, p0, line);
  thomas<D, 1, 3, 4, false>(f, c, f.lhsp, p0, line);
  thomas<D, 2, 4, 5, false>(f, c, f.lhsm, p0, line);
}

/// The three sweeps, each parallel over its lines (the other two dimensions, the contiguous one
/// last) with the line's solve sequential inside, as NPB's OpenACC versions do.
void x_solve(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2), acc::default_present, ACC_LAMBDA(int k, int j) {
    solve_line<1>(f, c, c.at(k + 1, j + 1, 0), std::size_t(k + 1) * n + (j + 1));
  });
}
void y_solve(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2), acc::default_present, ACC_LAMBDA(int k, int i) {
    solve_line<2>(f, c, c.at(k + 1, 0, i + 1), std::size_t(k + 1) * n + (i + 1));
  });
}
void z_solve(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2), acc::default_present, ACC_LAMBDA(int j, int i) {
    solve_line<3>(f, c, c.at(0, j + 1, i + 1), std::size_t(j + 1) * n + (i + 1));
  });
}

// --- The fused line solves (the default) ---------------------------------------------------
// One construct per direction instead of NPB's two or three: a line's three factors are
// eliminated in one forward sweep (the five components at once, each with its own factor) and
// substituted back in one backward sweep, which also applies the change of variables that
// follows the solve (ninvr, pinvr; for z tzetar and add, so z writes u and never rhs). On the
// GPU a solve has only (n-2)^2 threads, a few warps per SM, so its time is the length of the
// chain of dependent steps along a line: 2n steps here against 6n for thomas() three times.
// Each step's loads for the next position are issued before the current position's arithmetic
// and stores, so their latency overlaps it (the compiler cannot hoist loads above stores it
// cannot prove disjoint). The forward sweep's rhs goes to rtmp indexed (component, position,
// line) with the line fastest, so for x, whose lines walk rhs n doubles apart, only the first
// read and the last write of each rhs value are uncoalesced.

/// What the backward sweep does with the solution x at position q of a line (the start p0,
/// stride s): load(q) fetches what store needs besides x, ahead of time.
struct finish_ninvr {
  struct in_t {};
  ACC_ROUTINE in_t load(const sp_fields&, std::size_t) const { return {}; }
  ACC_ROUTINE void store(const sp_fields& f, const sp_constants& c, std::size_t p, bool interior, in_t, double x[5]) const {
    if (interior) ninvr_point(c, x);
    for (int m = 0; m < 5; ++m) f.rhs[m * c.points + p] = x[m];
  }
};
struct finish_pinvr {
  struct in_t {};
  ACC_ROUTINE in_t load(const sp_fields&, std::size_t) const { return {}; }
  ACC_ROUTINE void store(const sp_fields& f, const sp_constants& c, std::size_t p, bool interior, in_t, double x[5]) const {
    if (interior) pinvr_point(c, x);
    for (int m = 0; m < 5; ++m) f.rhs[m * c.points + p] = x[m];
  }
};
/// tzetar and add: u += the solution in characteristic variables turned back (inside only; the
/// boundary's rhs is not read again before compute_rhs rewrites it).
struct finish_tzetar_add {
  std::size_t P;
  struct in_t {
    double us, vs, ws, speed, qs, u[5];
  };
  ACC_ROUTINE in_t load(const sp_fields& f, std::size_t p) const {
    in_t in;
    in.us = f.us[p], in.vs = f.vs[p], in.ws = f.ws[p], in.speed = f.speed[p], in.qs = f.qs[p];
    for (int m = 0; m < 5; ++m) in.u[m] = f.u[m * P + p];
    return in;
  }
  ACC_ROUTINE void store(const sp_fields& f, const sp_constants& c, std::size_t p, bool interior, const in_t& in,
                         double x[5]) const {
    if (!interior) return;
    tzetar_point(c, in.us, in.vs, in.ws, in.speed, in.qs, in.u[0], x);
    for (int m = 0; m < 5; ++m) f.u[m * P + p] = in.u[m] + x[m];
  }
};

/// The factor that solves component m: u for 0-2, u + c for 3, u - c for 4.
ACC_ROUTINE constexpr int factor_of(int m) { return m < 3 ? 0 : m - 2; }

/// One line of direction D, all five components: the operations of thomas() for each factor,
/// in its order, interleaved.
template <int D, class Finish>
ACC_ROUTINE void solve_line_fused(const sp_fields& f, const sp_constants& c, std::size_t p0, std::size_t line,
                                  const Finish& fin) {
  const int n = c.n;
  const std::size_t s = c.stride(D), lines = std::size_t(n) * n, P = c.points;
  const acc::array<double>& vel = f.velocity(D);
  auto U = [&](int F, int d, int pos) -> double& {  // factor F's eliminated upper diagonals d = 3, 4
    const acc::array<double>& a = F == 0 ? f.lhs : F == 1 ? f.lhsp : f.lhsm;
    return a[(std::size_t(d - 3) * n + std::size_t(pos)) * lines + line];
  };
  auto T = [&](int m, int pos) -> double& { return f.rtmp[(std::size_t(m) * n + std::size_t(pos)) * lines + line]; };
  auto at = [&](int pos) { return p0 + std::size_t(pos) * s; };

  // The window of point values around the row being made (positions i-1, i, i+1).
  double rho[3], vw[3], sw[3];
  for (int q = 0; q < 3; ++q) rho[q] = viscous_rho<D>(c, f.rho_i[at(q)]), vw[q] = vel[at(q)], sw[q] = f.speed[at(q)];
  // Per factor: row i (diagonal and two above), row i + 1 (from the first sub-diagonal).
  double a2[3], a3[3], a4[3], b1[3], b2[3], b3[3], b4[3], l[3][5];
  {
    const double none[3] = {0.0, 0.0, 0.0};
    matrix_row<D, 0>(c, 0, none, none, none, l[0]);
    matrix_row<D, 0>(c, 1, rho, vw, sw, l[0]);
    matrix_row<D, 1>(c, 1, rho, vw, sw, l[1]);
    matrix_row<D, 2>(c, 1, rho, vw, sw, l[2]);
  }
  for (int F = 0; F < 3; ++F) {
    a2[F] = 1.0, a3[F] = 0.0, a4[F] = 0.0;  // row 0 is an identity row
    b1[F] = l[F][1], b2[F] = l[F][2], b3[F] = l[F][3], b4[F] = l[F][4];
  }
  double ra[5], rb[5], rc[5];
  for (int m = 0; m < 5; ++m) ra[m] = f.rhs[m * P + at(0)], rb[m] = f.rhs[m * P + at(1)];
  // Loaded one step ahead: rhs at i + 2 and the point values at i + 3.
  double next_r[5], next_rho = 0.0, next_v = 0.0, next_s = 0.0;
  for (int m = 0; m < 5; ++m) next_r[m] = f.rhs[m * P + at(2)];
  if (3 <= n - 1) next_rho = f.rho_i[at(3)], next_v = vel[at(3)], next_s = f.speed[at(3)];

  for (int i = 0; i <= n - 3; ++i) {
    for (int m = 0; m < 5; ++m) rc[m] = next_r[m];
    const double cur_rho = next_rho, cur_v = next_v, cur_s = next_s;
    if (i + 3 <= n - 1) {
      for (int m = 0; m < 5; ++m) next_r[m] = f.rhs[m * P + at(i + 3)];
      if (i + 4 <= n - 1) next_rho = f.rho_i[at(i + 4)], next_v = vel[at(i + 4)], next_s = f.speed[at(i + 4)];
    }
    // Row i + 2 of each factor.
    if (i + 2 <= n - 2) {
      rho[0] = rho[1], rho[1] = rho[2], rho[2] = viscous_rho<D>(c, cur_rho);
      vw[0] = vw[1], vw[1] = vw[2], vw[2] = cur_v;
      sw[0] = sw[1], sw[1] = sw[2], sw[2] = cur_s;
    }
    matrix_row<D, 0>(c, i + 2, rho, vw, sw, l[0]);
    matrix_row<D, 1>(c, i + 2, rho, vw, sw, l[1]);
    matrix_row<D, 2>(c, i + 2, rho, vw, sw, l[2]);
    double fac1[3];
    for (int F = 0; F < 3; ++F) {
      fac1[F] = 1.0 / a2[F];
      a3[F] = fac1[F] * a3[F];
      a4[F] = fac1[F] * a4[F];
      U(F, 3, i) = a3[F];
      U(F, 4, i) = a4[F];
    }
    for (int m = 0; m < 5; ++m) T(m, i) = ra[m] = fac1[factor_of(m)] * ra[m];
    for (int F = 0; F < 3; ++F) {
      b2[F] = b2[F] - b1[F] * a3[F];
      b3[F] = b3[F] - b1[F] * a4[F];
    }
    for (int m = 0; m < 5; ++m) rb[m] = rb[m] - b1[factor_of(m)] * ra[m];
    for (int F = 0; F < 3; ++F) {
      l[F][1] = l[F][1] - l[F][0] * a3[F];
      l[F][2] = l[F][2] - l[F][0] * a4[F];
    }
    for (int m = 0; m < 5; ++m) rc[m] = rc[m] - l[factor_of(m)][0] * ra[m];
    for (int F = 0; F < 3; ++F) {
      a2[F] = b2[F], a3[F] = b3[F], a4[F] = b4[F];
      b1[F] = l[F][1], b2[F] = l[F][2], b3[F] = l[F][3], b4[F] = l[F][4];
    }
    for (int m = 0; m < 5; ++m) ra[m] = rb[m], rb[m] = rc[m];
  }
  // The last two rows have no rows below them to eliminate.
  double fac1[3];
  for (int F = 0; F < 3; ++F) {
    fac1[F] = 1.0 / a2[F];
    a3[F] = fac1[F] * a3[F];
  }
  for (int m = 0; m < 5; ++m) ra[m] = fac1[factor_of(m)] * ra[m];
  for (int F = 0; F < 3; ++F) b2[F] = b2[F] - b1[F] * a3[F];
  for (int m = 0; m < 5; ++m) rb[m] = rb[m] - b1[factor_of(m)] * ra[m];
  const double fac2 = 1.0 / b2[0];  // NPB scales by a reciprocal for the first factor only
  for (int m = 0; m < 5; ++m) rb[m] = m < 3 ? fac2 * rb[m] : rb[m] / b2[factor_of(m)];
  for (int m = 0; m < 5; ++m) ra[m] = ra[m] - a3[factor_of(m)] * rb[m];

  // Back substitution, carrying the two solved values below; finishing each position.
  {
    double x[5];
    for (int m = 0; m < 5; ++m) x[m] = rb[m];
    fin.store(f, c, at(n - 1), false, fin.load(f, at(n - 1)), x);
    for (int m = 0; m < 5; ++m) x[m] = ra[m];
    fin.store(f, c, at(n - 2), n - 2 >= 1, fin.load(f, at(n - 2)), x);
  }
  double next_t[5], next_u[6];
  auto load_back = [&](int q) {
    for (int m = 0; m < 5; ++m) next_t[m] = T(m, q);
    for (int F = 0; F < 3; ++F) next_u[2 * F] = U(F, 3, q), next_u[2 * F + 1] = U(F, 4, q);
  };
  load_back(n - 3);
  auto next_in = fin.load(f, at(n - 3));
  for (int q = n - 3; q >= 0; --q) {
    double t[5], u[6];
    for (int m = 0; m < 5; ++m) t[m] = next_t[m];
    for (int e = 0; e < 6; ++e) u[e] = next_u[e];
    const auto in = next_in;
    if (q > 0) {
      load_back(q - 1);
      next_in = fin.load(f, at(q - 1));
    }
    double x[5];
    for (int m = 0; m < 5; ++m) {
      const int F = factor_of(m);
      x[m] = t[m] - u[2 * F] * ra[m] - u[2 * F + 1] * rb[m];
      rb[m] = ra[m], ra[m] = x[m];
    }
    fin.store(f, c, at(q), q >= 1, in, x);
  }
}

/// The fused sweeps: parallel over lines as x_solve etc., in gangs of one warp so that the few
/// lines spread over every SM.
constexpr int solve_vector_length = 32;

template <class... Clauses>
void x_solve_fused(const sp_fields& f, const sp_constants& c, Clauses... clauses) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2), acc::default_present, acc::vector_length(solve_vector_length),
                     clauses..., ACC_LAMBDA(int k, int j) {
                       solve_line_fused<1>(f, c, c.at(k + 1, j + 1, 0), std::size_t(k + 1) * n + (j + 1), finish_ninvr{});
                     });
}
template <class... Clauses>
void y_solve_fused(const sp_fields& f, const sp_constants& c, Clauses... clauses) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2), acc::default_present, acc::vector_length(solve_vector_length),
                     clauses..., ACC_LAMBDA(int k, int i) {
                       solve_line_fused<2>(f, c, c.at(k + 1, 0, i + 1), std::size_t(k + 1) * n + (i + 1), finish_pinvr{});
                     });
}
template <class... Clauses>
void z_solve_fused_add(const sp_fields& f, const sp_constants& c, Clauses... clauses) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2), acc::default_present, acc::vector_length(solve_vector_length),
                     clauses..., ACC_LAMBDA(int j, int i) {
                       solve_line_fused<3>(f, c, c.at(0, j + 1, i + 1), std::size_t(j + 1) * n + (i + 1),
                                           finish_tzetar_add{c.points});
                     });
}

// --- The line solves' host form ---------------------------------------------------------------
// On a multicore host (host_rows()) a gang takes a whole plane of lines and advances all of
// them together, one position at a time, as NPB's OpenMP loops do: every pass over a position
// is a loop across the plane's lines, contiguous in memory, which g++ vectorises, where one
// line per iteration (the GPU's form above) is a chain of dependent scalar steps. y lines run
// across i in a k plane, straight in rhs; z lines across i in a j plane and x lines across j
// in a k plane are copied, a group at a time, into the gang's buffer with the line fastest and
// solved there the same way (solve_plane_host says why). The operations and their order are
// the fused form's, so both forms give the same results.
// The matrix rows are still made when the elimination reaches them; each line's state (its
// rows i and i + 1, three factors) and the eliminated upper diagonals are rows of the gang's
// buffer, the rhs is eliminated in place, and a position's solution is finished (ninvr,
// pinvr, tzetar and add) as soon as back substitution no longer reads it.

#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__clang__)
#  define SP_IVDEP _Pragma("GCC ivdep")
#else
#  define SP_IVDEP
#endif

/// At most this many x or z lines are copied into a gang's buffer at a time (it stays in L2).
constexpr int host_group_lines = 64;

/// The fourth-order dissipation that matrix_row adds to row p of a line of n points, as five
/// terms added to its diagonals l[0..4] (zero where it adds nothing).
ACC_ROUTINE inline void row_dissipation(const sp_constants& c, int p, int n, double e[5]) {
  for (int d = 0; d < 5; ++d) e[d] = 0.0;
  if (p == 1) {
    e[2] = c.comz5, e[3] = -c.comz4, e[4] = c.comz1;
  } else if (p == 2) {
    e[1] = -c.comz4, e[2] = c.comz6, e[3] = -c.comz4, e[4] = c.comz1;
  } else if (p <= n - 4) {
    e[0] = c.comz1, e[1] = -c.comz4, e[2] = c.comz6, e[3] = -c.comz4, e[4] = c.comz1;
  } else if (p == n - 3) {
    e[0] = c.comz1, e[1] = -c.comz4, e[2] = c.comz6, e[3] = -c.comz4;
  } else {
    e[0] = c.comz1, e[1] = -c.comz4, e[2] = c.comz5;
  }
}

/// The doubles of gang buffer that solve_lines_host needs for w lines of n points.
ACC_ROUTINE inline std::size_t host_solve_work(int n, int w) { return (7 * std::size_t(n) + 15) * std::size_t(w); }

/// Direction D's five-component solve of w lines of n points at once. Position q of line l is
/// element q ps + l of r[m] (rhs component m, eliminated and solved in place), vel (velocity
/// along D) and spd (sound speed), and element q w + l of vr (the viscous factor viscous_rho,
/// made by the caller); work holds host_solve_work(n, w) doubles. finish(q) is called once for each interior position q
/// when its solution in r is final and no longer read.
template <int D, class Finish>
ACC_ROUTINE SP_INLINE void solve_lines_host(const sp_constants& c, int w, std::ptrdiff_t ps, double* const r[5],
                                            const double* vr, const double* vel, const double* spd, double* work,
                                            const Finish& finish) {
  const int n = c.n;
  const axis_constants& a = c.axis[D - 1];
  const double dtt1 = a.dtt1, dtt2 = a.dtt2, c2dtt1 = a.c2dtt1;
  const std::size_t nw = std::size_t(n) * w;
  // Per factor: the eliminated upper diagonals (position q at q w), rows i (a2, a3) and i + 1
  // (b1, b2, b3) of each line. Both rows' fourth diagonal is the same for every line.
  double* const u3[3] = {work, work + nw, work + 2 * nw};
  double* const u4[3] = {work + 3 * nw, work + 4 * nw, work + 5 * nw};
  double* const st = work + 6 * nw;
  double* const a2[3] = {st, st + w, st + 2 * w};
  double* const a3[3] = {st + 3 * w, st + 4 * w, st + 5 * w};
  double* const b1[3] = {st + 6 * w, st + 7 * w, st + 8 * w};
  double* const b2[3] = {st + 9 * w, st + 10 * w, st + 11 * w};
  double* const b3[3] = {st + 12 * w, st + 13 * w, st + 14 * w};

  // Row p's diagonals l1, l3 (per factor) and l2 on line l, dissipation e (matrix_row's sums).
  auto row = [&](int p, const double e[5], int l, double l1[3], double& l2, double l3[3]) SP_INLINE_LAMBDA {
    const double base1 = (-dtt2 * vel[(p - 1) * ps + l] - dtt1 * vr[std::size_t(p - 1) * w + l]) + e[1];
    l2 = (1.0 + c2dtt1 * vr[std::size_t(p) * w + l]) + e[2];
    const double base3 = (dtt2 * vel[(p + 1) * ps + l] - dtt1 * vr[std::size_t(p + 1) * w + l]) + e[3];
    const double sm = dtt2 * spd[(p - 1) * ps + l], sp = dtt2 * spd[(p + 1) * ps + l];
    l1[0] = base1, l1[1] = base1 - sm, l1[2] = base1 + sm;
    l3[0] = base3, l3[1] = base3 + sp, l3[2] = base3 - sp;
  };

  // Row 0 is an identity row; row 1 as made.
  double e[5];
  row_dissipation(c, 1, n, e);
  SP_IVDEP
  for (int l = 0; l < w; ++l) {
    double l1[3], l2, l3[3];
    row(1, e, l, l1, l2, l3);
    for (int F = 0; F < 3; ++F) a2[F][l] = 1.0, a3[F][l] = 0.0, b1[F][l] = l1[F], b2[F][l] = l2, b3[F][l] = l3[F];
  }
  double a4 = 0.0, b4 = e[4];

  // Forward elimination: step q eliminates below row q with row q + 2 made.
  auto forward = [&](int q, auto identity) SP_INLINE_LAMBDA {
    constexpr bool Identity = decltype(identity)::value;
    const int p = q + 2;
    double e[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    if (!Identity) row_dissipation(c, p, n, e);
    double* __restrict rq[5];
    double* __restrict rq1[5];
    double* __restrict rq2[5];
    for (int m = 0; m < 5; ++m) rq[m] = r[m] + q * ps, rq1[m] = r[m] + (q + 1) * ps, rq2[m] = r[m] + p * ps;
    const double l0 = e[0];
    SP_IVDEP
    for (int l = 0; l < w; ++l) {
      double l1[3] = {0.0, 0.0, 0.0}, l2 = 1.0, l3[3] = {0.0, 0.0, 0.0};
      if (!Identity) row(p, e, l, l1, l2, l3);
      double fac[3], s3[3], s4[3];
      for (int F = 0; F < 3; ++F) {
        fac[F] = 1.0 / a2[F][l];
        s3[F] = fac[F] * a3[F][l];
        s4[F] = fac[F] * a4;
        u3[F][std::size_t(q) * w + l] = s3[F];
        u4[F][std::size_t(q) * w + l] = s4[F];
      }
      for (int m = 0; m < 5; ++m) {
        const int F = factor_of(m);
        const double x = fac[F] * rq[m][l];
        rq[m][l] = x;
        rq1[m][l] = rq1[m][l] - b1[F][l] * x;
        rq2[m][l] = rq2[m][l] - l0 * x;
      }
      for (int F = 0; F < 3; ++F) {
        const double s1 = b1[F][l];
        a2[F][l] = b2[F][l] - s1 * s3[F];
        a3[F][l] = b3[F][l] - s1 * s4[F];
        b1[F][l] = l1[F] - l0 * s3[F];
        b2[F][l] = l2 - l0 * s4[F];
        b3[F][l] = l3[F];
      }
    }
    a4 = b4, b4 = e[4];
  };
  for (int q = 0; q < n - 3; ++q) forward(q, std::false_type{});
  forward(n - 3, std::true_type{});  // row n - 1 is an identity row

  // The last two rows have no rows below them to eliminate.
  {
    double* __restrict ra[5];
    double* __restrict rb[5];
    for (int m = 0; m < 5; ++m) ra[m] = r[m] + (n - 2) * ps, rb[m] = r[m] + (n - 1) * ps;
    SP_IVDEP
    for (int l = 0; l < w; ++l) {
      double fac[3], s3[3], d2[3];
      for (int F = 0; F < 3; ++F) {
        fac[F] = 1.0 / a2[F][l];
        s3[F] = fac[F] * a3[F][l];
        d2[F] = b2[F][l] - b1[F][l] * s3[F];
      }
      const double fac2 = 1.0 / d2[0];  // NPB scales by a reciprocal for the first factor only
      for (int m = 0; m < 5; ++m) {
        const int F = factor_of(m);
        const double x = fac[F] * ra[m][l];
        double y = rb[m][l] - b1[F][l] * x;
        y = m < 3 ? fac2 * y : y / d2[F];
        rb[m][l] = y;
        ra[m][l] = x - s3[F] * y;
      }
    }
  }

  // Back substitution; position q + 2 is finished once q is solved.
  for (int q = n - 3; q >= 0; --q) {
    double* __restrict rq[5];
    const double* rq1[5];
    const double* rq2[5];
    for (int m = 0; m < 5; ++m) rq[m] = r[m] + q * ps, rq1[m] = r[m] + (q + 1) * ps, rq2[m] = r[m] + (q + 2) * ps;
    SP_IVDEP
    for (int l = 0; l < w; ++l)
      for (int m = 0; m < 5; ++m) {
        const int F = factor_of(m);
        rq[m][l] = rq[m][l] - u3[F][std::size_t(q) * w + l] * rq1[m][l] - u4[F][std::size_t(q) * w + l] * rq2[m][l];
      }
    if (q + 2 <= n - 2) finish(q + 2);
  }
  finish(1);
}

/// The host's x, y or z solve of the interior lines of plane o (x, y: k = o; z: j = o), with
/// what follows it (ninvr; pinvr; tzetar and add). buf holds host_plane_work(D, n) doubles.
/// y solves in place in the fields; x and z copy groups of at most host_group_lines lines
/// into buf first, with the line fastest and the positions w doubles apart: x's positions are
/// contiguous in the fields, and z's are n^2 apart, which for a power-of-two n (class A) puts
/// every row an elimination step touches into the same few cache sets.
template <int D>
ACC_ROUTINE SP_INLINE void solve_plane_host(const sp_fields& f, const sp_constants& c, int o, double* buf) {
  const int n = c.n, lines = n - 2;
  const std::size_t P = c.points;
  double* const rhs = f.rhs.data();
  if constexpr (D == 2) {
    // Lines i = 1 .. n - 2, straight in the fields.
    const std::ptrdiff_t ps = std::ptrdiff_t(c.stride(2));
    const std::size_t b = c.at(o, 0, 1);
    const int w = lines;
    double* const vr = buf + host_solve_work(n, w);
    const double* const rho = f.rho_i.data() + b;
    for (int q = 0; q < n; ++q) {
      SP_IVDEP
      for (int l = 0; l < w; ++l) vr[std::size_t(q) * w + l] = viscous_rho<2>(c, rho[q * ps + l]);
    }
    double* const r[5] = {rhs + b, rhs + P + b, rhs + 2 * P + b, rhs + 3 * P + b, rhs + 4 * P + b};
    solve_lines_host<2>(c, w, ps, r, vr, f.vs.data() + b, f.speed.data() + b, buf, [&](int q) SP_INLINE_LAMBDA {
      double* __restrict rq[5];
      for (int m = 0; m < 5; ++m) rq[m] = r[m] + q * ps;
      SP_IVDEP
      for (int l = 0; l < w; ++l) {
        double x[5];
        for (int m = 0; m < 5; ++m) x[m] = rq[m][l];
        pinvr_point(c, x);
        for (int m = 0; m < 5; ++m) rq[m][l] = x[m];
      }
    });
  } else {
    // x: lines j, positions i; z: lines i, positions k. In groups, copied.
    const int groups = (lines + host_group_lines - 1) / host_group_lines;
    const int most = (lines + groups - 1) / groups;
    for (int l0 = 1; l0 < n - 1; l0 += most) {
      const int w = l0 + most <= n - 1 ? most : n - 1 - l0;
      const std::size_t nw = std::size_t(n) * w;
      double* const t = buf + host_solve_work(n, most);  // rhs (5), vr, vel, spd; position q at q w
      double* const r[5] = {t, t + nw, t + 2 * nw, t + 3 * nw, t + 4 * nw};
      double* const vr = t + 5 * nw;
      double* const vel = t + 6 * nw;
      double* const spd = t + 7 * nw;
      if constexpr (D == 1) {
        for (int l = 0; l < w; ++l) {
          const std::size_t b = c.at(o, l0 + l, 0);
          const double *const rho = f.rho_i.data() + b, *const us = f.us.data() + b, *const sp = f.speed.data() + b;
          for (int q = 0; q < n; ++q) {
            const std::size_t e = std::size_t(q) * w + l;
            for (int m = 0; m < 5; ++m) r[m][e] = rhs[m * P + b + q];
            vr[e] = viscous_rho<1>(c, rho[q]), vel[e] = us[q], spd[e] = sp[q];
          }
        }
        solve_lines_host<1>(c, w, w, r, vr, vel, spd, buf, [&](int q) SP_INLINE_LAMBDA {
          SP_IVDEP
          for (int l = 0; l < w; ++l) {
            double x[5];
            for (int m = 0; m < 5; ++m) x[m] = r[m][std::size_t(q) * w + l];
            ninvr_point(c, x);
            const std::size_t p = c.at(o, l0 + l, q);
            for (int m = 0; m < 5; ++m) rhs[m * P + p] = x[m];
          }
        });
      } else {
        for (int q = 0; q < n; ++q) {
          const std::size_t b = c.at(q, o, l0), e = std::size_t(q) * w;
          const double *const rho = f.rho_i.data() + b, *const ws = f.ws.data() + b, *const sp = f.speed.data() + b;
          for (int m = 0; m < 5; ++m) {
            const double* const from = rhs + m * P + b;
            double* __restrict const to = r[m] + e;
            for (int l = 0; l < w; ++l) to[l] = from[l];
          }
          SP_IVDEP
          for (int l = 0; l < w; ++l) vr[e + l] = viscous_rho<3>(c, rho[l]), vel[e + l] = ws[l], spd[e + l] = sp[l];
        }
        solve_lines_host<3>(c, w, w, r, vr, vel, spd, buf, [&](int q) SP_INLINE_LAMBDA {
          const std::size_t b = c.at(q, o, l0), e = std::size_t(q) * w;
          double* __restrict const u = f.u.data() + b;
          const double *const us = f.us.data() + b, *const vs = f.vs.data() + b, *const ws = f.ws.data() + b,
                       *const sp = f.speed.data() + b, *const qs = f.qs.data() + b;
          SP_IVDEP
          for (int l = 0; l < w; ++l) {
            double x[5];
            for (int m = 0; m < 5; ++m) x[m] = r[m][e + l];
            tzetar_point(c, us[l], vs[l], ws[l], sp[l], qs[l], u[l], x);
            for (int m = 0; m < 5; ++m) u[m * P + l] = u[m * P + l] + x[m];
          }
        });
      }
    }
  }
}

/// The doubles of gang buffer that solve_plane_host<D> needs.
inline std::size_t host_plane_work(int D, int n) {
  const int lines = n - 2;
  if (D == 2) return host_solve_work(n, lines) + std::size_t(n) * lines;
  const int groups = (lines + host_group_lines - 1) / host_group_lines;
  const int most = (lines + groups - 1) / groups;
  return host_solve_work(n, most) + 8 * std::size_t(n) * most;
}

/// Direction D's host solve: one gang per plane, all of its lines together. For the host only
/// (host_rows()): a gang's buffer is a few hundred KiB at class B, far beyond a GPU's shared
/// memory.
template <int D, class... Clauses>
void solve_host(const sp_fields& f, const sp_constants& c, Clauses... clauses) {
  const int planes = c.n - 2;
  const std::size_t count = host_plane_work(D, c.n);
  acc::parallel(acc::num_gangs(planes), acc::shared_bytes(count * sizeof(double)), acc::default_present, clauses...,
                ACC_LAMBDA(const acc::gang_t& g) {
                  double* const buf = g.shared<double>(count).data();
                  acc::loop(g, acc::gang, planes, [&](int o) { solve_plane_host<D>(f, c, o + 1, buf); });
                });
}

/// NPB's add: u += rhs inside.
void add(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  acc::parallel_loop(acc::collapse(n - 2, n - 2, n - 2), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    const std::size_t p = c.at(k + 1, j + 1, i + 1);
    for (int m = 0; m < 5; ++m) f.u[m * c.points + p] += f.rhs[m * c.points + p];
  });
}

/// One time step (NPB's adi) as NPB writes it: its nine routines, ten synchronous constructs.
void adi_simple(const sp_fields& f, const sp_constants& c) {
  compute_rhs(f, c);
  txinvr(f, c);
  x_solve(f, c);
  ninvr(f, c);
  y_solve(f, c);
  pinvr(f, c);
  z_solve(f, c);
  tzetar(f, c);
  add(f, c);
}

/// The same step in four constructs on one async queue (no host synchronisation inside the
/// time-step loop): compute_rhs (two passes, txinvr fused into the second) and the three fused
/// sweeps, z with tzetar and add. On a multicore host the sweeps are the plane-wise host form
/// (solve_host: one gang per plane, its lines advanced together), the GPU's one line per
/// thread being a scalar recurrence there.
void adi_fused(const sp_fields& f, const sp_constants& c, int queue) {
  compute_rhs<true>(f, c, acc::async(queue));
  if (host_rows()) {
    solve_host<1>(f, c, acc::async(queue));
    solve_host<2>(f, c, acc::async(queue));
    solve_host<3>(f, c, acc::async(queue));
    return;
  }
  x_solve_fused(f, c, acc::async(queue));
  y_solve_fused(f, c, acc::async(queue));
  z_solve_fused_add(f, c, acc::async(queue));
}

// --- Verification ---------------------------------------------------------------------------

/// Per-component rms of NPB's norms: sums of squares normalised by (n - 2)^3.
struct norms {
  double v[5];
};
norms finish_rms(const sp_constants& c, double s0, double s1, double s2, double s3, double s4) {
  norms r{{s0, s1, s2, s3, s4}};
  const double inner = double(c.n - 2);
  for (double& x : r.v) x = std::sqrt(x / inner / inner / inner);
  return r;
}

/// NPB's error_norm: u against the exact solution on the whole grid.
norms error_norm(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  const acc::array<double>& u = f.u;
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
  acc::parallel_loop(acc::collapse(n, n, n), acc::default_present, acc::reduction(acc::plus, s0),
                     acc::reduction(acc::plus, s1), acc::reduction(acc::plus, s2), acc::reduction(acc::plus, s3),
                     acc::reduction(acc::plus, s4),
                     ACC_LAMBDA(int k, int j, int i, double& t0, double& t1, double& t2, double& t3, double& t4) {
                       double e[5], d[5];
                       c.exact_solution(i * c.dnm1, j * c.dnm1, k * c.dnm1, e);
                       const std::size_t p = c.at(k, j, i);
                       for (int m = 0; m < 5; ++m) d[m] = u[m * c.points + p] - e[m];
                       t0 += d[0] * d[0], t1 += d[1] * d[1], t2 += d[2] * d[2], t3 += d[3] * d[3];
                       t4 += d[4] * d[4];
                     });
  return finish_rms(c, s0, s1, s2, s3, s4);
}

/// NPB's rhs_norm: rhs inside.
norms rhs_norm(const sp_fields& f, const sp_constants& c) {
  const int n = c.n;
  const acc::array<double>& rhs = f.rhs;
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
  acc::parallel_loop(acc::collapse(n - 2, n - 2, n - 2), acc::default_present, acc::reduction(acc::plus, s0),
                     acc::reduction(acc::plus, s1), acc::reduction(acc::plus, s2), acc::reduction(acc::plus, s3),
                     acc::reduction(acc::plus, s4),
                     ACC_LAMBDA(int k, int j, int i, double& t0, double& t1, double& t2, double& t3, double& t4) {
                       const std::size_t p = c.at(k + 1, j + 1, i + 1), P = c.points;
                       const double d0 = rhs[p], d1 = rhs[P + p], d2 = rhs[2 * P + p], d3 = rhs[3 * P + p],
                                    d4 = rhs[4 * P + p];
                       t0 += d0 * d0, t1 += d1 * d1, t2 += d2 * d2, t3 += d3 * d3, t4 += d4 * d4;
                     });
  return finish_rms(c, s0, s1, s2, s3, s4);
}

const sp_class* find_class(const char* arg) {
  for (const sp_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) try {
  const sp_class* cls = find_class(argc > 1 ? argv[1] : "S");
  const bool simple = argc > 2 && std::strcmp(argv[2], "simple") == 0;
  if (!cls || (argc > 2 && !simple) || argc > 3) {
    std::fprintf(stderr, "usage: %s [S|W|A|B|C] [simple]\n", argv[0]);
    return 2;
  }
  const int n = cls->n;
  // The GPU keeps the grid dense (consecutive rows of consecutive threads are consecutive
  // addresses). A host pads rows and planes to an odd length, as NPB's arrays are
  // ([JMAXP+1][IMAXP+1]): for a power-of-two n (class A) the rows around a point, n^2 doubles
  // apart, and the components, n^3 apart, would otherwise share a few cache sets, which
  // compute_rhs's z stencil and the solves meet at every point.
  const int pitch = host_rows() ? n / 2 * 2 + 1 : n;
  const sp_constants c = make_constants(n, cls->dt, pitch);
  const sp_fields f(n, c.points);
  acc::data region{acc::create(f.u),     acc::create(f.rhs),   acc::create(f.forcing), acc::create(f.us),
                   acc::create(f.vs),    acc::create(f.ws),    acc::create(f.qs),      acc::create(f.rho_i),
                   acc::create(f.speed), acc::create(f.square), acc::create(f.lhs),    acc::create(f.lhsp),
                   acc::create(f.lhsm),  acc::create(f.rtmp)};
  constexpr int queue = 1;
  auto adi = [&] {
    if (simple)
      adi_simple(f, c);
    else
      adi_fused(f, c, queue);
  };

  exact_rhs(f, c);
  initialize(f, c);
  // NPB does one untimed step to touch all code and data (here also: load the kernels), then
  // starts again.
  adi();
  acc::wait(queue);
  initialize(f, c);

  std::printf("NPB SP class %c: grid %d x %d x %d, %d time steps, dt = %g, %s step\n", cls->name, n, n, n,
              cls->niter, cls->dt, simple ? "simple" : "fused");
  const auto start = std::chrono::steady_clock::now();
  for (int step = 1; step <= cls->niter; ++step) {
    if (step % 20 == 0 || step == 1) std::printf("  time step %4d\n", step);
    adi();
  }
  acc::wait(queue);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // NPB 3.4 SP verification: the error norms, then the residual of one more rhs evaluation
  // divided by dt, each within a relative epsilon of NPB's values.
  const norms xce = error_norm(f, c);
  compute_rhs(f, c);
  norms xcr = rhs_norm(f, c);
  for (double& x : xcr.v) x /= cls->dt;
  bool ok = true;
  auto report = [&](const char* what, const norms& got, const double* ref) {
    std::printf("  %s\n", what);
    for (int m = 0; m < 5; ++m) {
      const double err = std::fabs((got.v[m] - ref[m]) / ref[m]);
      const bool good = err <= epsilon;  // false for NaN
      ok &= good;
      std::printf("  %s %d %20.13e %20.13e %9.2e\n", good ? "   " : "FAILURE", m + 1, got.v[m], ref[m], err);
    }
  };
  report("rms of residual (computed, reference, relative error)", xcr, cls->xcr);
  report("rms of solution error (computed, reference, relative error)", xce, cls->xce);

  // NPB's operation count for SP: (881.174 n^3 - 4683.91 n^2 + 11484.5 n - 19272.4) per step.
  const double nd = n;
  const double mops = (881.174 * nd * nd * nd - 4683.91 * nd * nd + 11484.5 * nd - 19272.4) * cls->niter / seconds * 1e-6;
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("  on %s\n", gpu ? "nvidia" : "host");
  std::printf("  time = %.4f s, Mop/s = %.2f\n  verification %s\n", seconds, mops, ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "sp: %s\n", e.what());
  return 1;
}
