// NPB CG (Conjugate Gradient), after the NAS Parallel Benchmarks 3.x OpenMP/OpenACC versions:
// inverse power iteration for the smallest eigenvalue of a random sparse symmetric positive
// definite matrix, each step solving A z = x approximately by 25 unpreconditioned CG
// iterations; zeta = shift + 1 / (x . z) is checked against NPB's published value.
//   cg [S|W|A|B]   (default S)
// Written for acc from the NPB 3.4 specification of CG (NAS technical reports RNR-94-007 and
// NAS-95-020), not from NPB's sources; constants and verification values are NPB's. The
// matrix is generated on the host, untimed, as in NPB; the timed part runs on the device.
#include <acc/parallel.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <numeric>
#include <vector>

namespace {

// --- Parameters (NPB 3.4 CG: cg.f / npbparams.h) ----------------------------------------------
struct cg_class {
  char name;
  int na;       // order of the matrix
  int nonzer;   // nonzeros per random vector before the diagonal is added
  int niter;    // outer (power) iterations
  double shift;
  double zeta;  // NPB 3.4 CG verification value
};
constexpr cg_class classes[] = {
    {'S', 1400, 7, 15, 10.0, 8.5971775078648},
    {'W', 7000, 8, 15, 12.0, 10.362595087124},
    {'A', 14000, 11, 15, 20.0, 17.130235054029},
    {'B', 75000, 13, 75, 60.0, 22.712745482631},
};
constexpr double rcond = 0.1;  // NPB's RCOND: bounds the smallest eigenvalue of A + shift I below
constexpr int cg_iterations = 25;  // NPB's cgitmax

// --- NPB's random number generator (host only: the matrix is built on the host) ---------------
// x_{k+1} = a * x_k mod 2^46 in doubles, splitting both factors into 23-bit halves so every
// intermediate is an integer below 2^53 and exact; the same sequence as NPB's randlc.
class npb_random {
public:
  explicit npb_random(double seed) : x_(seed) {}
  /// The next deviate, uniform in (0, 1).
  double next() {
    constexpr double r23 = 1.0 / 8388608.0, t23 = 8388608.0, r46 = r23 * r23, t46 = t23 * t23;
    const double a1 = std::trunc(r23 * a_), a2 = a_ - t23 * a1;
    const double x1 = std::trunc(r23 * x_), x2 = x_ - t23 * x1;
    const double t1 = a1 * x2 + a2 * x1;
    const double z = t1 - t23 * std::trunc(r23 * t1);
    const double t3 = t23 * z + a2 * x2;
    x_ = t3 - t46 * std::trunc(r46 * t3);
    return r46 * x_;
  }

private:
  double x_;
  double a_ = 1220703125.0;  // NPB CG's amult, 5^13
};

/// Host CSR matrix, rows sorted by column.
struct csr_host {
  std::vector<int> rowstr, colidx;
  std::vector<double> a;
};

/// NPB's makea: A = sum_i size_i v_i v_i^T + (rcond - shift) I, where v_i is a random sparse
/// vector with nonzer entries and v_i(i) = 1/2, and size_i = rcond^(i/n) falls geometrically.
/// Duplicates are summed in NPB's order (vector i ascending, starting from 0), so every entry
/// has NPB's exact bits; the structure is built by counting and sorting rather than by NPB's
/// insertion, which only changes how long it takes.
csr_host make_matrix(int n, int nonzer, double shift) {
  npb_random rng(314159265.0);  // NPB CG's tran
  rng.next();                   // NPB draws once before makea (its first "zeta")
  int pow2 = 1;                 // NPB draws columns in [0, 2^k) >= n and rejects those >= n
  while (pow2 < n) pow2 *= 2;

  // The vectors, as NPB's sprnvc and vecset make them: (value, column) draws, rejecting
  // columns outside the matrix and repeats, then v_i(i) = 1/2 set or appended.
  const int width = nonzer + 1;
  std::vector<int> vcol(std::size_t(n) * width), vlen(n);
  std::vector<double> vval(std::size_t(n) * width);
  for (int i = 0; i < n; ++i) {
    int* col = &vcol[std::size_t(i) * width];
    double* val = &vval[std::size_t(i) * width];
    int len = 0;
    while (len < nonzer) {
      const double v = rng.next();
      const int c = static_cast<int>(pow2 * rng.next());
      if (c >= n || std::find(col, col + len, c) != col + len) continue;
      col[len] = c;
      val[len++] = v;
    }
    if (int* d = std::find(col, col + len, i); d != col + len) {
      val[d - col] = 0.5;
    } else {
      col[len] = i;
      val[len++] = 0.5;
    }
    vlen[i] = len;
  }

  // Row r receives vlen[i] terms from each vector i with an entry in column r.
  std::vector<std::size_t> start(n + 1, 0);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < vlen[i]; ++k) start[vcol[std::size_t(i) * width + k] + 1] += vlen[i];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<int> tcol(start[n]);
  std::vector<double> tval(start[n]);
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);

  const double ratio = std::pow(rcond, 1.0 / n);
  double size = 1.0;
  for (int i = 0; i < n; ++i) {
    const int* col = &vcol[std::size_t(i) * width];
    const double* val = &vval[std::size_t(i) * width];
    for (int k = 0; k < vlen[i]; ++k) {
      const int r = col[k];
      const double scale = size * val[k];  // NPB's association: v(c) * (size * v(r))
      for (int l = 0; l < vlen[i]; ++l) {
        double term = val[l] * scale;
        if (col[l] == r && r == i) term = term + rcond - shift;
        tcol[fill[r]] = col[l];
        tval[fill[r]++] = term;
      }
    }
    size *= ratio;
  }

  // Per row: a stable sort by column keeps each entry's terms in generation order, then sum.
  csr_host m;
  m.rowstr.assign(n + 1, 0);
  m.colidx.reserve(start[n]);
  m.a.reserve(start[n]);
  std::vector<std::size_t> order;
  for (int r = 0; r < n; ++r) {
    order.resize(start[r + 1] - start[r]);
    std::iota(order.begin(), order.end(), start[r]);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t u, std::size_t v) { return tcol[u] < tcol[v]; });
    for (std::size_t k = 0; k < order.size();) {
      const int c = tcol[order[k]];
      double sum = 0.0;
      for (; k < order.size() && tcol[order[k]] == c; ++k) sum += tval[order[k]];
      m.colidx.push_back(c);
      m.a.push_back(sum);
    }
    m.rowstr[r + 1] = static_cast<int>(m.a.size());
  }
  return m;
}

/// The matrix as compute constructs see it: read-only views (read-only loads on a GPU).
struct csr_view {
  acc::view<const int> rowstr, colidx;
  acc::view<const double> a;

  /// (A v)_j, summed along the row in column order as NPB does.
  template <class V>
  ACC_ROUTINE double row_times(const V& v, int j) const {
    double s = 0.0;
    for (int k = rowstr[j], end = rowstr[j + 1]; k < end; ++k) s += a[k] * v[colidx[k]];
    return s;
  }
};

/// NPB's conj_grad: 25 CG iterations on A z = x from z = 0; returns ||x - A z||.
/// The vector updates ride in the reductions that follow them (one pass instead of NPB's
/// two), but the matrix-vector products stay plain loops: a reduction body runs several
/// iterations per thread (CUB's items per thread), which for rows of ~200 nonzeros leaves a
/// GPU with too few threads (class B: 0.70 ms per product as a reduction body, vs ~0.1 ms).
double conj_grad(const csr_view& m, int n, const acc::array<double>& x, const acc::array<double>& z,
                 const acc::array<double>& p, const acc::array<double>& q, const acc::array<double>& r) {
  const acc::view<const double> pr = p;  // p as the matrix-vector product reads it
  double rho = acc::parallel_reduce(n, acc::default_present, acc::plus, ACC_LAMBDA(int j) -> double {
    z[j] = 0.0;
    r[j] = x[j];
    p[j] = x[j];
    return x[j] * x[j];
  });
  for (int it = 0; it < cg_iterations; ++it) {
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int j) { q[j] = m.row_times(pr, j); });
    const double pq = acc::parallel_reduce(n, acc::default_present, acc::plus,
                                           ACC_LAMBDA(int j) -> double { return p[j] * q[j]; });
    const double alpha = rho / pq, rho0 = rho;
    rho = acc::parallel_reduce(n, acc::default_present, acc::plus, ACC_LAMBDA(int j) -> double {
      z[j] += alpha * p[j];
      const double rj = r[j] - alpha * q[j];
      r[j] = rj;
      return rj * rj;
    });
    const double beta = rho / rho0;
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int j) { p[j] = r[j] + beta * p[j]; });
  }
  const acc::view<const double> zr = z;
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int j) { r[j] = m.row_times(zr, j); });
  const double sum = acc::parallel_reduce(n, acc::default_present, acc::plus, ACC_LAMBDA(int j) -> double {
    const double d = x[j] - r[j];
    return d * d;
  });
  return std::sqrt(sum);
}

/// One power step: z = A^-1 x (approximately), returns (x . z, ||x - A z||) and sets x = z / ||z||.
struct step_result {
  double xz, rnorm;
};
step_result power_step(const csr_view& m, int n, const acc::array<double>& x, const acc::array<double>& z,
                       const acc::array<double>& p, const acc::array<double>& q, const acc::array<double>& r) {
  const double rnorm = conj_grad(m, n, x, z, p, q, r);
  const double xz = acc::parallel_reduce(n, acc::default_present, acc::plus,
                                         ACC_LAMBDA(int j) -> double { return x[j] * z[j]; });
  const double zz = acc::parallel_reduce(n, acc::default_present, acc::plus,
                                         ACC_LAMBDA(int j) -> double { return z[j] * z[j]; });
  const double scale = 1.0 / std::sqrt(zz);
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int j) { x[j] = scale * z[j]; });
  return {xz, rnorm};
}

const cg_class* find_class(const char* arg) {
  for (const cg_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) try {
  const cg_class* cls = find_class(argc > 1 ? argv[1] : "S");
  if (!cls) {
    std::fprintf(stderr, "usage: %s [S|W|A|B]\n", argv[0]);
    return 2;
  }
  const int n = cls->na;
  const csr_host h = make_matrix(n, cls->nonzer, cls->shift);
  const std::size_t nnz = h.a.size();
  acc::array<int> rowstr("rowstr", n + 1), colidx("colidx", nnz);
  acc::array<double> a("a", nnz);
  std::copy(h.rowstr.begin(), h.rowstr.end(), rowstr.begin());
  std::copy(h.colidx.begin(), h.colidx.end(), colidx.begin());
  std::copy(h.a.begin(), h.a.end(), a.begin());
  acc::array<double> x("x", n), z("z", n), p("p", n), q("q", n), r("r", n);
  const csr_view m{rowstr, colidx, a};

  acc::data region{acc::copyin(rowstr), acc::copyin(colidx), acc::copyin(a), acc::create(x),
                   acc::create(z),      acc::create(p),      acc::create(q), acc::create(r)};
  auto reset = [&] { acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int j) { x[j] = 1.0; }); };

  // NPB runs one untimed step to touch every page (here also: load the kernels), then restarts.
  reset();
  power_step(m, n, x, z, p, q, r);
  reset();

  std::printf("NPB CG class %c: na = %d, nonzer = %d, niter = %d, shift = %g, nonzeros = %zu\n", cls->name, n,
              cls->nonzer, cls->niter, cls->shift, nnz);
  std::printf("   iteration           ||r||                 zeta\n");
  const auto start = std::chrono::steady_clock::now();
  double zeta = 0.0;
  for (int it = 1; it <= cls->niter; ++it) {
    const step_result s = power_step(m, n, x, z, p, q, r);
    zeta = cls->shift + 1.0 / s.xz;
    std::printf("    %5d       %20.14e%20.13e\n", it, s.rnorm, zeta);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // NPB 3.4 CG verification: relative error of zeta at most 1e-10.
  const double err = std::fabs((zeta - cls->zeta) / cls->zeta);
  const bool ok = err <= 1e-10;
  // NPB's operation count per outer iteration: 2 na (3 + nonzer (nonzer + 1)
  // + 25 (5 + nonzer (nonzer + 1)) + 3).
  const double nz2 = double(cls->nonzer) * (cls->nonzer + 1);
  const double mops = 2.0 * cls->niter * n * (3.0 + nz2 + 25.0 * (5.0 + nz2) + 3.0) / seconds * 1e-6;
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("  zeta = %.13e (reference %.13e, relative error %.1e) on %s\n", zeta, cls->zeta, err,
              gpu ? "nvidia" : "host");
  std::printf("  time = %.4f s, Mop/s = %.2f\n  verification %s\n", seconds, mops, ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "cg: %s\n", e.what());
  return 1;
}
