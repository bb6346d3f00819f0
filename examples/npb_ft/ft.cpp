// NPB FT (3-D FFT PDE solver), after the NAS Parallel Benchmarks 3.x: the heat equation
// du/dt = alpha lap(u) on a periodic nx x ny x nz grid, solved spectrally. A random initial
// field is transformed forward once; each iteration multiplies it by exp(-4 alpha pi^2 |k|^2 t),
// transforms back and prints a checksum of 1024 elements, which is checked against NPB's value.
//   ft [S|W|A|B|C]   (default S)
// Written for acc from the NPB 3.4 specification of FT (NAS technical reports RNR-94-007 and
// NAS-95-020), not from NPB's sources; constants, checksum indices and verification values
// are NPB's (NPB 3.4 ft.f, as reproduced in GMAP/NPB-CPP NPB-SER/FT/ft.cpp). As in NPB, all
// of the work is timed: exponents, initial conditions, roots of unity, the forward transform
// and the iterations, which all run on the device inside one data region.
//
// The 1-D transforms are radix-2 decimation in time in gang-shared memory: each gang loads a
// few whole lines, bit-reversed, runs the log2 n butterfly stages there (two at a time, with a
// barrier between pairs), and stores the lines back in place, so each dimension costs one pass
// over the grid.
// Lines of the y and z dimensions are taken in groups that are adjacent in x, which makes the
// loads and stores contiguous across the gang.
// Where constructs run on the host, the transforms take a CPU form instead (fft_lines_host:
// Stockham stages over 16 lines at a time, vectorised across the lines); fft3d chooses.
#include <acc/parallel.hpp>

#include "../common/npb_random.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>

namespace {

// --- Complex numbers usable in compute constructs --------------------------------------------
struct dcomplex {
  double re, im;
};
ACC_ROUTINE inline dcomplex operator+(dcomplex a, dcomplex b) { return {a.re + b.re, a.im + b.im}; }
ACC_ROUTINE inline dcomplex operator-(dcomplex a, dcomplex b) { return {a.re - b.re, a.im - b.im}; }
ACC_ROUTINE inline dcomplex operator*(dcomplex a, dcomplex b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
ACC_ROUTINE inline dcomplex operator*(dcomplex a, double s) { return {a.re * s, a.im * s}; }

// --- Parameters (NPB 3.4 FT: npbparams.h and verify in ft.f) -----------------------------------
constexpr int max_iterations = 20;
struct ft_class {
  char name;
  int nx, ny, nz, niter;
  dcomplex checksum[max_iterations];  // NPB 3.4 FT verification values, one per iteration
};
constexpr ft_class classes[] = {
    {'S', 64, 64, 64, 6,
     {{5.546087004964e+02, 4.845363331978e+02},
      {5.546385409189e+02, 4.865304269511e+02},
      {5.546148406171e+02, 4.883910722336e+02},
      {5.545423607415e+02, 4.901273169046e+02},
      {5.544255039624e+02, 4.917475857993e+02},
      {5.542683411902e+02, 4.932597244941e+02}}},
    {'W', 128, 128, 32, 6,
     {{5.673612178944e+02, 5.293246849175e+02},
      {5.631436885271e+02, 5.282149986629e+02},
      {5.594024089970e+02, 5.270996558037e+02},
      {5.560698047020e+02, 5.260027904925e+02},
      {5.530898991250e+02, 5.249400845633e+02},
      {5.504159734538e+02, 5.239212247086e+02}}},
    {'A', 256, 256, 128, 6,
     {{5.046735008193e+02, 5.114047905510e+02},
      {5.059412319734e+02, 5.098809666433e+02},
      {5.069376896287e+02, 5.098144042213e+02},
      {5.077892868474e+02, 5.101336130759e+02},
      {5.085233095391e+02, 5.104914655194e+02},
      {5.091487099959e+02, 5.107917842803e+02}}},
    {'B', 512, 256, 256, 20,
     {{5.177643571579e+02, 5.077803458597e+02}, {5.154521291263e+02, 5.088249431599e+02},
      {5.146409228649e+02, 5.096208912659e+02}, {5.142378756213e+02, 5.101023387619e+02},
      {5.139626667737e+02, 5.103976610617e+02}, {5.137423460082e+02, 5.105948019802e+02},
      {5.135547056878e+02, 5.107404165783e+02}, {5.133910925466e+02, 5.108576573661e+02},
      {5.132470705390e+02, 5.109577278523e+02}, {5.131197729984e+02, 5.110460304483e+02},
      {5.130070319283e+02, 5.111252433800e+02}, {5.129070537032e+02, 5.111968077718e+02},
      {5.128182883502e+02, 5.112616233064e+02}, {5.127393733383e+02, 5.113203605551e+02},
      {5.126691062020e+02, 5.113735928093e+02}, {5.126064276004e+02, 5.114218460548e+02},
      {5.125504076570e+02, 5.114656139760e+02}, {5.125002331720e+02, 5.115053595966e+02},
      {5.124551951846e+02, 5.115415130407e+02}, {5.124146770029e+02, 5.115744692211e+02}}},
    {'C', 512, 512, 512, 20,
     {{5.195078707457e+02, 5.149019699238e+02}, {5.155422171134e+02, 5.127578201997e+02},
      {5.144678022222e+02, 5.122251847514e+02}, {5.140150594328e+02, 5.121090289018e+02},
      {5.137550426810e+02, 5.121143685824e+02}, {5.135811056728e+02, 5.121496764568e+02},
      {5.134569343165e+02, 5.121870921893e+02}, {5.133651975661e+02, 5.122193250322e+02},
      {5.132955192805e+02, 5.122454735794e+02}, {5.132410471738e+02, 5.122663649603e+02},
      {5.131971141679e+02, 5.122830879827e+02}, {5.131605205716e+02, 5.122965869718e+02},
      {5.131290734194e+02, 5.123075927445e+02}, {5.131012720314e+02, 5.123166486553e+02},
      {5.130760908195e+02, 5.123241541685e+02}, {5.130528295923e+02, 5.123304037599e+02},
      {5.130310107773e+02, 5.123356167976e+02}, {5.130103090133e+02, 5.123399592211e+02},
      {5.129905029333e+02, 5.123435588985e+02}, {5.129714421109e+02, 5.123465164008e+02}}},
};
constexpr double seed = 314159265.0;    // NPB FT's SEED
constexpr double amult = 1220703125.0;  // 5^13, NPB's A
constexpr double alpha = 1.0e-6;        // NPB FT's ALPHA (diffusion constant)
constexpr double pi = 3.141592653589793238;
constexpr double epsilon = 1.0e-12;     // NPB FT's verification tolerance (relative)

// Points per gang in the 1-D transforms: 2048 complex doubles are 32 KiB of gang-shared
// memory, which leaves room for several gangs per GPU multiprocessor.
constexpr int fft_points_per_gang = 2048;
constexpr int fft_vector_length = 256;

int log2_of(int n) {
  int m = 0;
  while ((1 << m) < n) ++m;
  return m;
}

/// a^e mod 2^46 by repeated squaring; every product is exact, so the order does not matter.
ACC_ROUTINE inline double pow46(double a, long long e) {
  double r = 1.0, q = a;
  for (; e > 0; e >>= 1) {
    if (e & 1) npb::randlc(r, q);
    if (e > 1) npb::randlc(q, q);
  }
  return r;
}

/// p with its low m bits reversed.
ACC_ROUTINE inline int bit_reverse(int p, int m) {
  int r = 0;
  for (int b = 0; b < m; ++b, p >>= 1) r = (r << 1) | (p & 1);
  return r;
}

/// One dimension's lines: the grid seen as (outer, n, inner), point (o, p, q) at (o n + p) inner + q.
struct line_layout {
  int n;
  long outer, inner;
};

/// In-place 1-D FFTs of length n along every line of `layout`: sign +1 is NPB's forward
/// transform (exp(+2 pi i jk / n)), -1 the inverse, unnormalised as in NPB. roots(h + k) holds
/// exp(i pi k / h) for every power of two h < n.
/// OpenACC: #pragma acc parallel num_gangs(...) vector_length(256), gang loop over groups of
/// lines, each staged in a gang-private (shared) array with vector loops over its points.
void fft_lines(const acc::array<dcomplex>& x, const acc::view<const dcomplex>& roots, line_layout layout, int sign) {
  const int n = layout.n, m = log2_of(n);
  const long inner = layout.inner;
  const bool contiguous = inner == 1;  // lines along x: each line is contiguous, group along y
  // A group of `lines` lines: adjacent in x (same o, q0..q0+lines-1) or consecutive whole lines.
  const long group_limit = contiguous ? layout.outer : inner;
  const int lines = static_cast<int>(std::min<long>(std::max(1, fft_points_per_gang / n), group_limit));
  const int lg_lines = log2_of(lines);
  const int pitch = n + 1;  // one spare point per line staggers the lines over the shared banks
  const long groups = layout.outer * inner / lines;
  const int half = n / 2, quarter = n / 4;
  acc::parallel(acc::num_gangs(static_cast<int>(groups)), acc::vector_length(fft_vector_length),
                acc::shared_bytes(sizeof(dcomplex) * lines * pitch), acc::default_present,
                ACC_LAMBDA(const acc::gang_t& g) {
    const auto s = g.shared<dcomplex>(std::size_t(lines) * pitch);
    acc::loop(g, acc::gang, groups, [&](long grp) {
      const long l0 = grp * lines;
      const long o = l0 / inner, q0 = l0 % inner;
      // Point e of the group: line t, position p, grid index a. Consecutive e are adjacent in
      // memory: positions along a contiguous line, or lines adjacent in x.
      auto locate = [&](int e, int& t, int& p) -> long {
        if (contiguous) {
          t = e >> m;
          p = e & (n - 1);
          return l0 * n + e;
        }
        t = e & (lines - 1);
        p = e >> lg_lines;
        return (o * n + p) * inner + q0 + t;
      };
      acc::loop(g, acc::vector, lines * n, [&](int e) {
        int t, p;
        const long a = locate(e, t, p);
        s[t * pitch + bit_reverse(p, m)] = x[a];
      });
      auto root = [&](int i) {
        dcomplex w = roots[i];
        w.im *= sign;
        return w;
      };
      // Stages h and 2h together (radix 2^2): each iteration takes points i0 + {0, h, 2h, 3h}
      // with i0 = 4h (b / h) + b mod h through both stages in registers, with the same
      // arithmetic as two radix-2 stages, half the shared-memory traffic and barriers.
      int lh = 0;
      for (; lh + 1 < m; lh += 2) {
        const int h = 1 << lh;
        acc::loop(g, acc::vector, lines * quarter, [&](int e) {
          const int t = e >> (m - 2), b = e & (quarter - 1), k = b & (h - 1);
          const int i0 = t * pitch + ((b >> lh) << (lh + 2)) + k;
          const dcomplex w1 = root(h + k), w2 = root(2 * h + k), w3 = root(3 * h + k);
          const dcomplex a0 = s[i0], a1 = w1 * s[i0 + h], a2 = s[i0 + 2 * h], a3 = w1 * s[i0 + 3 * h];
          const dcomplex c0 = a0 + a1, c1 = a0 - a1, c2 = w2 * (a2 + a3), c3 = w3 * (a2 - a3);
          s[i0] = c0 + c2;
          s[i0 + 2 * h] = c0 - c2;
          s[i0 + h] = c1 + c3;
          s[i0 + 3 * h] = c1 - c3;
        });
      }
      // An odd number of stages leaves one radix-2 stage: butterflies (i0, i0 + h) with
      // i0 = 2h (b / h) + b mod h.
      if (lh < m) {
        const int h = 1 << lh;
        acc::loop(g, acc::vector, lines * half, [&](int e) {
          const int t = e >> (m - 1), b = e & (half - 1), k = b & (h - 1);
          const int i0 = t * pitch + ((b >> lh) << (lh + 1)) + k;
          const dcomplex a0 = s[i0], a1 = root(h + k) * s[i0 + h];
          s[i0] = a0 + a1;
          s[i0 + h] = a0 - a1;
        });
      }
      acc::loop(g, acc::vector, lines * n, [&](int e) {
        int t, p;
        const long a = locate(e, t, p);
        x[a] = s[t * pitch + p];
      });
    });
  });
}

/// fft_lines on the host: the same transforms, shaped for a CPU core rather than a GPU gang.
/// Each gang takes `lines` neighbouring lines into gang memory with the lines innermost
/// (point p of line t at p * lines + t), and runs log2 n Stockham radix-2 stages between two
/// such buffers: the stages need no bit reversal, and each butterfly's innermost loop runs over
/// the lines with one twiddle factor, which the compiler vectorises. On a GPU that loop would
/// leave most of a gang idle, so fft_lines keeps the GPU form (fft3d chooses).
/// OpenACC: #pragma acc parallel loop gang over groups of lines, the stages sequential.
constexpr int fft_lines_per_gang_host = 16;

void fft_lines_host(const acc::array<dcomplex>& x, const acc::view<const dcomplex>& roots, line_layout layout,
                    int sign) {
  const int n = layout.n;
  const long inner = layout.inner;
  const bool contiguous = inner == 1;  // lines along x: take consecutive lines, else lines adjacent in x
  const int lines = static_cast<int>(std::min<long>(fft_lines_per_gang_host, contiguous ? layout.outer : inner));
  const long groups = layout.outer * inner / lines;
  acc::parallel(acc::num_gangs(static_cast<int>(groups)), acc::shared_bytes(sizeof(dcomplex) * 2 * n * lines),
                acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
    const auto s = g.shared<dcomplex>(std::size_t(2) * n * lines);
    acc::loop(g, acc::gang, groups, [&](long grp) {
      const long l0 = grp * lines;
      const long o = l0 / inner, q0 = l0 % inner;
      // Grid index of point p of line t in the group.
      auto at = [&](int t, int p) { return contiguous ? (l0 + t) * n + p : (o * n + p) * inner + q0 + t; };
      dcomplex* from = s.data();
      dcomplex* to = s.data() + std::size_t(n) * lines;
      // Visits (t, p) in the grid's order: along x a line is contiguous; along y and z the
      // group's lines are adjacent at each point, so the point goes outside (one pass over
      // its cache lines).
      auto in_grid_order = [&](auto&& f) {
        if (contiguous)
          for (int t = 0; t < lines; ++t)
            for (int p = 0; p < n; ++p) f(t, p);
        else
          for (int p = 0; p < n; ++p)
            for (int t = 0; t < lines; ++t) f(t, p);
      };
      in_grid_order([&](int t, int p) { from[p * lines + t] = x[at(t, p)]; });
      // Stage with span h = 2^st: input pairs (j h + k, j h + k + n/2) for j < n / (2h) and
      // k < h go to outputs 2 j h + k and 2 j h + h + k, the difference turned by
      // exp(sign i pi j / (n / 2h)): the autosorting (Stockham) order, natural order at the end.
      for (int h = 1; h < n; h *= 2) {
        const int groups_j = n / (2 * h);
        for (int j = 0; j < groups_j; ++j) {
          dcomplex w = roots[groups_j + j];
          w.im *= sign;
          for (int k = 0; k < h; ++k) {
            const dcomplex* a = from + std::size_t(j * h + k) * lines;
            const dcomplex* b = a + std::size_t(n / 2) * lines;
            dcomplex* c = to + std::size_t(2 * j * h + k) * lines;
            dcomplex* d = c + std::size_t(h) * lines;
            for (int t = 0; t < lines; ++t) {
              const dcomplex u = a[t], v = b[t];
              c[t] = u + v;
              d[t] = w * (u - v);
            }
          }
        }
        dcomplex* const swap = from;
        from = to;
        to = swap;
      }
      in_grid_order([&](int t, int p) { x[at(t, p)] = from[p * lines + t]; });
    });
  });
}

struct grid {
  int nx, ny, nz;
  long total() const { return long(nx) * ny * nz; }
  line_layout along_x() const { return {nx, long(ny) * nz, 1}; }
  line_layout along_y() const { return {ny, nz, nx}; }
  line_layout along_z() const { return {nz, 1, long(nx) * ny}; }
};

/// The 3-D transform in place, in NPB's order: x, y, z forward and z, y, x inverse.
/// The GPU and host forms of the 1-D transforms differ (fft_lines, fft_lines_host).
void fft3d(const grid& d, const acc::array<dcomplex>& x, const acc::view<const dcomplex>& roots, int sign) {
  const auto lines = acc::get_device_type() == acc::device_type::nvidia ? fft_lines : fft_lines_host;
  if (sign > 0) {
    lines(x, roots, d.along_x(), sign);
    lines(x, roots, d.along_y(), sign);
    lines(x, roots, d.along_z(), sign);
  } else {
    lines(x, roots, d.along_z(), sign);
    lines(x, roots, d.along_y(), sign);
    lines(x, roots, d.along_x(), sign);
  }
}

/// NPB's compute_indexmap: ex(k, j, i) = exp(-4 alpha pi^2 (kbar^2 + jbar^2 + ibar^2)) with
/// the wave numbers folded to [-n/2, n/2).
void compute_exponents(const grid& d, const acc::array<double>& ex) {
  const int nx = d.nx, ny = d.ny, nz = d.nz;
  const double ap = -4.0 * alpha * pi * pi;
  acc::parallel_loop(acc::collapse(nz, ny, nx), acc::default_present, ACC_LAMBDA(int k, int j, int i) {
    const int kk = (k + nz / 2) % nz - nz / 2, jj = (j + ny / 2) % ny - ny / 2, ii = (i + nx / 2) % nx - nx / 2;
    ex[(long(k) * ny + j) * nx + i] = std::exp(ap * double(ii * ii + jj * jj + kk * kk));
  });
}

/// NPB's compute_initial_conditions: the grid filled row by row (x fastest) with consecutive
/// deviates of NPB's generator, real then imaginary part. Each row jumps to its own place in
/// the sequence, so rows are independent.
void compute_initial_conditions(const grid& d, const acc::array<dcomplex>& u) {
  const int nx = d.nx, ny = d.ny;
  acc::parallel_loop(acc::collapse(d.nz, ny), acc::default_present, ACC_LAMBDA(int k, int j) {
    const long row = long(k) * ny + j;
    double x = seed;
    npb::randlc(x, pow46(amult, 2LL * nx * row));
    for (int i = 0; i < nx; ++i) {
      const double re = npb::randlc(x, amult);
      const double im = npb::randlc(x, amult);
      u[row * nx + i] = dcomplex{re, im};
    }
  });
}

/// NPB's fft_init: roots(h + k) = exp(i pi k / h) for h = 1, 2, 4, ... < n and 0 <= k < h.
void compute_roots(const acc::array<dcomplex>& roots, int n) {
  acc::parallel_loop(acc::range(1, n), acc::default_present, ACC_LAMBDA(int idx) {
    int h = 1;
    while (2 * h <= idx) h *= 2;
    const double t = pi / h, ti = (idx - h) * t;
    roots[idx] = dcomplex{std::cos(ti), std::sin(ti)};
  });
}

/// NPB's evolve: u0 = u0 * ex (one more time step), u1 = u0.
void evolve(long total, const acc::array<dcomplex>& u0, const acc::array<dcomplex>& u1, const acc::array<double>& ex) {
  acc::parallel_loop(total, acc::default_present, ACC_LAMBDA(long i) {
    const dcomplex v = u0[i] * ex[i];
    u0[i] = v;
    u1[i] = v;
  });
}

/// NPB's checksum: the sum of u(5j mod nz, 3j mod ny, j mod nx) for j = 1..1024, divided by
/// the number of points (the inverse transform is unnormalised).
dcomplex checksum(const grid& d, const acc::array<dcomplex>& u) {
  const int nx = d.nx, ny = d.ny, nz = d.nz;
  double re = 0.0, im = 0.0;
  acc::parallel_loop(acc::range(1, 1025), acc::default_present, acc::reduction(acc::plus, re),
                     acc::reduction(acc::plus, im), ACC_LAMBDA(int j, double& sre, double& sim) {
    const dcomplex v = u[(long(5 * j % nz) * ny + 3 * j % ny) * nx + j % nx];
    sre += v.re;
    sim += v.im;
  });
  const double n = double(d.total());
  return {re / n, im / n};
}

const ft_class* find_class(const char* arg) {
  for (const ft_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) try {
  const ft_class* cls = find_class(argc > 1 ? argv[1] : "S");
  if (!cls) {
    std::fprintf(stderr, "usage: %s [S|W|A|B|C]\n", argv[0]);
    return 2;
  }
  const grid d{cls->nx, cls->ny, cls->nz};
  const long total = d.total();
  const int maxdim = std::max({d.nx, d.ny, d.nz});
  acc::array<dcomplex> u0("u0", total), u1("u1", total), roots("roots", maxdim);
  acc::array<double> ex("ex", total);
  const acc::view<const dcomplex> rroots = roots;  // the transforms only read the roots

  acc::data region{acc::create(u0), acc::create(u1), acc::create(ex), acc::create(roots)};
  auto setup = [&] {
    compute_exponents(d, ex);
    compute_initial_conditions(d, u0);
    compute_roots(roots, maxdim);
    fft3d(d, u0, rroots, 1);
  };

  // NPB runs the setup and forward transform once untimed to touch all data (here also: load
  // the kernels), then starts over and times everything.
  setup();

  std::printf("NPB FT class %c: %d x %d x %d, niter = %d\n", cls->name, d.nx, d.ny, d.nz, cls->niter);
  std::printf("   iteration              checksum (real, imaginary)\n");
  dcomplex sums[max_iterations];
  const auto start = std::chrono::steady_clock::now();
  setup();
  for (int it = 1; it <= cls->niter; ++it) {
    evolve(total, u0, u1, ex);
    fft3d(d, u1, rroots, -1);
    sums[it - 1] = checksum(d, u1);
    std::printf("    %5d       %22.12e%22.12e\n", it, sums[it - 1].re, sums[it - 1].im);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // NPB 3.4 FT verification: |sum - reference| / |reference| at most 1e-12 in every iteration.
  double worst = 0.0;
  bool ok = true;
  for (int it = 0; it < cls->niter; ++it) {
    const dcomplex ref = cls->checksum[it], diff = sums[it] - ref;
    const double err = std::hypot(diff.re, diff.im) / std::hypot(ref.re, ref.im);
    ok = ok && err <= epsilon;  // NaN fails
    worst = std::max(worst, err);
  }
  // NPB's operation count for FT.
  const double nt = double(total);
  const double mops =
      1e-6 * nt * (14.8157 + 7.19641 * std::log(nt) + (5.23518 + 7.21113 * std::log(nt)) * cls->niter) / seconds;
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("  largest relative checksum error %.1e (tolerance %.0e) on %s\n", worst, epsilon, gpu ? "nvidia" : "host");
  std::printf("  time = %.4f s, Mop/s = %.2f\n  verification %s\n", seconds, mops, ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "ft: %s\n", e.what());
  return 1;
}
