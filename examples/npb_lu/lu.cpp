// NPB LU (lower-upper Gauss-Seidel pseudo-application), after the NAS Parallel Benchmarks 3.x
// OpenMP/OpenACC versions: the steady compressible Navier-Stokes equations (five coupled
// nonlinear PDEs) on an n^3 grid with a manufactured exact solution, solved by pseudo-time
// stepping with symmetric successive over-relaxation (SSOR): per step a block lower triangular
// sweep, a block upper triangular sweep (5x5 blocks), an update and a new residual. The RMS
// norms of the residual and of the error and a surface integral are checked against NPB's
// published values.
//   lu [S|W|A|B|C] [timers]   (default S; timers: seconds per phase, as NPB's timer.flag)
// Written for acc from the NPB 3.4 specification of LU (NAS technical reports RNR-94-007 and
// NAS-95-020), reading NPB-CPP's LU (GMAP/NPB-CPP, NPB-SER/LU/lu.cpp) for the algorithm;
// class parameters, the exact solution's coefficients, the physical constants, the surface
// integral's planes, the operation count and the verification values are NPB 3.4's
// (setparams.c, setcoeff, domain, pintgr, verify, lu.f's Mop/s formula).
//
// How it maps to a GPU:
// - The Jacobian blocks of the sweeps depend only on u, which the sweeps do not change, so
//   each point forms its own four blocks where it is solved (NPB's jacld/blts and jacu/buts
//   fused, as NPB-GPU does) instead of storing 100 doubles per point and reading them back.
// - The sweeps run over hyperplanes i + j + k = l, one parallel_loop per hyperplane: every
//   point of a hyperplane depends only on the previous one. That is 3n - 8 constructs per
//   sweep, where a wavefront inside each (j, i) plane, k after k, takes about 2n per plane
//   (2n^2 per sweep) with at most n points each; a hyperplane holds up to ~3n^2/4 points.
// - u, rsd and frct keep the five components of a point together (u[k][j][i][m], m fastest,
//   the layout of NPB and NPB-GPU). On a hyperplane, neighbouring threads are (j, i) and
//   (j + 1, i - 1), nx - 1 points apart, so no layout makes their loads coalesce; with the
//   components together each point's five values share two 32-byte sectors instead of five.
//   The stencil kernels lose little: a warp's five component loads hit the same lines.
//   `components_together` below switches to component-major planes to measure the other way.
// - The residual is one construct per direction, as NPB's rhs loop nests, each point
//   computing its own flux differences from its neighbours (no flux arrays).
// - Everything stays on the device inside one data region; the time-step loop queues its
//   constructs on one async queue and waits only for the final norms.
//
// How it maps to a multicore host (acc::get_device_type() == host, the openmp and serial builds
// and a cuda build without a GPU): the same per-point routines, other constructs. Each sweep
// is one construct pipelined as NPB-OMP's blts/buts: a gang per thread owns an equal block of
// each plane's points, about nj / threads rows, and runs it plane by plane along i (contiguous
// memory, the i-1 and k-1 neighbours its own), waiting before each plane only for the gang
// next to it; the step's rsd *= dt and update ride on the sweep and on the residual's first
// pass. The residual computes each flux once per point into rolling rows of a gang-shared
// buffer, then differences them (NPB's rhs), where a GPU thread recomputes its neighbours'
// fluxes; see lower_sweep, residual and residual_lines.
#include <acc/parallel.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string_view>

// The per-point routines (the 5x5 blocks, their solve, a direction's fluxes) are forced inline
// into the host's loops: g++ keeps them out of line (the sweep bodies are large), and then the
// blocks go through memory and solve_block's loops stay rolled, which made the solve alone a
// third of the host's time. nvcc inlines them into its kernels by itself; its device pass
// keeps its own choice.
#if defined(__CUDA_ARCH__) || !defined(__GNUC__)
#  define LU_INLINE inline
#else
#  define LU_INLINE inline __attribute__((always_inline))
#endif
// LU_UNROLL unrolls solve_block's elimination in g++ builds, where g++ left its outer loop
// rolled and kept the block on the stack (nvcc's front end does not know the pragma).
#if defined(__GNUC__) && !defined(__CUDACC__) && !defined(__clang__)
#  define LU_UNROLL _Pragma("GCC unroll 5")
#else
#  define LU_UNROLL
#endif

namespace {

// --- Classes (NPB 3.4 setparams.c write_lu_info, verification values from lu verify) ----------
struct lu_class {
  char name;
  int n;      // grid points per dimension
  int itmax;  // pseudo-time steps
  double dt;
  double xcr[5];  // RMS norms of the residual after itmax steps
  double xce[5];  // RMS norms of the error
  double xci;     // surface integral
};
constexpr lu_class classes[] = {
    {'S', 12, 50, 0.5,
     {1.6196343210976702e-02, 2.1976745164821318e-03, 1.5179927653399185e-03, 1.5029584435994323e-03,
      3.4264073155896461e-02},
     {6.4223319957960924e-04, 8.4144342047347926e-05, 5.8588269616485186e-05, 5.8474222595157350e-05,
      1.3103347914111294e-03},
     7.8418928865937083e+00},
    {'W', 33, 300, 1.5e-3,
     {0.1236511638192e+02, 0.1317228477799e+01, 0.2550120713095e+01, 0.2326187750252e+01, 0.2826799444189e+02},
     {0.4867877144216e+00, 0.5064652880982e-01, 0.9281818101960e-01, 0.8570126542733e-01, 0.1084277417792e+01},
     0.1161399311023e+02},
    {'A', 64, 250, 2.0,
     {7.7902107606689367e+02, 6.3402765259692870e+01, 1.9499249727292479e+02, 1.7845301160418537e+02,
      1.8384760349464247e+03},
     {2.9964085685471943e+01, 2.8194576365003349e+00, 7.3473412698774742e+00, 6.7139225687777051e+00,
      7.0715315688392578e+01},
     2.6030925604886277e+01},
    {'B', 102, 250, 2.0,
     {3.5532672969982736e+03, 2.6214750795310692e+02, 8.8333721850952190e+02, 7.7812774739425265e+02,
      7.3087969592545314e+03},
     {1.1401176380212709e+02, 8.1098963655421574e+00, 2.8480597317698308e+01, 2.5905394567832939e+01,
      2.6054907504857413e+02},
     4.7887162703308227e+01},
    {'C', 162, 250, 2.0,
     {1.03766980323537846e+04, 8.92212458801008552e+02, 2.56238814582660871e+03, 2.19194343857831427e+03,
      1.78078057261061185e+04},
     {2.15986399716949279e+02, 1.55789559239863600e+01, 5.41318863077207766e+01, 4.82262643154045421e+01,
      4.55902910043250358e+02},
     6.66404553572181300e+01},
};
constexpr double epsilon = 1.0e-8;  // NPB's verification tolerance (relative)
constexpr double omega = 1.2;       // NPB's OMEGA_DEFAULT, the SSOR over-relaxation factor

// NPB's physical constants C1..C5 (ratio of specific heats and the viscous coefficients).
constexpr double c1 = 1.40, c2 = 0.40, c3 = 0.10, c4 = 1.00, c5 = 1.40;
constexpr double r43 = 4.0 / 3.0, c34 = c3 * c4, c1345 = c1 * c3 * c4 * c5;

// Coefficients of the exact solution: component m is a quartic in each of xi, eta, zeta
// (NPB setcoeff's ce(m, 1..13), here ce[term][m]).
constexpr double exact_coefficients[13][5] = {
    {2.0, 1.0, 2.0, 2.0, 5.0},                        // 1
    {0.0, 0.0, 2.0, 2.0, 4.0},                        // xi
    {0.0, 0.0, 0.0, 0.0, 3.0},                        // eta
    {4.0, 0.0, 0.0, 0.0, 2.0},                        // zeta
    {5.0, 1.0, 0.0, 0.0, 1.0e-01},                    // xi^2
    {3.0, 2.0, 2.0, 2.0, 4.0e-01},                    // eta^2
    {5.0e-01, 3.0, 3.0, 3.0, 3.0e-01},                // zeta^2
    {2.0e-02, 1.0e-02, 4.0e-02, 3.0e-02, 5.0e-02},    // xi^3
    {1.0e-02, 3.0e-02, 3.0e-02, 5.0e-02, 4.0e-02},    // eta^3
    {3.0e-02, 2.0e-02, 5.0e-02, 4.0e-02, 3.0e-02},    // zeta^3
    {5.0e-01, 4.0e-01, 3.0e-01, 2.0e-01, 1.0e-01},    // xi^4
    {4.0e-01, 3.0e-01, 5.0e-01, 1.0e-01, 3.0e-01},    // eta^4
    {3.0e-01, 5.0e-01, 4.0e-01, 3.0e-01, 2.0e-01},    // zeta^4
};

/// Where component m of point p lives. Together (m fastest) is NPB's layout; the other is five
/// component planes, which coalesces the stencil kernels' loads but not the sweeps'.
constexpr bool components_together = true;

/// The grid and every constant the kernels need; trivially copyable, captured by value.
struct lu_grid {
  int nx, ny, nz;
  double dt;
  double dxi, deta, dzeta;
  double t1[3], t2[3], t3[3];  // per direction x, y, z: 1/h^2, 1/(2h), 1/h (NPB's tx1, tx2, tx3, ...)
  double dd[3][5];             // per direction, NPB's second-difference coefficients dx1..dx5, ...
  double dssp;                 // fourth-difference dissipation
  double ce[13][5];
  // Constant parts of the diagonal block (NPB's jacld/jacu "block diagonal").
  double diag[5];  // 2 dt sum over directions of t1 dd[m]
  double lq[4];    // for q = 1..3: sum over directions of t1, the one along q weighted 4/3
  double kq[4];    // for q = 1..3: sum over directions of t1 (c34 - c1345), along q r43 c34 - c1345
  double t1sum;    // tx1 + ty1 + tz1

  ACC_ROUTINE int point(int k, int j, int i) const { return (k * ny + j) * nx + i; }
  ACC_ROUTINE int at(int p, int m) const {
    if constexpr (components_together) return 5 * p + m;
    else return m * (nx * ny * nz) + p;
  }
  int points() const { return nx * ny * nz; }

  /// NPB's exact(i, j, k): the manufactured solution at a grid point.
  ACC_ROUTINE void exact(int i, int j, int k, double out[5]) const {
    const double xi = double(i) / (nx - 1), eta = double(j) / (ny - 1), zeta = double(k) / (nz - 1);
    for (int m = 0; m < 5; ++m)
      out[m] = ce[0][m] + (ce[1][m] + (ce[4][m] + (ce[7][m] + ce[10][m] * xi) * xi) * xi) * xi +
               (ce[2][m] + (ce[5][m] + (ce[8][m] + ce[11][m] * eta) * eta) * eta) * eta +
               (ce[3][m] + (ce[6][m] + (ce[9][m] + ce[12][m] * zeta) * zeta) * zeta) * zeta;
  }
};

/// NPB's setcoeff for an n^3 grid and time step dt.
lu_grid make_grid(int n, double dt) {
  lu_grid g{};
  g.nx = g.ny = g.nz = n;
  g.dt = dt;
  g.dxi = 1.0 / (n - 1);
  g.deta = 1.0 / (n - 1);
  g.dzeta = 1.0 / (n - 1);
  const double h[3] = {g.dxi, g.deta, g.dzeta};
  const double d[3] = {0.75, 0.75, 1.00};  // dx*, dy*, dz*
  for (int dir = 0; dir < 3; ++dir) {
    g.t1[dir] = 1.0 / (h[dir] * h[dir]);
    g.t2[dir] = 1.0 / (2.0 * h[dir]);
    g.t3[dir] = 1.0 / h[dir];
    for (int m = 0; m < 5; ++m) g.dd[dir][m] = d[dir];
  }
  g.dssp = std::max(std::max(d[0], d[1]), d[2]) / 4.0;
  for (int t = 0; t < 13; ++t)
    for (int m = 0; m < 5; ++m) g.ce[t][m] = exact_coefficients[t][m];
  for (int m = 0; m < 5; ++m)
    g.diag[m] = dt * 2.0 * (g.t1[0] * g.dd[0][m] + g.t1[1] * g.dd[1][m] + g.t1[2] * g.dd[2][m]);
  for (int q = 1; q <= 3; ++q) {
    g.lq[q] = 0.0;
    g.kq[q] = 0.0;
    for (int dir = 0; dir < 3; ++dir) {
      g.lq[q] += g.t1[dir] * (dir == q - 1 ? r43 : 1.0);
      g.kq[q] += g.t1[dir] * (dir == q - 1 ? r43 * c34 - c1345 : c34 - c1345);
    }
  }
  g.t1sum = g.t1[0] + g.t1[1] + g.t1[2];
  return g;
}

/// The interior points 1..n-2 in each direction, as counts: bodies add 1 to their indices.
auto interior(const lu_grid& g) { return acc::collapse(g.nz - 2, g.ny - 2, g.nx - 2); }

template <class V>
ACC_ROUTINE LU_INLINE void load5(const V& f, const lu_grid& g, int p, double out[5]) {
  for (int m = 0; m < 5; ++m) out[m] = f[g.at(p, m)];
}

// --- The residual (NPB's rhs and erhs) ------------------------------------------------------------

/// NPB's fourth-difference dissipation along one line at position x of 0..n-1: one-sided next
/// to the boundary, the centred 1 -4 6 -4 1 stencil inside. w[2 + o] is the value o points away.
ACC_ROUTINE LU_INLINE double dissipation(int x, int n, const double w[5]) {
  if (x == 1) return 5.0 * w[2] - 4.0 * w[3] + w[4];
  if (x == 2) return -4.0 * w[1] + 6.0 * w[2] - 4.0 * w[3] + w[4];
  if (x == n - 3) return w[0] - 4.0 * w[1] + 6.0 * w[2] - 4.0 * w[3];
  if (x == n - 2) return w[0] - 4.0 * w[1] + 5.0 * w[2];
  return w[0] - 4.0 * w[1] + 6.0 * w[2] - 4.0 * w[3] + w[4];
}

/// Adds the flux differences and dissipation along direction Dir (0 x, 1 y, 2 z; momentum
/// component Dir + 1) at point p, position x of n along that direction, neighbours `stride`
/// points apart; as NPB's rhs: the convective flux's central difference, then the viscous
/// flux and the second difference, then the fourth-difference dissipation.
template <int Dir, class U, class S>
ACC_ROUTINE LU_INLINE void add_direction(const lu_grid& g, const U& u, const S& rho_i, const S& qs, int p, int x, int n,
                               int stride, double r[5]) {
  constexpr int nrm = Dir + 1;
  const double t1 = g.t1[Dir], t2 = g.t2[Dir], t3 = g.t3[Dir];
  double w[3][5];  // u at offsets -1, 0, +1; dissipation reads +-2 itself, one component at a time
  for (int o = -1; o <= 1; ++o) load5(u, g, p + o * stride, w[o + 1]);
  // Convective (Euler) flux at offsets -1 and +1.
  double f[2][5];
  for (int s = 0; s < 2; ++s) {
    const int o = 2 * s - 1;
    const double* q = w[o + 1];
    const double vel = q[nrm] * rho_i[p + o * stride], qq = qs[p + o * stride];
    f[s][0] = q[nrm];
    for (int m = 1; m <= 3; ++m) f[s][m] = q[m] * vel;
    f[s][nrm] += c2 * (q[4] - qq);
    f[s][4] = (c1 * q[4] - c2 * qq) * vel;
  }
  for (int m = 0; m < 5; ++m) r[m] = r[m] - t2 * (f[1][m] - f[0][m]);
  // Viscous flux on the faces (-1, 0) and (0, +1).
  double gv[2][5];
  for (int s = 0; s < 2; ++s) {
    const double* lo = w[s];
    const double* hi = w[s + 1];
    const double rl = rho_i[p + (s - 1) * stride], rh = rho_i[p + s * stride];
    const double v1 = rh * hi[1], v2 = rh * hi[2], v3 = rh * hi[3], v4 = rh * hi[4];
    const double m1 = rl * lo[1], m2 = rl * lo[2], m3 = rl * lo[3], m4 = rl * lo[4];
    const double vn = rh * hi[nrm], mn = rl * lo[nrm];
    gv[s][1] = t3 * (v1 - m1);
    gv[s][2] = t3 * (v2 - m2);
    gv[s][3] = t3 * (v3 - m3);
    gv[s][nrm] = r43 * t3 * (vn - mn);
    gv[s][4] = 0.50 * (1.0 - c1 * c5) * t3 * ((v1 * v1 + v2 * v2 + v3 * v3) - (m1 * m1 + m2 * m2 + m3 * m3)) +
               (1.0 / 6.0) * t3 * (vn * vn - mn * mn) + c1 * c5 * t3 * (v4 - m4);
  }
  r[0] = r[0] + g.dd[Dir][0] * t1 * (w[0][0] - 2.0 * w[1][0] + w[2][0]);
  for (int m = 1; m < 5; ++m)
    r[m] = r[m] + t3 * c3 * c4 * (gv[1][m] - gv[0][m]) + g.dd[Dir][m] * t1 * (w[0][m] - 2.0 * w[1][m] + w[2][m]);
  for (int m = 0; m < 5; ++m) {
    const double line[5] = {x >= 2 ? u[g.at(p - 2 * stride, m)] : 0.0, w[0][m], w[1][m], w[2][m],
                            x + 2 < n ? u[g.at(p + 2 * stride, m)] : 0.0};
    r[m] = r[m] - g.dssp * dissipation(x, n, line);
  }
}

/// rho_i = 1 / u0 and qs = |momentum|^2 / (2 u0) at every point, and out = -frct (NPB's rhs,
/// first loop). erhs calls it with the exact solution for u and frct zero.
void prepare(const lu_grid& g, int queue, const acc::array<double>& u, const acc::array<double>& rho_i,
             const acc::array<double>& qs, const acc::array<double>& out, const acc::array<double>& frct) {
  const acc::view<const double> ur = u, fr = frct;
  acc::parallel_loop(acc::collapse(g.nz, g.ny, g.nx), acc::async(queue), acc::default_present,
                     ACC_LAMBDA(int k, int j, int i) {
                       const int p = g.point(k, j, i);
                       double w[5];
                       load5(ur, g, p, w);
                       const double tmp = 1.0 / w[0];
                       rho_i[p] = tmp;
                       qs[p] = 0.50 * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) * tmp;
                       for (int m = 0; m < 5; ++m) out[g.at(p, m)] = -fr[g.at(p, m)];
                     });
}

/// The host's form of the step's update u += scale rsd (interior) followed by prepare: one pass
/// over the points instead of two, each point updating its own u and deriving rho_i, qs from
/// the new value, where the update's pass would read u and rsd and prepare's read u again.
void update_and_prepare(const lu_grid& g, int queue, double scale, const acc::array<double>& u,
                        const acc::array<double>& rho_i, const acc::array<double>& qs,
                        const acc::array<double>& rsd, const acc::array<double>& frct) {
  const acc::view<const double> fr = frct;
  acc::parallel_loop(acc::collapse(g.nz, g.ny, g.nx), acc::async(queue), acc::default_present,
                     ACC_LAMBDA(int k, int j, int i) {
                       const int p = g.point(k, j, i);
                       double w[5];
                       load5(u, g, p, w);
                       if (k > 0 && k < g.nz - 1 && j > 0 && j < g.ny - 1 && i > 0 && i < g.nx - 1)
                         for (int m = 0; m < 5; ++m) {
                           w[m] = w[m] + scale * rsd[g.at(p, m)];
                           u[g.at(p, m)] = w[m];
                         }
                       const double tmp = 1.0 / w[0];
                       rho_i[p] = tmp;
                       qs[p] = 0.50 * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) * tmp;
                       for (int m = 0; m < 5; ++m) rsd[g.at(p, m)] = -fr[g.at(p, m)];
                     });
}

/// out += the steady residual of u along direction Dir at the interior points (one of NPB's
/// rhs loop nests; each point reads its neighbours and writes only itself).
template <int Dir>
void add_residual(const lu_grid& g, int queue, const acc::view<const double>& u, const acc::view<const double>& rho_i,
                  const acc::view<const double>& qs, const acc::array<double>& out) {
  acc::parallel_loop(interior(g), acc::async(queue), acc::default_present, ACC_LAMBDA(int k1, int j1, int i1) {
    const int k = k1 + 1, j = j1 + 1, i = i1 + 1;
    const int p = g.point(k, j, i);
    const int x = Dir == 0 ? i : Dir == 1 ? j : k;
    const int n = Dir == 0 ? g.nx : Dir == 1 ? g.ny : g.nz;
    const int stride = Dir == 0 ? 1 : Dir == 1 ? g.nx : g.nx * g.ny;
    double r[5];
    load5(out, g, p, r);
    add_direction<Dir>(g, u, rho_i, qs, p, x, n, stride, r);
    for (int m = 0; m < 5; ++m) out[g.at(p, m)] = r[m];
  });
}

/// NPB rhs's convective flux along direction Dir (momentum component Dir + 1) of the point
/// with values q, 1/u0 rho and qs.
template <int Dir>
ACC_ROUTINE LU_INLINE void convective_flux(const double* q, double rho, double qq, double* __restrict f) {
  constexpr int nrm = Dir + 1;
  const double vel = q[nrm] * rho;
  f[0] = q[nrm];
  for (int m = 1; m <= 3; ++m) f[m] = q[m] * vel;
  f[nrm] += c2 * (q[4] - qq);
  f[4] = (c1 * q[4] - c2 * qq) * vel;
}

/// NPB rhs's viscous flux along direction Dir on the face between points lo and hi.
template <int Dir>
ACC_ROUTINE LU_INLINE void viscous_flux(const lu_grid& g, const double* lo, const double* hi, double rl, double rh,
                                        double* __restrict gv) {
  constexpr int nrm = Dir + 1;
  const double t3 = g.t3[Dir];
  const double v1 = rh * hi[1], v2 = rh * hi[2], v3 = rh * hi[3], v4 = rh * hi[4];
  const double m1 = rl * lo[1], m2 = rl * lo[2], m3 = rl * lo[3], m4 = rl * lo[4];
  const double vn = rh * hi[nrm], mn = rl * lo[nrm];
  gv[1] = t3 * (v1 - m1);
  gv[2] = t3 * (v2 - m2);
  gv[3] = t3 * (v3 - m3);
  gv[nrm] = r43 * t3 * (vn - mn);
  gv[4] = 0.50 * (1.0 - c1 * c5) * t3 * ((v1 * v1 + v2 * v2 + v3 * v3) - (m1 * m1 + m2 * m2 + m3 * m3)) +
          (1.0 / 6.0) * t3 * (vn * vn - mn * mn) + c1 * c5 * t3 * (v4 - m4);
}

/// The host's form of one direction of the residual (NPB's rhs, flux by flux): w adjacent grid
/// lines along Dir (points p0 + c + x stride, c < w, x < n) advance together through x, each
/// point's convective flux and each face's viscous flux computed once into rolling rows of
/// the gang's buffer (25 w doubles: three flux rows, two face rows), and point x - 1 is
/// finished from them once row x is in. x lines go one at a time (w = 1, contiguous); y and z
/// lines go a whole i row at a time, so every pass reads contiguous rows. The per-point form
/// (add_direction) computes each neighbour's fluxes again for every point that reads them,
/// twice the flux arithmetic, which a GPU thread pays to stay independent of its neighbours.
/// The differences are taken in add_direction's order, so both forms round alike.
template <int Dir>
ACC_ROUTINE LU_INLINE void residual_lines(const lu_grid& g, const double* __restrict u, const double* __restrict rho_i,
                                          const double* __restrict qs, double* __restrict out, int p0, int n,
                                          int stride, int w, double* __restrict buf) {
  const double t1 = g.t1[Dir], t2 = g.t2[Dir], t3 = g.t3[Dir];
  for (int x = 0; x < n; ++x) {
    const int row = p0 + x * stride;
    double* __restrict f = buf + 5 * w * (x % 3);
    for (int c = 0; c < w; ++c) convective_flux<Dir>(u + g.at(row + c, 0), rho_i[row + c], qs[row + c], f + 5 * c);
    if (x == 0) continue;
    double* __restrict gv = buf + 5 * w * (3 + x % 2);  // faces (x - 1, x)
    for (int c = 0; c < w; ++c) {
      const int pl = row - stride + c, ph = row + c;
      viscous_flux<Dir>(g, u + g.at(pl, 0), u + g.at(ph, 0), rho_i[pl], rho_i[ph], gv + 5 * c);
    }
    if (x == 1) continue;
    const int xm = x - 1;  // the point now finished: both its neighbours' fluxes and faces are in
    const double* __restrict fl = buf + 5 * w * ((x + 1) % 3);  // row x - 2
    const double* __restrict gl = buf + 5 * w * (3 + (x + 1) % 2);  // faces (x - 2, x - 1)
    for (int c = 0; c < w; ++c) {
      const int p = row - stride + c;
      double* r = out + g.at(p, 0);
      const double* wl = u + g.at(p - stride, 0);
      const double* wc = u + g.at(p, 0);
      const double* wh = u + g.at(p + stride, 0);
      double rr[5];
      for (int m = 0; m < 5; ++m) rr[m] = r[m] - t2 * (f[5 * c + m] - fl[5 * c + m]);
      rr[0] = rr[0] + g.dd[Dir][0] * t1 * (wl[0] - 2.0 * wc[0] + wh[0]);
      for (int m = 1; m < 5; ++m)
        rr[m] = rr[m] + t3 * c3 * c4 * (gv[5 * c + m] - gl[5 * c + m]) +
                g.dd[Dir][m] * t1 * (wl[m] - 2.0 * wc[m] + wh[m]);
      for (int m = 0; m < 5; ++m) {
        const double line[5] = {xm >= 2 ? u[g.at(p - 2 * stride, m)] : 0.0, wl[m], wc[m], wh[m],
                                xm + 2 < n ? u[g.at(p + 2 * stride, m)] : 0.0};
        r[m] = rr[m] - g.dssp * dissipation(xm, n, line);
      }
    }
  }
}

/// The host's residual along direction Dir (NPB-OMP's loop nests): x lines one per gang over
/// (k, j); y lines a (k) plane per gang, z lines a (j) plane per gang, each advancing a whole
/// interior i row at a time. The rolling rows are gang-shared memory; plain pointers, as NPB
/// indexes its arrays.
template <int Dir>
void add_residual_lines(const lu_grid& g, int queue, const acc::view<const double>& u,
                        const acc::view<const double>& rho_i, const acc::view<const double>& qs,
                        const acc::view<double>& out) {
  const int n = Dir == 0 ? g.nx : Dir == 1 ? g.ny : g.nz;
  const int stride = Dir == 0 ? 1 : Dir == 1 ? g.nx : g.nx * g.ny;
  const int w = Dir == 0 ? 1 : g.nx - 2;
  const int gangs = Dir == 0 ? (g.nz - 2) * (g.ny - 2) : Dir == 1 ? g.nz - 2 : g.ny - 2;
  acc::parallel(acc::num_gangs(gangs), acc::shared_bytes(25 * sizeof(double) * std::size_t(w)), acc::async(queue),
                acc::default_present, ACC_LAMBDA(const acc::gang_t& gang) {
    const auto buf = gang.shared<double>(25 * std::size_t(w));
    acc::loop(gang, acc::gang, gangs, [&](int l) {
      const int p0 = Dir == 0   ? g.point(l / (g.ny - 2) + 1, l % (g.ny - 2) + 1, 0)
                     : Dir == 1 ? g.point(l + 1, 0, 1)
                                : g.point(0, l + 1, 1);
      residual_lines<Dir>(g, u.data(), rho_i.data(), qs.data(), out.data(), p0, n, stride, w, buf.data());
    });
  });
}

/// out += the steady residual of u (NPB's rhs after its first loop): the xi, eta and zeta
/// terms in NPB's order. One construct per direction, as NPB's loop nests: fused into one, a
/// point's three directions take 166 registers on sm_90 (ptxas; one 256-thread block per SM),
/// one direction 94 (two blocks), for one more read and write of out per direction.
/// On the host (multicore) each direction is one construct of grid lines with their fluxes in
/// rolling rows (residual_lines): a core has no registers to save, and the per-point form
/// computes every flux twice.
void residual(const lu_grid& g, int queue, const acc::array<double>& u, const acc::array<double>& rho_i,
              const acc::array<double>& qs, const acc::array<double>& out) {
  const acc::view<const double> ur = u, rr = rho_i, qr = qs;
  // residual_lines reads a point's five components as one run (components_together).
  if (components_together && acc::get_device_type() == acc::device_type::host) {
    const acc::view<double> o = out;
    add_residual_lines<0>(g, queue, ur, rr, qr, o);
    add_residual_lines<1>(g, queue, ur, rr, qr, o);
    add_residual_lines<2>(g, queue, ur, rr, qr, o);
    return;
  }
  add_residual<0>(g, queue, ur, rr, qr, out);
  add_residual<1>(g, queue, ur, rr, qr, out);
  add_residual<2>(g, queue, ur, rr, qr, out);
}

// --- Initialisation (NPB's setbv, setiv, erhs) ---------------------------------------------------

/// u at one point set to the exact solution.
template <class A>
ACC_ROUTINE void set_exact(const lu_grid& g, const A& u, int k, int j, int i) {
  double e[5];
  g.exact(i, j, k, e);
  const int p = g.point(k, j, i);
  for (int m = 0; m < 5; ++m) u[g.at(p, m)] = e[m];
}

/// NPB's setbv: the exact solution on the six faces of the grid.
void set_boundary(const lu_grid& g, const acc::array<double>& u) {
  acc::parallel_loop(acc::collapse(g.ny, g.nx), acc::default_present, ACC_LAMBDA(int j, int i) {
    set_exact(g, u, 0, j, i);
    set_exact(g, u, g.nz - 1, j, i);
  });
  acc::parallel_loop(acc::collapse(g.nz, g.nx), acc::default_present, ACC_LAMBDA(int k, int i) {
    set_exact(g, u, k, 0, i);
    set_exact(g, u, k, g.ny - 1, i);
  });
  acc::parallel_loop(acc::collapse(g.nz, g.ny), acc::default_present, ACC_LAMBDA(int k, int j) {
    set_exact(g, u, k, j, 0);
    set_exact(g, u, k, j, g.nx - 1);
  });
}

/// NPB's setiv: the interior by transfinite (tri-linear blending) interpolation of the faces.
void set_interior(const lu_grid& g, const acc::array<double>& u) {
  acc::parallel_loop(interior(g), acc::default_present, ACC_LAMBDA(int k1, int j1, int i1) {
    const int k = k1 + 1, j = j1 + 1, i = i1 + 1;
    const double zeta = double(k) / (g.nz - 1), eta = double(j) / (g.ny - 1), xi = double(i) / (g.nx - 1);
    double w0[5], w1[5], s0[5], s1[5], b0[5], b1[5];
    g.exact(0, j, k, w0);
    g.exact(g.nx - 1, j, k, w1);
    g.exact(i, 0, k, s0);
    g.exact(i, g.ny - 1, k, s1);
    g.exact(i, j, 0, b0);
    g.exact(i, j, g.nz - 1, b1);
    const int p = g.point(k, j, i);
    for (int m = 0; m < 5; ++m) {
      const double pxi = (1.0 - xi) * w0[m] + xi * w1[m];
      const double peta = (1.0 - eta) * s0[m] + eta * s1[m];
      const double pzeta = (1.0 - zeta) * b0[m] + zeta * b1[m];
      u[g.at(p, m)] = pxi + peta + pzeta - pxi * peta - peta * pzeta - pzeta * pxi + pxi * peta * pzeta;
    }
  });
}

/// NPB's erhs: the forcing frct that makes the exact solution steady, i.e. minus the residual
/// of the exact solution (rsd, rho_i and qs serve as scratch).
void forcing(const lu_grid& g, const acc::array<double>& frct, const acc::array<double>& rsd,
             const acc::array<double>& rho_i, const acc::array<double>& qs) {
  acc::parallel_loop(acc::collapse(g.nz, g.ny, g.nx), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    const int p = g.point(k, j, i);
    for (int m = 0; m < 5; ++m) frct[g.at(p, m)] = 0.0;
    set_exact(g, rsd, k, j, i);
  });
  prepare(g, acc::async_sync, rsd, rho_i, qs, frct, frct);
  residual(g, acc::async_sync, rsd, rho_i, qs, frct);
}

// --- The block Jacobians (NPB's jacld and jacu) ------------------------------------------------------

/// The 5x5 flux Jacobian block coupling a point to its neighbour along direction Dir (0 x, 1 y,
/// 2 z), evaluated at the neighbour's state w (rho = 1/w0, q = qs): m[row][col] multiplies
/// component col of the neighbour's correction in equation row. `conv` is the convective
/// coefficient -dt t2 for the lower neighbour (jacld's a, b, c) and +dt t2 for the upper one
/// (jacu's); the viscous and second-difference parts are the same on both sides.
template <int Dir>
ACC_ROUTINE LU_INLINE void neighbour_block(const lu_grid& g, double conv, const double w[5], double rho, double q,
                                 double mtx[5][5]) {
  constexpr int n = Dir + 1;  // the momentum component along Dir
  const double visc = g.dt * g.t1[Dir];
  const double* d = g.dd[Dir];
  const double t = rho, t2 = rho * rho, t3 = rho * t2;
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 5; ++c) mtx[r][c] = 0.0;
  mtx[0][0] = -visc * d[0];
  mtx[0][n] = conv;
  mtx[n][0] = conv * (-(w[n] * t) * (w[n] * t) + c2 * q * t) - visc * (-r43 * c34 * t2 * w[n]);
  mtx[n][n] = conv * ((2.0 - c2) * (w[n] * t)) - visc * (r43 * c34 * t) - visc * d[n];
  mtx[n][4] = conv * c2;
  double k0 = 0.0;  // the viscous part of the energy row's first column
  for (int s = 1; s <= 3; ++s) {
    const double kv = s == n ? r43 * c34 - c1345 : c34 - c1345;
    k0 = k0 - kv * t3 * (w[s] * w[s]);
    if (s == n) continue;
    mtx[n][s] = conv * (-c2 * (w[s] * t));
    mtx[s][0] = conv * (-(w[n] * w[s]) * t2) - visc * (-c34 * t2 * w[s]);
    mtx[s][n] = conv * (w[s] * t);
    mtx[s][s] = conv * (w[n] * t) - visc * (c34 * t) - visc * d[s];
    mtx[4][s] = conv * (-c2 * (w[s] * w[n]) * t2) - visc * (c34 - c1345) * t2 * w[s];
  }
  mtx[4][0] = conv * ((c2 * 2.0 * q - c1 * w[4]) * (w[n] * t2)) - visc * (k0 - c1345 * t2 * w[4]);
  mtx[4][n] = conv * (c1 * (w[4] * t) - c2 * (w[n] * w[n] * t2 + q * t)) - visc * (r43 * c34 - c1345) * t2 * w[n];
  mtx[4][4] = conv * (c1 * (w[n] * t)) - visc * c1345 * t - visc * d[4];
}

/// The diagonal block at a point of state w (rho = 1/w0): the identity plus the implicit
/// viscous and second-difference terms of all three directions.
ACC_ROUTINE LU_INLINE void diagonal_block(const lu_grid& g, const double w[5], double rho, double mtx[5][5]) {
  const double t = rho, t2 = rho * rho, t3 = rho * t2, dt2 = g.dt * 2.0;
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 5; ++c) mtx[r][c] = 0.0;
  mtx[0][0] = 1.0 + g.diag[0];
  for (int q = 1; q <= 3; ++q) {
    mtx[q][0] = -dt2 * g.lq[q] * c34 * t2 * w[q];
    mtx[q][q] = 1.0 + dt2 * c34 * t * g.lq[q] + g.diag[q];
    mtx[4][q] = dt2 * t2 * w[q] * g.kq[q];
  }
  mtx[4][0] = -dt2 * ((g.kq[1] * (w[1] * w[1]) + g.kq[2] * (w[2] * w[2]) + g.kq[3] * (w[3] * w[3])) * t3 +
                      g.t1sum * c1345 * t2 * w[4]);
  mtx[4][4] = 1.0 + dt2 * g.t1sum * c1345 * t + g.diag[4];
}

/// Solves mtx x = b in place (b becomes x) by Gaussian elimination without pivoting, as NPB's
/// blts/buts ("diagonal block inversion"): the blocks are diagonally dominant.
ACC_ROUTINE LU_INLINE void solve_block(double mtx[5][5], double b[5]) {
  LU_UNROLL
  for (int c = 0; c < 4; ++c) {
    const double inv = 1.0 / mtx[c][c];
    LU_UNROLL
    for (int r = c + 1; r < 5; ++r) {
      const double f = inv * mtx[r][c];
      LU_UNROLL
      for (int s = c + 1; s < 5; ++s) mtx[r][s] = mtx[r][s] - f * mtx[c][s];
      b[r] = b[r] - b[c] * f;
    }
  }
  LU_UNROLL
  for (int r = 4; r >= 0; --r) {
    double s = b[r];
    LU_UNROLL
    for (int c = r + 1; c < 5; ++c) s = s - mtx[r][c] * b[c];
    b[r] = s / mtx[r][r];
  }
}

/// The Jacobian block coupling a point to its neighbour q along Dir, from q's state.
template <int Dir, class U, class S>
ACC_ROUTINE LU_INLINE void block_from(const lu_grid& g, const U& u, const S& rho_i, const S& qs, int q, double conv,
                            double mtx[5][5]) {
  double w[5];
  load5(u, g, q, w);
  neighbour_block<Dir>(g, conv, w, rho_i[q], qs[q], mtx);
}

/// The diagonal block of point p.
template <class U, class S>
ACC_ROUTINE LU_INLINE void diagonal_at(const lu_grid& g, const U& u, const S& rho_i, int p, double mtx[5][5]) {
  double w[5];
  load5(u, g, p, w);
  diagonal_block(g, w, rho_i[p], mtx);
}

// --- The SSOR sweeps ------------------------------------------------------------------------------

/// The points of hyperplane i + j + k = l of the interior (1..n-2 in each index) as a (k, j)
/// rectangle: i = l - k - j, and rows of the rectangle outside the interior are skipped.
struct hyperplane {
  int klo, khi, jlo, jhi;  // inclusive
};
hyperplane hyperplane_of(const lu_grid& g, int l) {
  const int ni = g.nx - 2, nj = g.ny - 2, nk = g.nz - 2;
  hyperplane h;
  h.klo = std::max(1, l - nj - ni);
  h.khi = std::min(nk, l - 2);
  h.jlo = std::max(1, l - h.khi - ni);
  h.jhi = std::min(nj, l - h.klo - 1);
  return h;
}

/// One point of the lower sweep (NPB's jacld + blts): subtracts its solved k-1, j-1 and i-1
/// neighbours' terms and solves its diagonal block. ScaleByDt: the point's own rsd is first
/// multiplied by dt (the step's rsd *= dt, which the host's sweep does as it reads each point
/// instead of in a pass of its own; the product rounds as the pass's would).
template <bool ScaleByDt = false, class U, class S, class R>
ACC_ROUTINE LU_INLINE void lower_point(const lu_grid& g, const U& ur, const S& rr, const S& qr, const R& rsd, int k, int j,
                             int i) {
  const int p = g.point(k, j, i), pz = p - g.nx * g.ny, py = p - g.nx, px = p - 1;
  double v[5], vz[5], vy[5], vx[5], bz[5][5], by[5][5], bx[5][5];
  load5(rsd, g, p, v);
  if constexpr (ScaleByDt)
    for (int m = 0; m < 5; ++m) v[m] = g.dt * v[m];
  load5(rsd, g, pz, vz);
  block_from<2>(g, ur, rr, qr, pz, -g.dt * g.t2[2], bz);
  for (int m = 0; m < 5; ++m)
    v[m] = v[m] - omega * (bz[m][0] * vz[0] + bz[m][1] * vz[1] + bz[m][2] * vz[2] + bz[m][3] * vz[3] +
                           bz[m][4] * vz[4]);
  load5(rsd, g, py, vy);
  load5(rsd, g, px, vx);
  block_from<1>(g, ur, rr, qr, py, -g.dt * g.t2[1], by);
  block_from<0>(g, ur, rr, qr, px, -g.dt * g.t2[0], bx);
  for (int m = 0; m < 5; ++m) {
    double sum = 0.0;  // NPB's order: the j-1 and i-1 terms alternate
    for (int c = 0; c < 5; ++c) sum = sum + by[m][c] * vy[c] + bx[m][c] * vx[c];
    v[m] = v[m] - omega * sum;
  }
  diagonal_at(g, ur, rr, p, bz);
  solve_block(bz, v);
  for (int m = 0; m < 5; ++m) rsd[g.at(p, m)] = v[m];
}

/// One point of the upper sweep (NPB's jacu + buts): solves its diagonal block for its solved
/// k+1, j+1 and i+1 neighbours' terms and subtracts the result.
template <class U, class S, class R>
ACC_ROUTINE LU_INLINE void upper_point(const lu_grid& g, const U& ur, const S& rr, const S& qr, const R& rsd, int k, int j,
                             int i) {
  const int p = g.point(k, j, i), pz = p + g.nx * g.ny, py = p + g.nx, px = p + 1;
  double v[5], tv[5], vz[5], vy[5], vx[5], bz[5][5], by[5][5], bx[5][5];
  // The point's own values are read first, with its neighbours': no other point of the
  // hyperplane writes them, and a read after the solve would add a memory round trip to
  // the end of every thread's chain.
  load5(rsd, g, p, v);
  load5(rsd, g, pz, vz);
  block_from<2>(g, ur, rr, qr, pz, g.dt * g.t2[2], bz);
  for (int m = 0; m < 5; ++m)
    tv[m] = omega * (bz[m][0] * vz[0] + bz[m][1] * vz[1] + bz[m][2] * vz[2] + bz[m][3] * vz[3] + bz[m][4] * vz[4]);
  load5(rsd, g, py, vy);
  load5(rsd, g, px, vx);
  block_from<1>(g, ur, rr, qr, py, g.dt * g.t2[1], by);
  block_from<0>(g, ur, rr, qr, px, g.dt * g.t2[0], bx);
  for (int m = 0; m < 5; ++m) {
    double sum = 0.0;
    for (int c = 0; c < 5; ++c) sum = sum + by[m][c] * vy[c] + bx[m][c] * vx[c];
    tv[m] = tv[m] + omega * sum;
  }
  diagonal_at(g, ur, rr, p, bz);
  solve_block(bz, tv);
  for (int m = 0; m < 5; ++m) rsd[g.at(p, m)] = v[m] - tv[m];
}

/// The host sweeps' progress marks: slot g (one cache line apart, so that a gang's mark and its
/// neighbour's polls do not share a line) holds the last plane gang g has finished, as a ticket
/// that grows from sweep to sweep, so no sweep has to clear the marks of the one before.
struct sweep_marks {
  static constexpr int stride = 16;  // ints per 64-byte line
  acc::array<int> marks;
  int tickets = 0;  // tickets used so far: a sweep takes nk (one per plane)

  explicit sweep_marks(int slots) : marks("sweep marks", std::size_t(slots) * stride) {}
};

/// Waits until `mark` reaches ticket: the gang that owns it has finished that plane of its rows
/// (acquire: its stores to rsd are visible after). Host only: a short spin, then the thread
/// sleeps until set_mark wakes it, so that a gang whose neighbour's thread the OS has taken off
/// its core (a loaded machine) does not spin through its own time slice.
ACC_ROUTINE inline void wait_for_mark(int& mark, int ticket) {
#if defined(__CUDA_ARCH__)
  while (acc::atomic_ref<int>(mark).load(std::memory_order_acquire) < ticket) {
  }
#else
  const std::atomic_ref<int> m(mark);
  for (int spins = 0; spins < 1000; ++spins) {
    if (m.load(std::memory_order_acquire) >= ticket) return;
#  if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#  endif
  }
  for (int seen = m.load(std::memory_order_acquire); seen < ticket; seen = m.load(std::memory_order_acquire))
    m.wait(seen, std::memory_order_acquire);
#endif
}
ACC_ROUTINE inline void set_mark(int& mark, int ticket) {
#if defined(__CUDA_ARCH__)
  acc::atomic_ref<int>(mark).store(ticket, std::memory_order_release);
#else
  const std::atomic_ref<int> m(mark);
  m.store(ticket, std::memory_order_release);
  m.notify_all();
#endif
}

/// Points [*t0, *t1) of a plane's nj x ni interior, numbered j-major, that the host sweeps'
/// gang `me` of `gangs` owns: contiguous blocks of equal size (give or take one point), so
/// that every gang has the same work per plane even where the rows do not divide evenly
/// (100 rows over 16 gangs: 625 points each, where whole rows give some gangs 7 rows and the
/// pipeline runs at the pace of the longest). With gangs <= nj a block spans at least a row,
/// so a point's j-1 and i-1 neighbours (j+1, i+1 in the upper sweep) lie in its own block or
/// in the one before (after).
ACC_ROUTINE inline void sweep_points(int me, int gangs, int points, int* t0, int* t1) {
  const int base = points / gangs, extra = points % gangs;
  *t0 = me * base + (me < extra ? me : extra);
  *t1 = *t0 + base + (me < extra ? 1 : 0);
}

/// Lower sweep: rsd <- (D + omega L)^-1 rsd, L holding the blocks that couple a point to its
/// k-1, j-1 and i-1 neighbours. On the GPU one construct per point hyperplane i + j + k = l, in
/// increasing order. On the host (multicore) one construct for the whole sweep, pipelined as
/// NPB-OMP's blts: each gang (one per thread) owns a block of each plane's points (about nj /
/// gangs rows, sweep_points) and runs the planes k in order, its rows' i lines from low i up;
/// before plane k it waits until the gang below (the block before its own) has finished its
/// plane k. A point's k-1 and i-1 neighbours are then the gang's own, still in its core's
/// caches, and the gangs sync pairwise through marks where a construct per hyperplane ends in
/// a barrier of all threads (2n of them per sweep). This needs every gang running at once, as
/// the host's gangs are (a thread each, the default num_gangs); were OpenMP to give fewer
/// threads, a thread runs its gangs in increasing order, each waiting only on a lower one,
/// which still finishes. A GPU gives no such guarantee.
void lower_sweep(const lu_grid& g, int queue, const acc::array<double>& u, const acc::array<double>& rho_i,
                 const acc::array<double>& qs, const acc::array<double>& rsd, sweep_marks& sync) {
  const acc::view<const double> ur = u, rr = rho_i, qr = qs;
  const int ni = g.nx - 2, nj = g.ny - 2, nk = g.nz - 2;
  if (acc::get_device_type() == acc::device_type::host) {
    const acc::view<int> marks = sync.marks;
    const int first = sync.tickets;  // plane k's ticket: first + k
    sync.tickets += nk;
    acc::parallel(acc::async(queue), acc::default_present, ACC_LAMBDA(const acc::gang_t& gang) {
      const int gangs = gang.num_gangs() < nj ? gang.num_gangs() : nj, me = gang.gang_num();
      if (me >= gangs) return;
      int t0, t1;
      sweep_points(me, gangs, nj * ni, &t0, &t1);
      for (int k = 1; k <= nk; ++k) {
        if (me > 0) wait_for_mark(marks[(me - 1) * sweep_marks::stride], first + k);
        for (int t = t0; t < t1;) {  // the block's part of each row, i from low to high
          const int j = 1 + t / ni, ilo = 1 + t % ni, ihi = ilo + (t1 - t) - 1 < ni ? ilo + (t1 - t) - 1 : ni;
          for (int i = ilo; i <= ihi; ++i) lower_point<true>(g, ur, rr, qr, rsd, k, j, i);
          t += ihi - ilo + 1;
        }
        set_mark(marks[me * sweep_marks::stride], first + k);
      }
    });
    return;
  }
  for (int l = 3; l <= ni + nj + nk; ++l) {
    const hyperplane h = hyperplane_of(g, l);
    const auto plane = acc::collapse(h.khi - h.klo + 1, h.jhi - h.jlo + 1);
    acc::parallel_loop(plane, acc::async(queue), acc::default_present, ACC_LAMBDA(int k1, int j1) {
      const int k = h.klo + k1, j = h.jlo + j1, i = l - k - j;
      if (i < 1 || i > g.nx - 2) return;
      lower_point(g, ur, rr, qr, rsd, k, j, i);
    });
  }
}

/// Upper sweep: rsd <- (D + omega U)^-1 D rsd, U coupling a point to its k+1, j+1 and i+1
/// neighbours; the hyperplanes of lower_sweep in decreasing order. On the host lower_sweep's
/// pipeline mirrored: planes from k = n-2 down, each gang's rows from its last down, lines
/// from i = n-2 down, each gang waiting for the gang whose block is above its own (rows j+1).
void upper_sweep(const lu_grid& g, int queue, const acc::array<double>& u, const acc::array<double>& rho_i,
                 const acc::array<double>& qs, const acc::array<double>& rsd, sweep_marks& sync) {
  const acc::view<const double> ur = u, rr = rho_i, qr = qs;
  const int ni = g.nx - 2, nj = g.ny - 2, nk = g.nz - 2;
  if (acc::get_device_type() == acc::device_type::host) {
    const acc::view<int> marks = sync.marks;
    const int first = sync.tickets;  // plane k's ticket: first + nk + 1 - k
    sync.tickets += nk;
    acc::parallel(acc::async(queue), acc::default_present, ACC_LAMBDA(const acc::gang_t& gang) {
      const int gangs = gang.num_gangs() < nj ? gang.num_gangs() : nj, me = gang.gang_num();
      if (me >= gangs) return;
      // Gang me takes the blocks from the top (the last rows) down, so that it waits on gang
      // me - 1 as in lower_sweep: a thread running several gangs runs the waited-for one first.
      int t0, t1;
      sweep_points(gangs - 1 - me, gangs, nj * ni, &t0, &t1);
      for (int k = nk; k >= 1; --k) {
        const int ticket = first + nk + 1 - k;
        if (me > 0) wait_for_mark(marks[(me - 1) * sweep_marks::stride], ticket);
        for (int t = t1; t > t0;) {  // the block's part of each row, i from high to low
          const int j = 1 + (t - 1) / ni, ihi = 1 + (t - 1) % ni, ilo = ihi - (t - t0) + 1 > 1 ? ihi - (t - t0) + 1 : 1;
          for (int i = ihi; i >= ilo; --i) upper_point(g, ur, rr, qr, rsd, k, j, i);
          t -= ihi - ilo + 1;
        }
        set_mark(marks[me * sweep_marks::stride], ticket);
      }
    });
    return;
  }
  for (int l = ni + nj + nk; l >= 3; --l) {
    const hyperplane h = hyperplane_of(g, l);
    const auto plane = acc::collapse(h.khi - h.klo + 1, h.jhi - h.jlo + 1);
    acc::parallel_loop(plane, acc::async(queue), acc::default_present, ACC_LAMBDA(int k1, int j1) {
      const int k = h.klo + k1, j = h.jlo + j1, i = l - k - j;
      if (i < 1 || i > g.nx - 2) return;
      upper_point(g, ur, rr, qr, rsd, k, j, i);
    });
  }
}

// --- Norms and the surface integral ----------------------------------------------------------------

struct sum5 {
  double s[5];
};
/// Componentwise sum of five doubles: the reduction of NPB's l2norm and error.
struct sum5_plus {
  ACC_ROUTINE sum5 operator()(const sum5& a, const sum5& b) const {
    sum5 r;
    for (int m = 0; m < 5; ++m) r.s[m] = a.s[m] + b.s[m];
    return r;
  }
  ACC_ROUTINE sum5 identity() const { return {{0.0, 0.0, 0.0, 0.0, 0.0}}; }
};

void finish_rms(const lu_grid& g, const sum5& s, double out[5]) {
  const double count = double(g.nx - 2) * (g.ny - 2) * (g.nz - 2);
  for (int m = 0; m < 5; ++m) out[m] = std::sqrt(s.s[m] / count);
}

/// NPB's l2norm: RMS of each component of v over the interior.
void l2norm(const lu_grid& g, const acc::array<double>& v, double out[5]) {
  const acc::view<const double> vr = v;
  const sum5 s = acc::parallel_reduce(
      interior(g),
      acc::default_present, sum5_plus{}, ACC_LAMBDA(int k1, int j1, int i1) {
        const int k = k1 + 1, j = j1 + 1, i = i1 + 1;
        sum5 r;
        const int p = g.point(k, j, i);
        for (int m = 0; m < 5; ++m) {
          const double x = vr[g.at(p, m)];
          r.s[m] = x * x;
        }
        return r;
      });
  finish_rms(g, s, out);
}

/// NPB's error: RMS of u minus the exact solution over the interior.
void solution_error(const lu_grid& g, const acc::array<double>& u, double out[5]) {
  const acc::view<const double> ur = u;
  const sum5 s = acc::parallel_reduce(
      interior(g),
      acc::default_present, sum5_plus{}, ACC_LAMBDA(int k1, int j1, int i1) {
        const int k = k1 + 1, j = j1 + 1, i = i1 + 1;
        double e[5];
        g.exact(i, j, k, e);
        sum5 r;
        const int p = g.point(k, j, i);
        for (int m = 0; m < 5; ++m) {
          const double d = e[m] - ur[g.at(p, m)];
          r.s[m] = d * d;
        }
        return r;
      });
  finish_rms(g, s, out);
}

template <class U>
ACC_ROUTINE double pressure(const lu_grid& g, const U& u, int k, int j, int i) {
  double w[5];
  load5(u, g, g.point(k, j, i), w);
  return c2 * (w[4] - 0.50 * (w[1] * w[1] + w[2] * w[2] + w[3] * w[3]) / w[0]);
}

/// NPB's pintgr: the pressure integrated (trapezoidally, by cells) over three pairs of planes,
/// which are NPB's: k = 2 and nz - 2, j = 1 and ny - 3, i = 1 and nx - 2, each over
/// i in 1..nx-2, j in 1..ny-3, k in 2..nz-2 as the plane allows.
double surface_integral(const lu_grid& g, const acc::array<double>& u) {
  const acc::view<const double> ur = u;
  const int kb = 2, ke = g.nz - 2, jb = 1, je = g.ny - 3, ib = 1, ie = g.nx - 2;
  const double f1 = acc::parallel_reduce(
      acc::collapse(je - jb, ie - ib), acc::default_present, acc::plus,
      ACC_LAMBDA(int j1, int i1) -> double {
        const int j = jb + j1, i = ib + i1;
        return pressure(g, ur, kb, j, i) + pressure(g, ur, kb, j, i + 1) + pressure(g, ur, kb, j + 1, i) +
               pressure(g, ur, kb, j + 1, i + 1) + pressure(g, ur, ke, j, i) + pressure(g, ur, ke, j, i + 1) +
               pressure(g, ur, ke, j + 1, i) + pressure(g, ur, ke, j + 1, i + 1);
      });
  const double f2 = acc::parallel_reduce(
      acc::collapse(ke - kb, ie - ib), acc::default_present, acc::plus,
      ACC_LAMBDA(int k1, int i1) -> double {
        const int k = kb + k1, i = ib + i1;
        return pressure(g, ur, k, jb, i) + pressure(g, ur, k, jb, i + 1) + pressure(g, ur, k + 1, jb, i) +
               pressure(g, ur, k + 1, jb, i + 1) + pressure(g, ur, k, je, i) + pressure(g, ur, k, je, i + 1) +
               pressure(g, ur, k + 1, je, i) + pressure(g, ur, k + 1, je, i + 1);
      });
  const double f3 = acc::parallel_reduce(
      acc::collapse(ke - kb, je - jb), acc::default_present, acc::plus,
      ACC_LAMBDA(int k1, int j1) -> double {
        const int k = kb + k1, j = jb + j1;
        return pressure(g, ur, k, j, ib) + pressure(g, ur, k, j + 1, ib) + pressure(g, ur, k + 1, j, ib) +
               pressure(g, ur, k + 1, j + 1, ib) + pressure(g, ur, k, j, ie) + pressure(g, ur, k, j + 1, ie) +
               pressure(g, ur, k + 1, j, ie) + pressure(g, ur, k + 1, j + 1, ie);
      });
  return 0.25 * (g.dxi * g.deta * f1 + g.dxi * g.dzeta * f2 + g.deta * g.dzeta * f3);
}

// --- The SSOR iteration --------------------------------------------------------------------------

struct lu_fields {
  acc::array<double> u, rsd, frct, rho_i, qs;
  sweep_marks sync;  // the host sweeps' pipeline
};

/// Seconds per phase of the time steps when asked for (NPB's timer.flag): each phase then ends
/// with a wait, which costs the GPU its overlap of launches with work, so the total grows.
struct phase_times {
  enum { lower, upper, update, residual, norms, count };
  bool on = false;
  double seconds[count] = {};
  std::chrono::steady_clock::time_point last;

  void start() { last = std::chrono::steady_clock::now(); }
  void end(int phase, int queue) {
    if (!on) return;
    acc::wait(queue);
    const auto now = std::chrono::steady_clock::now();
    seconds[phase] += std::chrono::duration<double>(now - last).count();
    last = now;
  }
};

/// NPB's ssor(niter): the residual, then niter steps of: rsd *= dt, lower sweep, upper sweep,
/// u += rsd / (omega (2 - omega)), new residual. Returns the residual's RMS norms after the
/// last step (NPB computes them only then: inorm = itmax) and the seconds the steps took.
double ssor(const lu_grid& g, lu_fields& f, int niter, double rsdnm[5], phase_times& phases) {
  constexpr int queue = 1;
  const acc::array<double>&u = f.u, &rsd = f.rsd, &rho_i = f.rho_i, &qs = f.qs;
  const double dt = g.dt, scale = 1.0 / (omega * (2.0 - omega));
  prepare(g, queue, u, rho_i, qs, rsd, f.frct);
  residual(g, queue, u, rho_i, qs, rsd);
  acc::wait(queue);
  l2norm(g, rsd, rsdnm);

  const auto start = std::chrono::steady_clock::now();
  phases.start();
  // On the host the lower sweep scales rsd by dt as it reads each point, and the update is
  // fused with the next residual's first pass (update_and_prepare): two passes over the
  // fields fewer per step; the update's time then counts in the residual's.
  const bool host = acc::get_device_type() == acc::device_type::host;
  for (int step = 1; step <= niter; ++step) {
    if (!host)
      acc::parallel_loop(interior(g), acc::async(queue), acc::default_present, ACC_LAMBDA(int k1, int j1, int i1) {
        const int p = g.point(k1 + 1, j1 + 1, i1 + 1);
        for (int m = 0; m < 5; ++m) rsd[g.at(p, m)] = dt * rsd[g.at(p, m)];
      });
    lower_sweep(g, queue, u, rho_i, qs, rsd, f.sync);
    phases.end(phase_times::lower, queue);
    upper_sweep(g, queue, u, rho_i, qs, rsd, f.sync);
    phases.end(phase_times::upper, queue);
    if (host) {
      phases.end(phase_times::update, queue);
      update_and_prepare(g, queue, scale, u, rho_i, qs, rsd, f.frct);
    } else {
      acc::parallel_loop(interior(g), acc::async(queue), acc::default_present, ACC_LAMBDA(int k1, int j1, int i1) {
        const int p = g.point(k1 + 1, j1 + 1, i1 + 1);
        for (int m = 0; m < 5; ++m) u[g.at(p, m)] = u[g.at(p, m)] + scale * rsd[g.at(p, m)];
      });
      phases.end(phase_times::update, queue);
      prepare(g, queue, u, rho_i, qs, rsd, f.frct);
    }
    residual(g, queue, u, rho_i, qs, rsd);
    phases.end(phase_times::residual, queue);
  }
  acc::wait(queue);
  l2norm(g, rsd, rsdnm);
  phases.end(phase_times::norms, queue);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

const lu_class* find_class(const char* arg) {
  for (const lu_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

/// Prints computed against reference values with their relative difference; true when all are
/// within epsilon (NPB's verify).
bool compare(const char* what, const double* x, const double* ref, int count) {
  bool ok = true;
  std::printf("  %s\n", what);
  for (int m = 0; m < count; ++m) {
    const double diff = std::fabs((x[m] - ref[m]) / ref[m]);
    const bool good = diff <= epsilon;  // a NaN fails
    ok = ok && good;
    std::printf("    %s %d  %20.13e %20.13e %10.3e\n", good ? "  " : "X ", m + 1, x[m], ref[m], diff);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) try {
  const lu_class* cls = find_class(argc > 1 ? argv[1] : "S");
  phase_times phases;
  phases.on = argc > 2 && std::string_view(argv[2]) == "timers";
  if (!cls || argc > 3 || (argc == 3 && !phases.on)) {
    std::fprintf(stderr, "usage: %s [S|W|A|B|C] [timers]\n", argv[0]);
    return 2;
  }
  const int n = cls->n;
  const lu_grid g = make_grid(n, cls->dt);
  const std::size_t points = std::size_t(g.points());
  lu_fields f{acc::array<double>("u", 5 * points), acc::array<double>("rsd", 5 * points),
              acc::array<double>("frct", 5 * points), acc::array<double>("rho_i", points),
              acc::array<double>("qs", points), sweep_marks(n - 2)};
  acc::data region{acc::create(f.u),     acc::create(f.rsd), acc::create(f.frct),
                   acc::create(f.rho_i), acc::create(f.qs),  acc::create(f.sync.marks)};
  const acc::view<int> marks = f.sync.marks;
  acc::parallel_loop(f.sync.marks.size(), acc::default_present, ACC_LAMBDA(std::size_t s) { marks[s] = 0; });

  set_boundary(g, f.u);
  set_interior(g, f.u);
  forcing(g, f.frct, f.rsd, f.rho_i, f.qs);
  // NPB runs one untimed step to touch every page (here also: load the kernels), then restarts.
  double rsdnm[5];
  phase_times untimed;
  ssor(g, f, 1, rsdnm, untimed);
  set_boundary(g, f.u);
  set_interior(g, f.u);

  std::printf("NPB LU class %c: %d x %d x %d, %d iterations, dt = %g, omega = %g\n", cls->name, n, n, n, cls->itmax,
              cls->dt, omega);
  const double seconds = ssor(g, f, cls->itmax, rsdnm, phases);
  double errnm[5];
  solution_error(g, f.u, errnm);
  const double frc = surface_integral(g, f.u);

  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("  on %s; computed, NPB reference, relative difference (at most %.0e):\n", gpu ? "nvidia" : "host",
              epsilon);
  bool ok = compare("RMS norms of the residual", rsdnm, cls->xcr, 5);
  ok = compare("RMS norms of the solution error", errnm, cls->xce, 5) && ok;
  ok = compare("surface integral", &frc, &cls->xci, 1) && ok;
  // NPB's operation count for LU (lu.f): per step 1984.77 nx ny nz - 10923.3 m^2 + 27770.9 m - 144010,
  // m the mean of nx, ny, nz (all n here).
  const double nd = n;
  const double mops =
      double(cls->itmax) * (1984.77 * nd * nd * nd - 10923.3 * nd * nd + 27770.9 * nd - 144010.0) / (seconds * 1e6);
  if (phases.on) {
    const double* t = phases.seconds;
    std::printf("  phases (each followed by a wait): lower sweep %.4f s, upper sweep %.4f s, update %.4f s, "
                "residual %.4f s, norms %.4f s\n",
                t[phase_times::lower], t[phase_times::upper], t[phase_times::update], t[phase_times::residual],
                t[phase_times::norms]);
  }
  std::printf("  time = %.4f s, Mop/s = %.2f\n  verification %s\n", seconds, mops, ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "lu: %s\n", e.what());
  return 1;
}
