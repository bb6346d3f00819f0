// Level 9: reductions at every loop position of Xu et al., "Reduction operations in parallel
// loops for GPGPUs" (OpenUH, 2016), for plus, multiplies, maximum and minimum over int, long,
// float and double, against sequential folds. The reduced loop has 0, 1, 31, 1000 (and for a
// few cases 10^6) iterations; the loops around it have 2 or 32.
//
// How Xu's positions map onto acc (a reduction inside a gang is acc::loop_reduce, whose result
// every thread of the gang or worker sees; a reduction across gangs is acc::parallel_reduce):
//   v    gang loop i { r = loop_reduce(g, acc::vector, n, op, x(i, k)); single(per_gang) out[i] = r }
//   w    the same with loop_reduce at acc::worker; out[i] written from a worker loop
//   wv   the same with loop_reduce at acc::worker_vector
//        (v, w and wv results are also read by every worker and lane of a worker_vector loop)
//   v in w (nested)  gang loop i { worker loop j { r = loop_reduce(g, acc::vector, n, ...);
//                    single(per_worker) out[i][j] = r } }
//   g, gw, gv, gwv   (across gangs) parallel_reduce(collapse(ni, n), op, x(i, k)), and
//                    parallel_reduce(ni, op, sequential fold of row i); inside acc::parallel,
//                    reduction(op, var) clauses whose gang-private copies take the v, w and wv
//                    results of the gang loop's iterations; and by hand: each gang folds the wv
//                    results into a gang-redundant local, single(per_gang) stores it, and the
//                    host combines the per-gang partials
//   sgwv (single-loop gwv)  parallel_reduce(n, num_gangs, num_workers, vector_length, op, x[k]):
//                    the clauses only configure the launch, the result does not depend on them
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/arrays.hpp"

namespace {

enum : int {
  kSeen = 40,          // width of the worker_vector loop that reads the v, w, wv results
  kMaxGangs = 1 << 16  // room for per-gang partials with the default num_gangs
};

// ---- the regions: one function template each (nvcc: no ACC_LAMBDA inside another lambda) ----

// v, w, wv in one gang loop over rows; g: per-gang partials of the wv results.
template <class T, class Op, class... Clauses>
void rows_in_gangs(acc::view<const T> x, int ni, int n, Op op, T id, acc::view<T> out_v, acc::view<T> out_w,
                   acc::view<T> out_wv, acc::view<T> seen, acc::view<T> partial, acc::view<int> gangs_used, T& gv,
                   T& gw, T& gwv, Clauses... clauses) {
  acc::parallel(clauses..., acc::reduction(op, gv), acc::reduction(op, gw), acc::reduction(op, gwv),
                ACC_LAMBDA(const acc::gang_t& g, T& red_gv, T& red_gw, T& red_gwv) {
    T part = id;  // gang-redundant: every thread of the gang holds the same value
    acc::loop(g, acc::gang, ni, [&](int i) {
      const long long row = static_cast<long long>(i) * n;
      const T rv = acc::loop_reduce(g, acc::vector, n, op, [&](int k) { return x[row + k]; });
      const T rw = acc::loop_reduce(g, acc::worker, n, op, [&](int k) { return x[row + k]; });
      const T rwv = acc::loop_reduce(g, acc::worker_vector, n, op, [&](int k) { return x[row + k]; });
      part = op(part, rwv);
      red_gv = op(red_gv, rv);  // the reduction clauses' gang-private copies, gang-redundant too
      red_gw = op(red_gw, rw);
      red_gwv = op(red_gwv, rwv);
      acc::single(g, acc::per_gang, [&] { out_v[i] = rv; });
      acc::loop(g, acc::worker, 1, [&](int) { out_w[i] = rw; });
      acc::single(g, acc::per_gang, [&] { out_wv[i] = rwv; });
      acc::loop(g, acc::worker_vector, int(kSeen), [&](int t) {
        seen[static_cast<long long>(i) * kSeen + t] = t % 3 == 0 ? rv : t % 3 == 1 ? rw : rwv;
      });
    });
    acc::single(g, acc::per_gang, [&] {
      if (g.gang_num() < kMaxGangs) partial[g.gang_num()] = part;
      if (g.gang_num() == 0) gangs_used[0] = g.num_gangs();
    });
  });
}

// Vector reduction inside a worker loop inside a gang loop: out[i * nj + j].
template <class T, class Op, class... Clauses>
void vector_in_worker(acc::view<const T> x, int ni, int nj, int n, Op op, acc::view<T> out, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, ni, [&](int i) {
      acc::loop(g, acc::worker, nj, [&](int j) {
        const long long row = (static_cast<long long>(i) * nj + j) * n;
        const T r = acc::loop_reduce(g, acc::vector, n, op, [&](int k) { return x[row + k]; });
        acc::single(g, acc::per_worker, [&] { out[static_cast<long long>(i) * nj + j] = r; });
      });
    });
  });
}

template <class T, class Op>
T across_collapse(acc::view<const T> x, int ni, int n, Op op) {
  return acc::parallel_reduce(acc::collapse(ni, n), op,
                              ACC_LAMBDA(int i, int k) { return x[static_cast<long long>(i) * n + k]; });
}

template <class T, class Op>
T across_rows(acc::view<const T> x, int ni, int n, Op op, T id) {
  return acc::parallel_reduce(ni, op, ACC_LAMBDA(int i) {
    T r = id;
    for (int k = 0; k < n; ++k) r = op(r, x[static_cast<long long>(i) * n + k]);
    return r;
  });
}

template <class T, class Op>
T single_loop(acc::view<const T> x, long long n, Op op, int gangs, int workers, int vector) {
  return acc::parallel_reduce(n, acc::num_gangs(gangs), acc::num_workers(workers), acc::vector_length(vector), op,
                              ACC_LAMBDA(long long k) { return x[k]; });
}

// ---- sequential references, written independently of the library's operators ----

template <class T> T ref_identity(acc::plus_t) { return T(0); }
template <class T> T ref_identity(acc::multiplies_t) { return T(1); }
// OpenACC's "least" and "largest": -inf and +inf where the type has them.
template <class T> T ref_identity(acc::maximum_t) {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
}
template <class T> T ref_identity(acc::minimum_t) {
  return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
}
template <class T> T ref_apply(acc::plus_t, T a, T b) { return a + b; }
template <class T> T ref_apply(acc::multiplies_t, T a, T b) { return a * b; }
template <class T> T ref_apply(acc::maximum_t, T a, T b) { return a < b ? b : a; }
template <class T> T ref_apply(acc::minimum_t, T a, T b) { return b < a ? b : a; }

template <class T, class Op>
T ref_fold(const T* p, std::size_t n, Op op, T init) {
  for (std::size_t k = 0; k < n; ++k) init = ref_apply<T>(op, init, p[k]);
  return init;
}

std::string op_name(acc::plus_t) { return "plus"; }
std::string op_name(acc::multiplies_t) { return "multiplies"; }
std::string op_name(acc::maximum_t) { return "maximum"; }
std::string op_name(acc::minimum_t) { return "minimum"; }

// Inputs for op: products stay exact (at most 24 factors of 2 or 1/2 in the whole buffer, the
// rest 1 or -1); float sums are multiples of 1/8 below 2^21 and so exact in any order; double
// sums are random reals (compared with a tolerance); maxima and minima are random.
template <class T, class Op>
void fill(T* b, std::size_t n, Op, unsigned seed) {
  std::mt19937 gen(seed);
  if constexpr (std::is_same_v<Op, acc::multiplies_t>) {
    std::uniform_int_distribution<int> sign(0, 9);
    for (std::size_t k = 0; k < n; ++k) b[k] = sign(gen) == 0 ? T(-1) : T(1);
    if (n) {
      std::uniform_int_distribution<std::size_t> pos(0, n - 1);
      for (int t = 0; t < 24; ++t) b[pos(gen)] = (std::is_floating_point_v<T> && t % 3 == 2) ? T(0.5) : T(2);
    }
  } else if constexpr (std::is_same_v<Op, acc::plus_t> && std::is_same_v<T, float>) {
    std::uniform_int_distribution<int> d(-8, 8);
    for (std::size_t k = 0; k < n; ++k) b[k] = static_cast<float>(d(gen)) / 8.0f;
  } else if constexpr (std::is_same_v<Op, acc::plus_t> && std::is_same_v<T, double>) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (std::size_t k = 0; k < n; ++k) b[k] = d(gen);
  } else if constexpr (std::is_same_v<Op, acc::plus_t>) {
    std::uniform_int_distribution<int> d(-100, 100);
    for (std::size_t k = 0; k < n; ++k) b[k] = static_cast<T>(d(gen));
  } else if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(T(-1000), T(1000));
    for (std::size_t k = 0; k < n; ++k) b[k] = d(gen);
  } else {
    std::uniform_int_distribution<long long> d(-1000000, 1000000);
    for (std::size_t k = 0; k < n; ++k) b[k] = static_cast<T>(d(gen));
  }
}

// Exact for integers; for float and double relative to the result, with a margin relative to
// the sum of magnitudes (a sum may cancel to nearly zero).
template <class T>
bool close(T got, T expect, double magnitude) {
  if constexpr (std::is_integral_v<T>) {
    return got == expect;
  } else {
    const double eps = std::is_same_v<T, float> ? 1e-5 : 1e-12;
    return Approx(static_cast<double>(expect)).epsilon(eps).margin(eps * magnitude) == static_cast<double>(got);
  }
}

template <class T>
double magnitude(const T* p, std::size_t n) {
  double s = 0;
  for (std::size_t k = 0; k < n; ++k) s += std::abs(static_cast<double>(p[k]));
  return s;
}

// Checks got[k] against the fold of row k (rows of len elements); one failure reported.
template <class T, class Op>
void check_rows(const char* what, const T* got, std::size_t stride, std::size_t rows, const T* x, std::size_t len,
                Op op) {
  for (std::size_t r = 0; r < rows; ++r) {
    const T* row = x + r * len;
    const T expect = ref_fold(row, len, op, ref_identity<T>(op));
    const T value = got[r * stride];
    if (!close(value, expect, magnitude(row, len))) {
      INFO(what << ": row " << r);
      CHECK(value == expect);
      return;
    }
  }
  SUCCEED(what);
}

struct config {
  int gangs, workers, vector;  // gangs 0: the default configuration
};

template <class T, class Op>
void check_rows_in_gangs(Op op, int ni, int n, config c, unsigned seed) {
  CAPTURE(op_name(op), ni, n, c.gangs, c.workers, c.vector);
  const std::size_t len = static_cast<std::size_t>(n);
  acc::array<T> x(static_cast<std::size_t>(ni) * len);
  fill(x.data(), x.size(), op, seed);
  const T junk = T(-77);
  acc::array<T> v = acc_test::filled(ni, junk), w = acc_test::filled(ni, junk), wv = acc_test::filled(ni, junk),
                seen = acc_test::filled(static_cast<std::size_t>(ni) * kSeen, junk);
  acc::array<T> partial = acc_test::filled(kMaxGangs, ref_identity<T>(op));
  acc::array<int> gangs_used = acc_test::filled(1, -1);
  const T id = ref_identity<T>(op);
  const T init = T(2);  // the variables' own value is folded in (OpenACC 3.3 §2.5.15)
  T gv = init, gw = init, gwv = init;
  if (c.gangs)
    rows_in_gangs<T>(x, ni, n, op, id, v, w, wv, seen, partial, gangs_used, gv, gw, gwv, acc::num_gangs(c.gangs),
                     acc::num_workers(c.workers), acc::vector_length(c.vector));
  else
    rows_in_gangs<T>(x, ni, n, op, id, v, w, wv, seen, partial, gangs_used, gv, gw, gwv);
  check_rows("v", v.data(), 1, ni, x.data(), len, op);
  check_rows("w", w.data(), 1, ni, x.data(), len, op);
  check_rows("wv", wv.data(), 1, ni, x.data(), len, op);
  for (int t = 0; t < kSeen; ++t) {
    INFO("result seen by iteration " << t << " of a worker_vector loop");
    check_rows("seen", seen.data() + t, kSeen, ni, x.data(), len, op);
  }
  // g inside acc::parallel: per-gang partials combined here
  if (c.gangs) REQUIRE(gangs_used[0] == c.gangs);
  REQUIRE(gangs_used[0] >= 1);
  REQUIRE(gangs_used[0] <= kMaxGangs);
  T total = ref_identity<T>(op);
  for (int k = 0; k < gangs_used[0]; ++k) total = ref_apply<T>(op, total, partial[k]);
  const T expect = ref_fold(x.data(), x.size(), op, ref_identity<T>(op));
  const double mag = magnitude(x.data(), x.size());
  INFO("g via per-gang partials: " << total << " vs " << expect);
  REQUIRE(close(total, expect, mag));
  // gv, gw, gwv with reduction clauses on acc::parallel
  const T with_init = ref_apply<T>(op, init, expect);
  const double mag_init = mag + 2;
  INFO("reduction clauses: gv " << gv << ", gw " << gw << ", gwv " << gwv << " vs " << with_init);
  REQUIRE(close(gv, with_init, mag_init));
  REQUIRE(close(gw, with_init, mag_init));
  REQUIRE(close(gwv, with_init, mag_init));
  // g / gw / gwv across gangs with parallel_reduce
  const T collapsed = across_collapse<T>(x, ni, n, op);
  INFO("collapse: " << collapsed);
  REQUIRE(close(collapsed, expect, mag));
  const T by_rows = across_rows<T>(x, ni, n, op, id);
  INFO("rows: " << by_rows);
  REQUIRE(close(by_rows, expect, mag));
}

template <class T, class Op>
void check_vector_in_worker(Op op, int ni, int nj, int n, config c, unsigned seed) {
  CAPTURE(op_name(op), ni, nj, n, c.gangs, c.workers, c.vector);
  const std::size_t len = static_cast<std::size_t>(n), rows = static_cast<std::size_t>(ni) * nj;
  // Host vectors through views in a data region; every element of out is written.
  std::vector<T> x(rows * len), out(rows, T(-77));
  fill(x.data(), x.size(), op, seed);
  {
    const acc::view<const T> vx(x.data(), x.size());
    const acc::view<T> vout(out.data(), out.size());
    acc::data region{acc::copyin(vx), acc::copyout(vout)};
    if (c.gangs)
      vector_in_worker(vx, ni, nj, n, op, vout, acc::num_gangs(c.gangs), acc::num_workers(c.workers),
                       acc::vector_length(c.vector));
    else
      vector_in_worker(vx, ni, nj, n, op, vout);
  }
  check_rows("v in w", out.data(), 1, rows, x.data(), len, op);
}

template <class T, class Op>
void check_single_loop(Op op, long long n, config c, unsigned seed) {
  CAPTURE(op_name(op), n, c.gangs, c.workers, c.vector);
  acc::array<T> x(static_cast<std::size_t>(n));
  fill(x.data(), x.size(), op, seed);
  const T got = single_loop<T>(x, n, op, c.gangs ? c.gangs : 1, c.workers ? c.workers : 1,
                            c.vector ? c.vector : 128);
  const T expect = ref_fold(x.data(), x.size(), op, ref_identity<T>(op));
  INFO("sgwv: " << got << " vs " << expect);
  REQUIRE(close(got, expect, magnitude(x.data(), x.size())));
}

const config configs[] = {{0, 0, 0}, {1, 1, 1}, {3, 2, 24}, {2, 4, 33}, {5, 1, 100}, {4, 3, 32}};

template <class F>
void for_each_op(F f) {
  f(acc::plus);
  f(acc::multiplies);
  f(acc::maximum);
  f(acc::minimum);
}

}  // namespace

TEMPLATE_TEST_CASE("v, w, wv and g reductions over rows in a gang loop", "[09][loop_reduce]", int, long, float,
                   double) {
  const int n = GENERATE(0, 1, 31, 1000);
  const int ni = GENERATE(2, 32);
  unsigned seed = 9000u + 7u * n + ni;
  for (const config& c : configs)
    for_each_op([&](auto op) { check_rows_in_gangs<TestType>(op, ni, n, c, ++seed); });
}

TEMPLATE_TEST_CASE("a vector reduction in a worker loop in a gang loop", "[09][loop_reduce]", int, long, float, double) {
  const int n = GENERATE(0, 1, 31, 1000);
  const int ni = GENERATE(2, 32);
  const int nj = GENERATE(2, 32);
  unsigned seed = 9100u + 13u * n + 3u * ni + nj;
  for (const config& c : configs)
    for_each_op([&](auto op) { check_vector_in_worker<TestType>(op, ni, nj, n, c, ++seed); });
}

TEMPLATE_TEST_CASE("a single-loop gwv reduction ignores the launch configuration", "[09][parallel_reduce]", int, long,
                   float, double) {
  const long long n = GENERATE(0, 1, 31, 1000, 4099);
  unsigned seed = 9200u + static_cast<unsigned>(n);
  for (const config& c : configs)
    for_each_op([&](auto op) { check_single_loop<TestType>(op, n, c, ++seed); });
}

TEST_CASE("reductions over 10^6 iterations at each position", "[09][loop_reduce][large]") {
  const int n = 1000000;
  const config c = GENERATE(config{0, 0, 0}, config{3, 4, 96}, config{2, 2, 33});
  check_rows_in_gangs<int>(acc::plus, 2, n, c, 9301u);
  check_rows_in_gangs<double>(acc::plus, 2, n, c, 9302u);
  check_rows_in_gangs<float>(acc::maximum, 2, n, c, 9303u);
  check_vector_in_worker<long>(acc::minimum, 2, 2, n, c, 9304u);
  check_vector_in_worker<float>(acc::plus, 2, 2, n, c, 9305u);
  check_single_loop<double>(acc::multiplies, n, c, 9306u);
  check_single_loop<long>(acc::plus, 4 * n + 1, c, 9307u);
}
