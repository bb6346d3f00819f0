// NPB MG (MultiGrid), after the NAS Parallel Benchmarks 3.x OpenMP/OpenACC versions: V-cycle
// multigrid for the discrete Poisson problem  laplacian(u) = v  on a periodic cube, where v is
// zero except for +1 at the ten largest and -1 at the ten smallest of a field of NPB random
// numbers. Each iteration is one V-cycle (mg3P) and a residual; the L2 norm of the final
// residual is checked against NPB's published value.
//   mg [S|W|A|B|C] [simple]   (default S; "simple" runs comm3 as three constructs, for comparison)
// Written for acc from the NPB 3.4 specification of MG (NAS technical reports RNR-94-007 and
// NAS-95-020), reading GMAP/NPB-CPP's serial MG (NPB-SER/MG/mg.cpp) to follow the operators'
// order of evaluation; class parameters, the smoother coefficients and the verification values
// are NPB's. The right-hand side is generated on the host, untimed, as in NPB; the timed part
// runs on the device, inside one data region.
// Where constructs run on the host, every operator takes a host form (the *_rows functions:
// NPB-OMP's mapping, a gang per i3 plane, per-row column sums in line buffers, comm3 done plane
// by plane in the same construct) instead of the GPU's one point per iteration, and levels under
// 32 points a side run on one gang (see "Host forms" below); "simple" then only changes the
// comm3 of v at the start.
#include <acc/parallel.hpp>

#include "../common/npb_random.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <vector>

namespace {

// --- MG's parameters (NPB 3.4 MG: mg.f / npbparams.h; GMAP/NPB-CPP MG/mg.cpp) -----------------
constexpr double seed = 314159265.0;
constexpr double multiplier = 1220703125.0;  // 5^13
constexpr int charges = 10;                  // NPB's MM: +1 at ten points, -1 at ten others

struct mg_class {
  char name;
  int log2_n;    // the finest grid is 2^log2_n points per side (NPB's LT)
  int nit;       // V-cycles
  bool smoother_b;  // NPB's S(b) smoother coefficients (classes B and up), else S(a)
  double rnm2;   // NPB 3.4 verification value: L2 norm of the final residual
};
constexpr mg_class classes[] = {
    {'S', 5, 4, false, 0.5307707005734e-04},
    {'W', 7, 4, false, 0.6467329375339e-05},
    {'A', 8, 4, false, 0.2433365309069e-05},
    {'B', 8, 20, true, 0.1800564401355e-05},
    {'C', 9, 20, true, 0.5706732285740e-06},
};
constexpr double epsilon = 1e-8;  // NPB's verification tolerance (relative)

/// The 27-point operators' coefficients by distance class: centre, faces, edges, corners.
struct stencil {
  double c[4];
};
// NPB's discrete Laplacian A; c[1] (faces) is zero and resid leaves that term out, as NPB does.
constexpr stencil laplacian{{-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0}};
// NPB's smoothers S(a) and S(b); c[3] (corners) is zero and psinv leaves that term out.
constexpr stencil smoother_a{{-3.0 / 8.0, +1.0 / 32.0, -1.0 / 64.0, 0.0}};
constexpr stencil smoother_b{{-3.0 / 17.0, +1.0 / 33.0, -1.0 / 61.0, 0.0}};

// Every construct goes to one queue, which keeps them in order: a V-cycle is some 13 kernels per
// level, most of them on coarse grids that take microseconds, and a synchronous construct would
// add a wait for each. The host backend runs them in order anyway.
constexpr int queue = 1;

// "mg X simple" runs comm3 as NPB's three loop nests (comm3_by_axis) instead of one construct.
bool simple_comm3 = false;

using grid = acc::view<double, 3>;        // (i3, i2, i1), i1 contiguous, one ghost layer each side
using cgrid = acc::view<const double, 3>;

// --- The operators. Each loop nest is one construct, as an OpenACC port of NPB has it; grids have
// 2^k + 2 points per side (interior 1..2^k), so NPB's branches for 3-point grids never arise.
// Loops over the interior run k = 0..n-3 and index i = k + 1.

/// comm3: periodic boundaries, the ghost layers copied from the opposite interior faces, one
/// axis after the other (the later axes carry the earlier axes' ghosts into edges and corners):
/// NPB's three loop nests, one construct each. Kept for comparison with comm3 (MG_SIMPLE_COMM3).
void comm3_by_axis(const grid& u) {
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1)), n1 = static_cast<int>(u.extent(2));
  acc::parallel_loop(acc::collapse(n3 - 2, n2 - 2), acc::async(queue),
                     acc::default_present, ACC_LAMBDA(int k3, int k2) {
                       const int i3 = k3 + 1, i2 = k2 + 1;
                       u(i3, i2, 0) = u(i3, i2, n1 - 2);
                       u(i3, i2, n1 - 1) = u(i3, i2, 1);
                     });
  acc::parallel_loop(acc::collapse(n3 - 2, n1), acc::async(queue), acc::default_present,
                     ACC_LAMBDA(int k3, int i1) {
                       const int i3 = k3 + 1;
                       u(i3, 0, i1) = u(i3, n2 - 2, i1);
                       u(i3, n2 - 1, i1) = u(i3, 1, i1);
                     });
  acc::parallel_loop(acc::collapse(n2, n1), acc::async(queue), acc::default_present, ACC_LAMBDA(int i2, int i1) {
    u(0, i2, i1) = u(n3 - 2, i2, i1);
    u(n3 - 1, i2, i1) = u(1, i2, i1);
  });
}

/// The interior index a ghost index stands for on a periodic axis of n points (interior ones
/// map to themselves).
ACC_ROUTINE inline int periodic(int i, int n) { return i == 0 ? n - 2 : i == n - 1 ? 1 : i; }

// The host forms, under "Host forms" below.
bool host_rows();
void comm3_rows(const grid& u);
void zero3_rows(const grid& u);

/// comm3 in one construct: the three passes above leave every ghost point holding the interior
/// point it stands for on each axis at once, so each face's ghosts (edges and corners included)
/// are read straight from the interior. Points on edges and corners belong to two or three faces
/// and are written with the same value by each. On the coarse levels, where MG is launch-bound,
/// this is one launch instead of three.
void comm3(const grid& u) {
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1)), n1 = static_cast<int>(u.extent(2));
  if (simple_comm3) {
    comm3_by_axis(u);
    return;
  }
  if (host_rows()) {
    comm3_rows(u);
    return;
  }
  const int m = n3 > n2 ? (n3 > n1 ? n3 : n1) : (n2 > n1 ? n2 : n1);
  acc::parallel_loop(acc::collapse(3, m, m), acc::async(queue), acc::default_present, ACC_LAMBDA(int face, int p, int q) {
    if (face == 0) {  // i1 ghosts: p = i3, q = i2
      if (p >= n3 || q >= n2) return;
      const int s3 = periodic(p, n3), s2 = periodic(q, n2);
      u(p, q, 0) = u(s3, s2, n1 - 2);
      u(p, q, n1 - 1) = u(s3, s2, 1);
    } else if (face == 1) {  // i2 ghosts: p = i3, q = i1
      if (p >= n3 || q >= n1) return;
      const int s3 = periodic(p, n3), s1 = periodic(q, n1);
      u(p, 0, q) = u(s3, n2 - 2, s1);
      u(p, n2 - 1, q) = u(s3, 1, s1);
    } else {  // i3 ghosts: p = i2, q = i1
      if (p >= n2 || q >= n1) return;
      const int s2 = periodic(p, n2), s1 = periodic(q, n1);
      u(0, p, q) = u(n3 - 2, s2, s1);
      u(n3 - 1, p, q) = u(1, s2, s1);
    }
  });
}

/// zero3: u = 0, ghosts included.
void zero3(const grid& u) {
  if (host_rows()) {
    zero3_rows(u);
    return;
  }
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1)), n1 = static_cast<int>(u.extent(2));
  acc::parallel_loop(acc::collapse(n3, n2, n1), acc::async(queue), acc::default_present,
                     ACC_LAMBDA(int i3, int i2, int i1) { u(i3, i2, i1) = 0.0; });
}

/// Sum of the four neighbours of (i3, i2, i1) across faces in the i2-i3 plane.
ACC_ROUTINE inline double faces23(const cgrid& u, int i3, int i2, int i1) {
  return u(i3, i2 - 1, i1) + u(i3, i2 + 1, i1) + u(i3 - 1, i2, i1) + u(i3 + 1, i2, i1);
}
/// Sum of the four diagonal neighbours of (i3, i2, i1) in the i2-i3 plane.
ACC_ROUTINE inline double edges23(const cgrid& u, int i3, int i2, int i1) {
  return u(i3 - 1, i2 - 1, i1) + u(i3 - 1, i2 + 1, i1) + u(i3 + 1, i2 - 1, i1) + u(i3 + 1, i2 + 1, i1);
}

// --- Host forms. The GPU forms below give each grid point its own iteration; a CPU core does
// better with NPB-OMP's mapping, which these follow: a gang per i3 plane (NPB's omp for over
// i3), rows of a plane one after the other, i1 contiguous and vectorised through plain pointers.
// resid and psinv compute each row's column sums (faces23, edges23) once into gang memory, as
// NPB's line buffers u1/u2 and r1/r2, where the GPU form computes them three times per point;
// rprj3 and interp do the same with their own sums. Each gang ends its plane with that plane's
// part of comm3 (comm3_plane), so resid, psinv and rprj3 need no comm3 construct after them. On
// levels under host_parallel_side points a side, a whole level is a few microseconds of work,
// less than starting the other threads for it: there the construct has one gang (which starts
// no threads). The choice is host_rows.
// OpenACC: #pragma acc parallel loop gang num_gangs(planes, or 1 on a small level) over the i3
// planes, each plane's rows and their i1 loops sequential inside its gang.

/// Whether the operators take their host forms.
bool host_rows() { return acc::get_device_type() != acc::device_type::nvidia; }

/// Levels with fewer interior points a side run on one gang on the host (level 5 has 32).
constexpr int host_parallel_side = 32;
/// Whether a level whose grid has n points a side (ghosts included) runs on one gang.
bool host_alone(int n) { return n - 2 < host_parallel_side; }

/// Row (i3, i2) of g in host memory: the row forms index contiguous rows through plain
/// pointers, as NPB's arrays are indexed, so their loops vectorise. Host memory: the row forms
/// run only where constructs run on the host (host_rows).
template <class T>
ACC_ROUTINE inline T* host_row(const acc::view<T, 3>& g, int i3, int i2) {
  return g.data() + (std::size_t(i3) * g.extent(1) + std::size_t(i2)) * g.extent(2);
}

// The row loops below (noinline) are functions of their own, not inlined into the constructs'
// bodies: inlined, GCC 12 runs short of registers there and reloads row pointers from the stack
// inside the loops (resid and psinv about 10% slower on one core).

/// n values from s to d.
ACC_ROUTINE inline void copy_values(double* __restrict d, const double* __restrict s, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
}

/// comm3's part for interior plane i3 of u, NPB's three passes restricted to what that plane
/// holds or stands for: its i1 ghosts, then its i2 ghost rows (their i1 ghosts included), then,
/// for planes n3 - 2 and 1, the whole plane into the i3 ghost plane that stands for it. It reads
/// plane i3 only, so a gang runs it right after writing that plane, with no wait for the other
/// gangs: the host forms end each plane with it and need no comm3 construct of their own.
ACC_ROUTINE inline void comm3_plane(const grid& u, int i3) {
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1)), n1 = static_cast<int>(u.extent(2));
  for (int i2 = 1; i2 < n2 - 1; ++i2) {
    double* const d = host_row(u, i3, i2);
    d[0] = d[n1 - 2];
    d[n1 - 1] = d[1];
  }
  copy_values(host_row(u, i3, 0), host_row(u, i3, n2 - 2), std::size_t(n1));
  copy_values(host_row(u, i3, n2 - 1), host_row(u, i3, 1), std::size_t(n1));
  const std::size_t plane = std::size_t(n2) * n1;
  if (i3 == n3 - 2) copy_values(host_row(u, 0, 0), host_row(u, i3, 0), plane);
  if (i3 == 1) copy_values(host_row(u, n3 - 1, 0), host_row(u, i3, 0), plane);
}

/// comm3's host form, for a grid no operator has just written (v at the start).
void comm3_rows(const grid& u) {
  const int planes = static_cast<int>(u.extent(0)) - 2;
  acc::parallel(acc::num_gangs(host_alone(static_cast<int>(u.extent(2))) ? 1 : planes), acc::async(queue),
                acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
                  acc::loop(g, acc::gang, planes, [&](int k3) { comm3_plane(u, k3 + 1); });
                });
}

void zero3_rows(const grid& u) {
  const int n3 = static_cast<int>(u.extent(0));
  const std::size_t plane = u.extent(1) * u.extent(2);
  acc::parallel(acc::num_gangs(host_alone(static_cast<int>(u.extent(2))) ? 1 : n3), acc::async(queue),
                acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
                  acc::loop(g, acc::gang, n3, [&](int i3) {
                    double* const p = host_row(u, i3, 0);
                    for (std::size_t i = 0; i < plane; ++i) p[i] = 0.0;
                  });
                });
}

/// faces23 and edges23 of row (i3, i2) of g at every column, into f and e.
[[gnu::noinline]] ACC_ROUTINE void column_sums(const cgrid& g, int i3, int i2, int n1, double* __restrict f,
                                               double* __restrict e) {
  const double *a = host_row(g, i3, i2 - 1), *b = host_row(g, i3, i2 + 1), *c = host_row(g, i3 - 1, i2),
               *d = host_row(g, i3 + 1, i2);
  const double *p = host_row(g, i3 - 1, i2 - 1), *q = host_row(g, i3 - 1, i2 + 1), *s = host_row(g, i3 + 1, i2 - 1),
               *t = host_row(g, i3 + 1, i2 + 1);
  // f and e are restrict: without, this loop needs more run-time overlap checks than GCC
  // makes, and does not vectorise.
  for (int i1 = 0; i1 < n1; ++i1) {
    f[i1] = a[i1] + b[i1] + c[i1] + d[i1];
    e[i1] = p[i1] + q[i1] + s[i1] + t[i1];
  }
}

/// One row of resid from its column sums: r = v - A u at columns 1..n1-2. u and the sums are
/// restrict, so the loop vectorises without run-time overlap checks against r; v may be r
/// itself (each point reads v only where it writes r), so neither of those two is.
[[gnu::noinline]] ACC_ROUTINE void resid_row(int n1, double c0, double c2, double c3, const double* __restrict u,
                                             const double* v, const double* __restrict f,
                                             const double* __restrict e, double* r) {
  for (int i1 = 1; i1 < n1 - 1; ++i1)
    r[i1] = v[i1] - c0 * u[i1] - c2 * (e[i1] + f[i1 - 1] + f[i1 + 1]) - c3 * (e[i1 - 1] + e[i1 + 1]);
}

/// One row of psinv from its column sums: u = u + S r at columns 1..n1-2.
[[gnu::noinline]] ACC_ROUTINE void psinv_row(int n1, double c0, double c1, double c2, const double* __restrict r,
                                             const double* __restrict f, const double* __restrict e, double* u) {
  for (int i1 = 1; i1 < n1 - 1; ++i1)
    u[i1] = u[i1] + c0 * r[i1] + c1 * (r[i1 - 1] + r[i1 + 1] + f[i1]) + c2 * (e[i1] + f[i1 - 1] + f[i1 + 1]);
}

/// resid's host form, comm3(r) included.
void resid_rows(const cgrid& u, const cgrid& v, const grid& r, const stencil& a) {
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1)), n1 = static_cast<int>(u.extent(2));
  const int planes = n3 - 2;
  acc::parallel(acc::num_gangs(host_alone(n1) ? 1 : planes), acc::shared_bytes(2 * sizeof(double) * n1),
                acc::async(queue), acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
    double* const f = g.shared<double>(2 * std::size_t(n1)).data();
    double* const e = f + n1;
    acc::loop(g, acc::gang, planes, [&](int k3) {
      const int i3 = k3 + 1;
      for (int i2 = 1; i2 < n2 - 1; ++i2) {
        column_sums(u, i3, i2, n1, f, e);
        resid_row(n1, a.c[0], a.c[2], a.c[3], host_row(u, i3, i2), host_row(v, i3, i2), f, e, host_row(r, i3, i2));
      }
      comm3_plane(r, i3);
    });
  });
}

/// psinv's host form, comm3(u) included.
void psinv_rows(const cgrid& r, const grid& u, const stencil& c) {
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1)), n1 = static_cast<int>(u.extent(2));
  const int planes = n3 - 2;
  acc::parallel(acc::num_gangs(host_alone(n1) ? 1 : planes), acc::shared_bytes(2 * sizeof(double) * n1),
                acc::async(queue), acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
    double* const f = g.shared<double>(2 * std::size_t(n1)).data();
    double* const e = f + n1;
    acc::loop(g, acc::gang, planes, [&](int k3) {
      const int i3 = k3 + 1;
      for (int i2 = 1; i2 < n2 - 1; ++i2) {
        column_sums(r, i3, i2, n1, f, e);
        psinv_row(n1, c.c[0], c.c[1], c.c[2], host_row(r, i3, i2), f, e, host_row(u, i3, i2));
      }
      comm3_plane(u, i3);
    });
  });
}

/// One coarse row of rprj3 from fine rows: the fine rows' column sums (NPB's x1, y1; see
/// plane_faces and plane_corners) once per fine column into x and y, then the full weighting
/// of each coarse point, the same sums in the same order as rprj3's GPU form.
[[gnu::noinline]] ACC_ROUTINE void rprj3_row(const cgrid& r, int i3, int i2, int m1, double* __restrict x,
                                             double* __restrict y, double* __restrict s) {
  const int n1 = static_cast<int>(r.extent(2));
  const double *fa = host_row(r, i3 + 1, i2), *fb = host_row(r, i3 + 1, i2 + 2), *fc = host_row(r, i3, i2 + 1),
               *fd = host_row(r, i3 + 2, i2 + 1);
  const double *ca = host_row(r, i3, i2), *cb = host_row(r, i3 + 2, i2), *cc = host_row(r, i3, i2 + 2),
               *cd = host_row(r, i3 + 2, i2 + 2);
  for (int i = 0; i < n1; ++i) {
    x[i] = fa[i] + fb[i] + fc[i] + fd[i];
    y[i] = ca[i] + cb[i] + cc[i] + cd[i];
  }
  const double* const c = host_row(r, i3 + 1, i2 + 1);
  for (int j1 = 1; j1 < m1 - 1; ++j1) {
    const int i1 = 2 * j1 - 1;
    s[j1] = 0.5 * c[i1 + 1] + 0.25 * (c[i1] + c[i1 + 2] + x[i1 + 1]) + 0.125 * (x[i1] + x[i1 + 2] + y[i1 + 1]) +
            0.0625 * (y[i1] + y[i1 + 2]);
  }
}

/// rprj3's host form, comm3(s) included.
void rprj3_rows(const cgrid& r, const grid& s) {
  const int m3 = static_cast<int>(s.extent(0)), m2 = static_cast<int>(s.extent(1)), m1 = static_cast<int>(s.extent(2));
  const int n1 = static_cast<int>(r.extent(2));
  const int planes = m3 - 2;
  acc::parallel(acc::num_gangs(host_alone(m1) ? 1 : planes), acc::shared_bytes(2 * sizeof(double) * n1),
                acc::async(queue), acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
    double* const x = g.shared<double>(2 * std::size_t(n1)).data();
    double* const y = x + n1;
    acc::loop(g, acc::gang, planes, [&](int k3) {
      const int j3 = k3 + 1;
      for (int j2 = 1; j2 < m2 - 1; ++j2) rprj3_row(r, 2 * j3 - 1, 2 * j2 - 1, m1, x, y, host_row(s, j3, j2));
      comm3_plane(s, j3);
    });
  });
}

/// resid: r = v - A u on the interior, then comm3(r). In the V-cycle v and r are the same
/// grid; each point reads v only where it writes r, so that is safe.
void resid(const cgrid& u, const cgrid& v, const grid& r, const stencil& a) {
  if (host_rows()) {
    resid_rows(u, v, r, a);
    return;
  }
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1)), n1 = static_cast<int>(u.extent(2));
  acc::parallel_loop(acc::collapse(n3 - 2, n2 - 2, n1 - 2),
                     acc::async(queue), acc::default_present, ACC_LAMBDA(int k3, int k2, int k1) {
                       const int i3 = k3 + 1, i2 = k2 + 1, i1 = k1 + 1;
                       // NPB's terms: u1 = faces23 and u2 = edges23 at columns i1 - 1, i1, i1 + 1.
                       r(i3, i2, i1) = v(i3, i2, i1) - a.c[0] * u(i3, i2, i1) -
                                       a.c[2] * (edges23(u, i3, i2, i1) + faces23(u, i3, i2, i1 - 1) +
                                                 faces23(u, i3, i2, i1 + 1)) -
                                       a.c[3] * (edges23(u, i3, i2, i1 - 1) + edges23(u, i3, i2, i1 + 1));
                     });
  comm3(r);
}

/// psinv: the smoother u = u + S r on the interior, then comm3(u).
void psinv(const cgrid& r, const grid& u, const stencil& c) {
  if (host_rows()) {
    psinv_rows(r, u, c);
    return;
  }
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1)), n1 = static_cast<int>(u.extent(2));
  acc::parallel_loop(acc::collapse(n3 - 2, n2 - 2, n1 - 2),
                     acc::async(queue), acc::default_present, ACC_LAMBDA(int k3, int k2, int k1) {
                       const int i3 = k3 + 1, i2 = k2 + 1, i1 = k1 + 1;
                       u(i3, i2, i1) = u(i3, i2, i1) + c.c[0] * r(i3, i2, i1) +
                                       c.c[1] * (r(i3, i2, i1 - 1) + r(i3, i2, i1 + 1) + faces23(r, i3, i2, i1)) +
                                       c.c[2] * (edges23(r, i3, i2, i1) + faces23(r, i3, i2, i1 - 1) +
                                                 faces23(r, i3, i2, i1 + 1));
                     });
  comm3(u);
}

/// rprj3's column sums at fine column i around the fine point (i3 + 1, i2 + 1): faces in the
/// i2-i3 plane (NPB's x1) and corners of that plane (NPB's y1).
ACC_ROUTINE inline double plane_faces(const cgrid& r, int i3, int i2, int i) {
  return r(i3 + 1, i2, i) + r(i3 + 1, i2 + 2, i) + r(i3, i2 + 1, i) + r(i3 + 2, i2 + 1, i);
}
ACC_ROUTINE inline double plane_corners(const cgrid& r, int i3, int i2, int i) {
  return r(i3, i2, i) + r(i3 + 2, i2, i) + r(i3, i2 + 2, i) + r(i3 + 2, i2 + 2, i);
}

/// rprj3: restriction s = P r by full weighting of the 27 fine points around each coarse
/// point (fine point 2j - 1 under coarse point j), then comm3(s).
void rprj3(const cgrid& r, const grid& s) {
  if (host_rows()) {
    rprj3_rows(r, s);
    return;
  }
  const int m3 = static_cast<int>(s.extent(0)), m2 = static_cast<int>(s.extent(1)), m1 = static_cast<int>(s.extent(2));
  acc::parallel_loop(acc::collapse(m3 - 2, m2 - 2, m1 - 2),
                     acc::async(queue), acc::default_present, ACC_LAMBDA(int k3, int k2, int k1) {
                       const int j3 = k3 + 1, j2 = k2 + 1, j1 = k1 + 1;
                       const int i3 = 2 * j3 - 1, i2 = 2 * j2 - 1, i1 = 2 * j1 - 1;
                       s(j3, j2, j1) = 0.5 * r(i3 + 1, i2 + 1, i1 + 1) +
                                       0.25 * (r(i3 + 1, i2 + 1, i1) + r(i3 + 1, i2 + 1, i1 + 2) +
                                               plane_faces(r, i3, i2, i1 + 1)) +
                                       0.125 * (plane_faces(r, i3, i2, i1) + plane_faces(r, i3, i2, i1 + 2) +
                                                plane_corners(r, i3, i2, i1 + 1)) +
                                       0.0625 * (plane_corners(r, i3, i2, i1) + plane_corners(r, i3, i2, i1 + 2));
                     });
  comm3(s);
}

/// The coarse values interp combines along i1 for a fine row whose i3 and i2 are odd or even:
/// the coarse point itself, or NPB's sums z1 (odd i2), z2 (odd i3), z3 (both odd).
ACC_ROUTINE inline double coarse_row(const cgrid& z, int i3, int i2, int i1, bool odd3, bool odd2) {
  if (!odd3 && !odd2) return z(i3, i2, i1);
  const double z1 = z(i3, i2 + 1, i1) + z(i3, i2, i1);
  if (!odd3) return z1;
  if (!odd2) return z(i3 + 1, i2, i1) + z(i3, i2, i1);
  return z(i3 + 1, i2 + 1, i1) + z(i3 + 1, i2, i1) + z1;
}

/// One fine row of interp from the coarse values c it combines (the coarse row itself, or one
/// of NPB's sums z1, z2, z3) at weight w: u[2 i1] = w c[i1], u[2 i1 + 1] = w/2 (c[i1] + c[i1 + 1]),
/// added to u's values with `accumulate`.
ACC_ROUTINE inline void interp_fine_row(double* __restrict uf, const double* __restrict c, int mm1, double w,
                                        bool accumulate) {
  const double h = 0.5 * w;
  if (accumulate) {
    for (int i1 = 0; i1 < mm1 - 1; ++i1) {
      uf[2 * i1] += w * c[i1];
      uf[2 * i1 + 1] += h * (c[i1] + c[i1 + 1]);
    }
  } else {
    for (int i1 = 0; i1 < mm1 - 1; ++i1) {
      uf[2 * i1] = w * c[i1];
      uf[2 * i1 + 1] = h * (c[i1] + c[i1 + 1]);
    }
  }
}

/// The four fine rows (2 i3 + 0 or 1, 2 i2 + 0 or 1) over coarse row (i3, i2), as NPB-OMP's interp
/// takes them: the coarse sums z1 (odd fine i2), z2 (odd fine i3) and z3 (both odd) once per
/// coarse column into line buffers, then each fine row, where the GPU form sums them twice per
/// fine pair. The sums are coarse_row's, in its order.
[[gnu::noinline]] ACC_ROUTINE void interp_quad(const cgrid& z, const grid& u, int i3, int i2, bool accumulate,
                                               double* __restrict z1, double* __restrict z2, double* __restrict z3) {
  const int mm1 = static_cast<int>(z.extent(2));
  const double *const z00 = host_row(z, i3, i2), *const z01 = host_row(z, i3, i2 + 1),
               *const z10 = host_row(z, i3 + 1, i2), *const z11 = host_row(z, i3 + 1, i2 + 1);
  for (int i1 = 0; i1 < mm1; ++i1) {
    z1[i1] = z01[i1] + z00[i1];
    z2[i1] = z10[i1] + z00[i1];
    z3[i1] = z11[i1] + z10[i1] + z1[i1];
  }
  interp_fine_row(host_row(u, 2 * i3, 2 * i2), z00, mm1, 1.0, accumulate);
  interp_fine_row(host_row(u, 2 * i3, 2 * i2 + 1), z1, mm1, 0.5, accumulate);
  interp_fine_row(host_row(u, 2 * i3 + 1, 2 * i2), z2, mm1, 0.5, accumulate);
  interp_fine_row(host_row(u, 2 * i3 + 1, 2 * i2 + 1), z3, mm1, 0.25, accumulate);
}

/// interp's host form: a gang per coarse plane i3, which writes the fine planes 2 i3 and 2 i3 + 1
/// (all of them, ghosts included, over the coarse planes 0..mm3-2; interp needs no comm3).
void interp_rows(const cgrid& z, const grid& u, bool accumulate) {
  const int mm3 = static_cast<int>(z.extent(0)), mm2 = static_cast<int>(z.extent(1)),
            mm1 = static_cast<int>(z.extent(2));
  const int planes = mm3 - 1;
  acc::parallel(acc::num_gangs(host_alone(static_cast<int>(u.extent(2))) ? 1 : planes),
                acc::shared_bytes(3 * sizeof(double) * mm1), acc::async(queue), acc::default_present,
                ACC_LAMBDA(const acc::gang_t& g) {
    double* const z1 = g.shared<double>(3 * std::size_t(mm1)).data();
    acc::loop(g, acc::gang, planes, [&](int i3) {
      for (int i2 = 0; i2 < mm2 - 1; ++i2) interp_quad(z, u, i3, i2, accumulate, z1, z1 + mm1, z1 + 2 * mm1);
    });
  });
}

/// interp: prolongation u = u + Q z by trilinear interpolation (fine point 2i under coarse
/// point i), over every fine point ghosts included. With `accumulate` false it writes u = Q z,
/// which is NPB's zero3 followed by interp in one pass, bit for bit.
/// One iteration per fine row and coarse column, writing the fine pair (2 i1, 2 i1 + 1) as
/// NPB's inner loops do, so neighbouring iterations write neighbouring memory.
void interp(const cgrid& z, const grid& u, bool accumulate) {
  if (host_rows()) {
    interp_rows(z, u, accumulate);
    return;
  }
  const int n3 = static_cast<int>(u.extent(0)), n2 = static_cast<int>(u.extent(1));
  const int mm1 = static_cast<int>(z.extent(2));
  acc::parallel_loop(acc::collapse(n3, n2, mm1 - 1), acc::async(queue), acc::default_present,
                     ACC_LAMBDA(int f3, int f2, int i1) {
                       const bool odd3 = f3 & 1, odd2 = f2 & 1;
                       const int i3 = f3 / 2, i2 = f2 / 2;
                       // 1, 1/2 or 1/4 at the coarse column; half that between two columns.
                       const double w = odd3 ? (odd2 ? 0.25 : 0.5) : (odd2 ? 0.5 : 1.0);
                       const double z0 = coarse_row(z, i3, i2, i1, odd3, odd2);
                       const double zn = coarse_row(z, i3, i2, i1 + 1, odd3, odd2);
                       const double even = w * z0, odd = (0.5 * w) * (z0 + zn);
                       double& ue = u(f3, f2, 2 * i1);
                       double& uo = u(f3, f2, 2 * i1 + 1);
                       ue = accumulate ? ue + even : even;
                       uo = accumulate ? uo + odd : odd;
                     });
}

/// norm2u3: the L2 norm sqrt(sum r^2 / points) and the maximum norm over the interior.
struct norms {
  double l2, max;
};

/// norm2u3's host form: a gang per plane, which sums each row's squares and takes its maximum in
/// locals (registers) and adds them to the gang's reduction values once per row. The GPU form
/// below has one point per iteration; on the host its reduction values stay in memory.
void norm2u3_rows(const cgrid& r, double& sum, double& max) {
  const int n3 = static_cast<int>(r.extent(0)), n2 = static_cast<int>(r.extent(1)), n1 = static_cast<int>(r.extent(2));
  const int planes = n3 - 2;
  acc::parallel(acc::num_gangs(host_alone(n1) ? 1 : planes), acc::async(queue), acc::default_present,
                acc::reduction(acc::plus, sum), acc::reduction(acc::maximum, max),
                ACC_LAMBDA(const acc::gang_t& g, double& s, double& m) {
    acc::loop(g, acc::gang, planes, [&](int k3) {
      for (int i2 = 1; i2 < n2 - 1; ++i2) {
        const double* const x = host_row(r, k3 + 1, i2);
        double rs = 0.0, rm = m;
        for (int i1 = 1; i1 < n1 - 1; ++i1) {
          rs += x[i1] * x[i1];
          const double a = fabs(x[i1]);
          rm = a > rm ? a : rm;
        }
        s += rs;
        m = rm;
      }
    });
  });
}

norms norm2u3(const cgrid& r) {
  const int n3 = static_cast<int>(r.extent(0)), n2 = static_cast<int>(r.extent(1)), n1 = static_cast<int>(r.extent(2));
  double sum = 0.0, max = 0.0;
  if (host_rows()) {
    norm2u3_rows(r, sum, max);
    const double points = double(n3 - 2) * double(n2 - 2) * double(n1 - 2);
    return {std::sqrt(sum / points), max};
  }
  acc::parallel_loop(acc::collapse(n3 - 2, n2 - 2, n1 - 2),
                     acc::async(queue), acc::default_present, acc::reduction(acc::plus, sum),
                     acc::reduction(acc::maximum, max), ACC_LAMBDA(int k3, int k2, int k1, double& s, double& m) {
                       const double x = r(k3 + 1, k2 + 1, k1 + 1);
                       s += x * x;
                       // Not fmax: without -ffast-math the host calls libm's fmax for each point.
                       const double a = fabs(x);
                       m = a > m ? a : m;
                     });
  const double points = double(n3 - 2) * double(n2 - 2) * double(n1 - 2);
  return {std::sqrt(sum / points), max};
}

/// The grid hierarchy: u and r for levels 1 (2^3 interior points) to lt, in one array each
/// as NPB keeps them (the finest level first), and v on the finest level.
struct hierarchy {
  int lt;
  acc::array<double> u, r, v;
  std::vector<grid> u_at, r_at;  // index k: level k's grid; 0 unused

  explicit hierarchy(int log2_n)
      : lt(log2_n), u("u", total(log2_n)), r("r", total(log2_n)), v("v", side(log2_n) * side(log2_n) * side(log2_n)),
        u_at(log2_n + 1), r_at(log2_n + 1) {
    std::size_t offset = 0;
    for (int k = lt; k >= 1; --k) {
      const int m = static_cast<int>(side(k));
      u_at[k] = grid("u", u.data() + offset, m, m, m);
      r_at[k] = grid("r", r.data() + offset, m, m, m);
      offset += std::size_t(m) * m * m;
    }
  }
  grid fine_v() const {
    const int m = static_cast<int>(side(lt));
    return grid("v", v.data(), m, m, m);
  }

  static std::size_t side(int k) { return (std::size_t(1) << k) + 2; }
  static std::size_t total(int lt) {
    std::size_t n = 0;
    for (int k = 1; k <= lt; ++k) n += side(k) * side(k) * side(k);
    return n;
  }
};

/// mg3P: one V-cycle. Restrict the residual down to level 1, smooth there, then on the way
/// up interpolate the correction, recompute the residual and smooth at each level.
void mg3p(const hierarchy& h, const stencil& a, const stencil& c) {
  for (int k = h.lt; k >= 2; --k) rprj3(h.r_at[k], h.r_at[k - 1]);
  // Level 1: u = 0 then one smoothing step, i.e. u = S r on the interior.
  zero3(h.u_at[1]);
  psinv(h.r_at[1], h.u_at[1], c);
  for (int k = 2; k <= h.lt - 1; ++k) {
    interp(h.u_at[k - 1], h.u_at[k], false);
    resid(h.u_at[k], h.r_at[k], h.r_at[k], a);
    psinv(h.r_at[k], h.u_at[k], c);
  }
  interp(h.u_at[h.lt - 1], h.u_at[h.lt], true);
  resid(h.u_at[h.lt], h.fine_v(), h.r_at[h.lt], a);
  psinv(h.r_at[h.lt], h.u_at[h.lt], c);
}

// --- zran3: the right-hand side (host, untimed) -------------------------------------------------

struct candidate {
  double value;
  int i3, i2, i1;
};

/// The `charges` most extreme values offered so far, least extreme first, so that a newcomer
/// only has to beat the first one to get in. `Beats` is std::greater for the largest values,
/// std::less for the smallest; ties keep the earlier point, as NPB's search does.
template <class Beats>
class extremes {
public:
  explicit extremes(double start) { best_.fill({start, 0, 0, 0}); }
  void offer(const candidate& c) {
    if (!Beats{}(c.value, best_[0].value)) return;
    int k = 0;
    for (; k + 1 < charges && Beats{}(c.value, best_[k + 1].value); ++k) best_[k] = best_[k + 1];
    best_[k] = c;
  }
  const std::array<candidate, charges>& points() const { return best_; }

private:
  std::array<candidate, charges> best_;
};

/// NPB's zran3 on the finest grid: NPB's random numbers fill the interior in memory order
/// (i1 fastest), one stream from the seed; v is -1 at the ten smallest, +1 at the ten largest
/// and 0 elsewhere. NPB reaches each row's start by jumping ahead with powers of the
/// multiplier; the stream is the same, so here it simply runs on. Ghosts are left to comm3.
void zran3(const grid& v) {
  const int n = static_cast<int>(v.extent(0)) - 2;
  std::fill(v.begin(), v.end(), 0.0);
  extremes<std::greater<double>> largest(0.0);  // deviates lie in (0, 1)
  extremes<std::less<double>> smallest(1.0);
  double x = seed;
  for (int i3 = 1; i3 <= n; ++i3)
    for (int i2 = 1; i2 <= n; ++i2)
      for (int i1 = 1; i1 <= n; ++i1) {
        const candidate c{npb::randlc(x, multiplier), i3, i2, i1};
        largest.offer(c);
        smallest.offer(c);
      }
  for (const candidate& c : smallest.points()) v(c.i3, c.i2, c.i1) = -1.0;
  for (const candidate& c : largest.points()) v(c.i3, c.i2, c.i1) = +1.0;
}

const mg_class* find_class(const char* arg) {
  for (const mg_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) try {
  const mg_class* cls = find_class(argc > 1 ? argv[1] : "S");
  simple_comm3 = argc > 2 && std::strcmp(argv[2], "simple") == 0;
  if (!cls || (argc > 2 && !simple_comm3) || argc > 3) {
    std::fprintf(stderr, "usage: %s [S|W|A|B|C] [simple]\n", argv[0]);
    return 2;
  }
  const int n = 1 << cls->log2_n;
  hierarchy h(cls->log2_n);
  const grid u = h.u_at[h.lt], r = h.r_at[h.lt], v = h.fine_v();
  zran3(v);
  const stencil& a = laplacian;
  const stencil& c = cls->smoother_b ? smoother_b : smoother_a;

  acc::data region{acc::create(h.u), acc::create(h.r), acc::copyin(h.v)};
  comm3(v);

  // NPB runs one untimed V-cycle to touch every page (here also: load the kernels), then
  // starts again from u = 0; v is never written, so it needs no second zran3.
  zero3(u);
  resid(u, v, r, a);
  mg3p(h, a, c);
  resid(u, v, r, a);
  zero3(u);
  acc::wait(queue);

  std::printf("NPB MG class %c: %d x %d x %d, %d iterations, %d levels, smoother S(%c)\n", cls->name, n, n, n,
              cls->nit, cls->log2_n, cls->smoother_b ? 'b' : 'a');
  const auto start = std::chrono::steady_clock::now();
  resid(u, v, r, a);
  const norms initial = norm2u3(r);
  for (int it = 1; it <= cls->nit; ++it) {
    if (it == 1 || it == cls->nit || it % 5 == 0) std::printf("  iter %3d\n", it);
    mg3p(h, a, c);
    resid(u, v, r, a);
  }
  const norms final = norm2u3(r);
  acc::wait(queue);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // NPB 3.4 MG verification: relative error of the final residual's L2 norm at most 1e-8.
  const double err = std::fabs(final.l2 - cls->rnm2) / cls->rnm2;
  const bool ok = err <= epsilon;
  // NPB's operation count: 58 per grid point per iteration.
  const double mops = 58.0 * cls->nit * double(n) * n * n * 1e-6 / seconds;
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("  residual: initial L2 norm %.13e, final L2 norm %.13e, final max norm %.6e\n", initial.l2, final.l2,
              final.max);
  std::printf("  L2 norm = %.13e (reference %.13e, relative error %.1e) on %s\n", final.l2, cls->rnm2, err,
              gpu ? "nvidia" : "host");
  std::printf("  time = %.4f s, Mop/s = %.2f\n  verification %s\n", seconds, mops, ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "mg: %s\n", e.what());
  return 1;
}
