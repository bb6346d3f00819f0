// NPB CG (Conjugate Gradient), after the NAS Parallel Benchmarks 3.x OpenMP/OpenACC versions:
// inverse power iteration for the smallest eigenvalue of a random sparse symmetric positive
// definite matrix, each step solving A z = x approximately by 25 unpreconditioned CG
// iterations; zeta = shift + 1 / (x . z) is checked against NPB's published value.
//   cg [S|W|A|B|C] [fast|plain]   (default S; fast on a GPU, plain on the host)
// Written for acc from the NPB 3.4 specification of CG (NAS technical reports RNR-94-007 and
// NAS-95-020), not from NPB's sources; constants and verification values are NPB's. The
// matrix is generated on the host, untimed, as in NPB; the timed part runs on the device.
// Class C's parameters and zeta are NPB 3.4's (npbparams / cg.f verification table, also in
// GMAP/NPB-GPU CUDA/CG/cg.cu).
#include <acc/parallel.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
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
    {'C', 150000, 15, 75, 110.0, 28.973605592845},
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

/// NPB's conj_grad, straightforward form (`cg CLASS plain`): 25 CG iterations on A z = x from
/// z = 0; returns ||x - A z||. One thread per row for the matrix-vector products, and each dot
/// product a parallel_reduce whose value comes back to the host before the next construct.
/// The vector updates ride in the reductions that follow them (one pass instead of NPB's two).
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

// --- The fast form (the default on a GPU) -------------------------------------------------------
// Two changes against the straightforward form, both expressible in OpenACC:
// - Matrix-vector products with a worker (one warp of 32 vector lanes) per row and a vector
//   reduction along it (`loop gang` / `loop worker reduction(+)` / `loop vector reduction(+)`):
//   a warp reads a row's ~200 nonzeros in whole cache lines, where a thread per row makes each
//   load of a warp touch 32 lines of 32 different rows.
// - No host round trip inside a power step: each dot product leaves one partial sum per gang
//   in a device array, and what needs its value adds the partials up on the device; everything
//   goes on one async queue, and the host waits once per power step, for the two numbers it
//   prints. The dot product p . q rides in the product that makes q, r . r in the update of z
//   and r.
// Gangs of the products are small (a few rows per worker), so that the last wave of gangs is
// short whatever the device; their many partials are added up once, by a one-gang construct
// that leaves alpha for the update. The updates' fewer partials (one per 256 elements) are
// added up redundantly by every gang that needs them, which costs less than a launch.
// A CG iteration is then four kernels and no wait (the plain form: six kernels, two waits).
// On the host the fast form computes the same thing in the same order, only with more loop
// bookkeeping per nonzero, so there the plain form is the default.

constexpr int queue = 1;
constexpr int row_workers = 8;     // workers (warps) of a product's gang, one row at a time each
constexpr int rows_per_worker = 4;  // loop_reduce keeps four rows of a worker in flight
constexpr int row_lanes = 32;       // vector lanes along a row: one warp
constexpr int vector_lanes = 256;   // lanes of the vector updates' gangs: one element each
constexpr int total_lanes = 512;    // lanes of the one gang that adds up a product's partials

/// How the fast form splits rows and elements over gangs, and its device arrays: partial sums
/// (one per gang of the construct that makes them) and the scalars the constructs pass on.
struct fast_plan {
  int n;
  int row_gangs, vector_gangs;
  acc::array<double> pq, rho, rnorm, xz, zz;  // partials
  acc::array<double> scalars;  // alpha and rho of the current CG iteration
  acc::array<double> result;   // ||x - A z||^2 and x . z, for the host

  static constexpr int rows_per_gang = row_workers * rows_per_worker;
  explicit fast_plan(int n_)
      : n(n_), row_gangs((n_ + rows_per_gang - 1) / rows_per_gang),
        vector_gangs((n_ + vector_lanes - 1) / vector_lanes), pq("pq_partials", row_gangs),
        rho("rho_partials", vector_gangs), rnorm("rnorm_partials", row_gangs), xz("xz_partials", vector_gangs),
        zz("zz_partials", vector_gangs), scalars("alpha_rho", 2), result("result", 2) {}
};

/// Sum of a dot product's partials, in the same order in every gang that asks (so every gang
/// derives the same value). Collective: every thread of the gang calls it.
ACC_ROUTINE inline double total(const acc::gang_t& g, const acc::view<const double>& part) {
  return acc::loop_reduce(g, acc::vector, int(part.size()), acc::plus, [&](int i) { return part[i]; });
}

/// Epilogues of the fused product: what row j adds to its gang's partial sum.
struct times_row {  // p . q
  acc::view<const double> w;
  ACC_ROUTINE double operator()(int j, double row) const { return w[j] * row; }
};
struct residual_squared {  // ||x - A z||^2
  acc::view<const double> x;
  ACC_ROUTINE double operator()(int j, double row) const {
    const double d = x[j] - row;
    return d * d;
  }
};

/// out = A v, and part[b] = the sum of e(j, (A v)_j) over gang b's rows.
template <class Epilogue>
void product_and_dot(const csr_view& m, const fast_plan& f, const acc::view<const double>& v,
                     const acc::array<double>& out, Epilogue e, const acc::array<double>& part) {
  const int n = f.n, gangs = f.row_gangs, rows = f.rows_per_gang;
  acc::parallel(acc::num_gangs(gangs), acc::num_workers(row_workers), acc::vector_length(row_lanes),
                acc::default_present, acc::async(queue), ACC_LAMBDA(const acc::gang_t& g) {
                  acc::loop(g, acc::gang, gangs, [&](int b) {
                    const int lo = b * rows, hi = std::min(n, lo + rows);
                    const double d = acc::loop_reduce(g, acc::worker, acc::range(lo, hi), acc::plus, [&](int j) {
                      const double s = acc::loop_reduce(g, acc::vector, acc::range(m.rowstr[j], m.rowstr[j + 1]),
                                                        acc::plus, [&](int k) { return m.a[k] * v[m.colidx[k]]; });
                      out[j] = s;
                      return e(j, s);
                    });
                    acc::single(g, acc::per_gang, [&] { part[b] = d; });
                  });
                });
}

/// conj_grad as the fast form runs it: queued, nothing comes back to the host.
void conj_grad_fast(const csr_view& m, const fast_plan& f, const acc::array<double>& x, const acc::array<double>& z,
                    const acc::array<double>& p, const acc::array<double>& q, const acc::array<double>& r) {
  const int n = f.n, gangs = f.vector_gangs;
  const acc::array<double>&rho = f.rho, &scalars = f.scalars;
  acc::parallel(acc::num_gangs(gangs), acc::vector_length(vector_lanes), acc::default_present, acc::async(queue),
                ACC_LAMBDA(const acc::gang_t& g) {
                  acc::loop(g, acc::gang, gangs, [&](int b) {
                    const int lo = b * vector_lanes, hi = std::min(n, lo + vector_lanes);
                    const double d = acc::loop_reduce(g, acc::vector, acc::range(lo, hi), acc::plus, [&](int j) {
                      z[j] = 0.0;
                      r[j] = x[j];
                      p[j] = x[j];
                      return x[j] * x[j];
                    });
                    acc::single(g, acc::per_gang, [&] { rho[b] = d; });
                  });
                });
  const acc::view<const double> pr = p, pq_part = f.pq, rho_part = f.rho;
  for (int it = 0; it < cg_iterations; ++it) {
    product_and_dot(m, f, pr, q, times_row{p}, f.pq);
    // alpha = rho / (p . q); rho (from the partials of the last update) kept for beta.
    acc::parallel(acc::num_gangs(1), acc::vector_length(total_lanes), acc::default_present, acc::async(queue),
                  ACC_LAMBDA(const acc::gang_t& g) {
                    const double pq = total(g, pq_part), rho0 = total(g, rho_part);
                    acc::single(g, acc::per_gang, [&] {
                      scalars[0] = rho0 / pq;
                      scalars[1] = rho0;
                    });
                  });
    acc::parallel(acc::num_gangs(gangs), acc::vector_length(vector_lanes), acc::default_present,
                  acc::async(queue), ACC_LAMBDA(const acc::gang_t& g) {
                    const double alpha = scalars[0];
                    acc::loop(g, acc::gang, gangs, [&](int b) {
                      const int lo = b * vector_lanes, hi = std::min(n, lo + vector_lanes);
                      const double d = acc::loop_reduce(g, acc::vector, acc::range(lo, hi), acc::plus, [&](int j) {
                        z[j] += alpha * p[j];
                        const double rj = r[j] - alpha * q[j];
                        r[j] = rj;
                        return rj * rj;
                      });
                      acc::single(g, acc::per_gang, [&] { rho[b] = d; });
                    });
                  });
    acc::parallel(acc::num_gangs(gangs), acc::vector_length(vector_lanes), acc::default_present,
                  acc::async(queue), ACC_LAMBDA(const acc::gang_t& g) {
                    const double beta = total(g, rho_part) / scalars[1];
                    acc::loop(g, acc::gang, gangs, [&](int b) {
                      const int lo = b * vector_lanes, hi = std::min(n, lo + vector_lanes);
                      acc::loop(g, acc::vector, acc::range(lo, hi), [&](int j) { p[j] = r[j] + beta * p[j]; });
                    });
                  });
  }
  product_and_dot(m, f, acc::view<const double>(z), r, residual_squared{x}, f.rnorm);
}

/// power_step as the fast form runs it; the host waits once, for the two numbers it returns.
step_result power_step_fast(const csr_view& m, const fast_plan& f, const acc::array<double>& x,
                            const acc::array<double>& z, const acc::array<double>& p, const acc::array<double>& q,
                            const acc::array<double>& r) {
  conj_grad_fast(m, f, x, z, p, q, r);
  const int n = f.n, gangs = f.vector_gangs;
  const acc::array<double>&xz = f.xz, &zz = f.zz, &result = f.result;
  acc::parallel(acc::num_gangs(gangs), acc::vector_length(vector_lanes), acc::default_present, acc::async(queue),
                ACC_LAMBDA(const acc::gang_t& g) {
                  acc::loop(g, acc::gang, gangs, [&](int b) {
                    const int lo = b * vector_lanes, hi = std::min(n, lo + vector_lanes);
                    const acc::range_t<int> mine = acc::range(lo, hi);
                    const double dxz = acc::loop_reduce(g, acc::vector, mine, acc::plus,
                                                        [&](int j) { return x[j] * z[j]; });
                    const double dzz = acc::loop_reduce(g, acc::vector, mine, acc::plus,
                                                        [&](int j) { return z[j] * z[j]; });
                    acc::single(g, acc::per_gang, [&] {
                      xz[b] = dxz;
                      zz[b] = dzz;
                    });
                  });
                });
  const acc::view<const double> zz_part = zz, xz_part = xz, rnorm_part = f.rnorm;
  acc::parallel(acc::num_gangs(gangs), acc::vector_length(vector_lanes), acc::default_present, acc::async(queue),
                ACC_LAMBDA(const acc::gang_t& g) {
                  const double scale = 1.0 / std::sqrt(total(g, zz_part));
                  acc::loop(g, acc::gang, gangs, [&](int b) {
                    const int lo = b * vector_lanes, hi = std::min(n, lo + vector_lanes);
                    acc::loop(g, acc::vector, acc::range(lo, hi), [&](int j) { x[j] = scale * z[j]; });
                    if (b == 0) {  // the same branch for the whole gang: total() is collective
                      const double rn = total(g, rnorm_part), dxz = total(g, xz_part);
                      acc::single(g, acc::per_gang, [&] {
                        result[0] = rn;
                        result[1] = dxz;
                      });
                    }
                  });
                });
  acc::update_self(result, acc::async(queue));
  acc::wait(queue);
  return {result[1], std::sqrt(result[0])};
}

const cg_class* find_class(const char* arg) {
  for (const cg_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) try {
  const cg_class* cls = find_class(argc > 1 ? argv[1] : "S");
  const char* form = argc > 2 ? argv[2] : "";
  if (!cls || argc > 3 || (argc > 2 && std::strcmp(form, "plain") != 0 && std::strcmp(form, "fast") != 0)) {
    std::fprintf(stderr, "usage: %s [S|W|A|B|C] [fast|plain]\n", argv[0]);
    return 2;
  }
  // By default the form that is faster where the program runs: on the host a thread takes whole
  // rows anyway, and the plain form's simpler loops run about 1.5x faster there.
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  const bool plain = argc > 2 ? std::strcmp(form, "plain") == 0 : !gpu;
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
  const fast_plan f(n);

  acc::data region{acc::copyin(rowstr), acc::copyin(colidx), acc::copyin(a), acc::create(x),
                   acc::create(z),      acc::create(p),      acc::create(q), acc::create(r)};
  acc::data partials{acc::create(f.pq), acc::create(f.rho),     acc::create(f.rnorm), acc::create(f.xz),
                     acc::create(f.zz), acc::create(f.scalars), acc::create(f.result)};
  auto reset = [&] {
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int j) { x[j] = 1.0; });
  };
  auto step = [&] { return plain ? power_step(m, n, x, z, p, q, r) : power_step_fast(m, f, x, z, p, q, r); };

  // NPB runs one untimed step to touch every page (here also: load the kernels), then restarts.
  reset();
  step();
  reset();

  std::printf("NPB CG class %c (%s form): na = %d, nonzer = %d, niter = %d, shift = %g, nonzeros = %zu\n",
              cls->name, plain ? "plain" : "fast", n, cls->nonzer, cls->niter, cls->shift, nnz);
  std::printf("   iteration           ||r||                 zeta\n");
  const auto start = std::chrono::steady_clock::now();
  double zeta = 0.0;
  for (int it = 1; it <= cls->niter; ++it) {
    const step_result s = step();
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
  std::printf("  zeta = %.13e (reference %.13e, relative error %.1e) on %s\n", zeta, cls->zeta, err,
              gpu ? "nvidia" : "host");
  std::printf("  time = %.4f s, Mop/s = %.2f\n  verification %s\n", seconds, mops, ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "cg: %s\n", e.what());
  return 1;
}
