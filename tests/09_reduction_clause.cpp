// Level 9: the reduction clause on parallel_loop and parallel (OpenACC V&V-style cases): several variables
// of mixed types, the variables' own values folded in, collapse, every backend.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "support/arrays.hpp"

namespace {
template <class... Clauses>
void sum_max_count(int n, acc::view<const double> x, double& sum, double& mx, long& count, Clauses... clauses) {
  acc::parallel_loop(n, clauses..., acc::reduction(acc::plus, sum), acc::reduction(acc::maximum, mx),
                     acc::reduction(acc::plus, count), ACC_LAMBDA(int i, double& s, double& m, long& c) {
                       s += x[i];
                       m = m < x[i] ? x[i] : m;
                       if (x[i] > 0.5) ++c;
                     });
}
}  // namespace

TEST_CASE("reduction clauses of mixed types fold into the variables' values", "[09][reduction]") {
  const int n = GENERATE(0, 1, 31, 1000, 100003);
  acc::array<double> x(n + 1);
  acc_test::fill_random(x, 17u, 0.0, 1.0);
  double sum = 2.5, mx = -1.0, esum = 2.5, emx = -1.0;
  long count = 7, ecount = 7;
  for (int i = 0; i < n; ++i) esum += x[i], emx = std::max(emx, x[i]), ecount += x[i] > 0.5;
  // Checked inside each section, so that every section asserts something.
  const auto check = [&] {
    REQUIRE(sum == Approx(esum).epsilon(1e-12));
    REQUIRE(mx == emx);
    REQUIRE(count == ecount);
  };
  SECTION("default configuration") {
    sum_max_count(n, x, sum, mx, count);
    check();
  }
  SECTION("few gangs and odd vectors") {
    sum_max_count(n, x, sum, mx, count, acc::num_gangs(3), acc::vector_length(33));
    check();
  }
  SECTION("on the host") {
    sum_max_count(n, x, sum, mx, count, acc::if_(false));
    check();
  }
}

namespace {
// && and || of an original value other than 0 and 1, over n iterations that each give `v`.
void logical_ops(int n, int v, int& any, int& all) {
  acc::parallel_loop(n, acc::reduction(acc::logical_or, any), acc::reduction(acc::logical_and, all),
                     ACC_LAMBDA(int, int& o, int& a) {
                       o = o || v;
                       a = a && v;
                     });
}
}  // namespace

TEST_CASE("the variable's original value is combined with the operator even over no iterations", "[09][reduction]") {
  // OpenACC combines the original value with the private copies: 2 || ... is 1, 2 && ... is 0
  // or 1, whether or not the loop has iterations (acc::parallel and loop_reduce already do).
  for (const int n : {0, 1, 7}) {
    for (const int v : {0, 3}) {
      INFO("n = " << n << ", v = " << v);
      int any = 2, all = 2;
      logical_ops(n, v, any, all);
      REQUIRE(any == 1);
      REQUIRE(all == (n == 0 || v != 0 ? 1 : 0));
    }
  }
}

namespace {
void collapse_sum(int ni, int nj, long long& s, int& bits) {
  acc::parallel_loop(acc::collapse(ni, nj), acc::reduction(acc::plus, s), acc::reduction(acc::bit_or, bits),
                     ACC_LAMBDA(int i, int j, long long& acc_s, int& b) {
                       acc_s += static_cast<long long>(i) * 1000 + j;
                       b |= 1 << ((i + j) % 31);
                     });
}
}  // namespace

TEST_CASE("reductions over collapsed loops", "[09][reduction]") {
  const auto [ni, nj] = GENERATE(table<int, int>({{1, 1}, {3, 7}, {64, 33}, {1000, 999}}));
  long long s = 0, es = 0;
  int bits = 0, ebits = 0;
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) es += static_cast<long long>(i) * 1000 + j, ebits |= 1 << ((i + j) % 31);
  collapse_sum(ni, nj, s, bits);
  REQUIRE(s == es);
  REQUIRE(bits == ebits);
}

namespace {
// One reduction clause: on a GPU it runs parallel_reduce's kernels (the private copy starts at
// the identity for every iteration), so the body may update it in any of the usual ways.
template <class... Clauses>
void dot_max(std::intptr_t n, acc::view<const double> a, acc::view<const double> b, double& dot, double& mx,
             Clauses... clauses) {
  acc::parallel_loop(n, clauses..., acc::reduction(acc::plus, dot),
                     ACC_LAMBDA(std::intptr_t i, double& s) { s += a[i] * b[i]; });
  acc::parallel_loop(n, clauses..., acc::reduction(acc::maximum, mx), ACC_LAMBDA(std::intptr_t i, double& m) {
    if (a[i] - b[i] > m) m = a[i] - b[i];
  });
}

void collapse_count(int ni, int nj, int nk, long& count) {
  acc::parallel_loop(acc::collapse(ni, nj, nk), acc::reduction(acc::plus, count),
                     ACC_LAMBDA(int i, int j, int k, long& c) { c += (i * 7 + j * 3 + k) % 5 == 0 ? 1 : 0; });
}
}  // namespace

TEST_CASE("a single reduction clause over a 64-bit index folds into the variable", "[09][reduction]") {
  const std::intptr_t n = GENERATE(1, 255, 256, 257, 100003, (1 << 20) + 3);
  acc::array<double> a(n), b(n);
  acc_test::fill_random(a, 5u, -1.0, 1.0);
  acc_test::fill_random(b, 6u, -1.0, 1.0);
  double edot = 1.5, emx = -0.25;
  for (std::intptr_t i = 0; i < n; ++i) edot += a[i] * b[i], emx = std::max(emx, a[i] - b[i]);
  double dot = 1.5, mx = -0.25;
  const auto check = [&] {
    REQUIRE(dot == Approx(edot).epsilon(1e-10).margin(1e-9));
    REQUIRE(mx == emx);
  };
  SECTION("default configuration") {
    dot_max(n, a, b, dot, mx);
    check();
  }
  SECTION("few gangs and odd vectors") {
    // Both constructs find a and b present: copied in once, by the region.
    acc::data region{acc::copyin(a), acc::copyin(b)};
    dot_max(n, a, b, dot, mx, acc::num_gangs(5), acc::vector_length(40));
    check();
  }
}

TEST_CASE("a single reduction clause over a collapsed nest counts every point", "[09][reduction]") {
  const auto [ni, nj, nk] = GENERATE(table<int, int, int>({{1, 1, 1}, {3, 5, 7}, {33, 17, 129}}));
  long count = 11, ecount = 11;
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j)
      for (int k = 0; k < nk; ++k) ecount += (i * 7 + j * 3 + k) % 5 == 0 ? 1 : 0;
  collapse_count(ni, nj, nk, count);
  REQUIRE(count == ecount);
}

TEST_CASE("a serial host reduction is the sequential loop to the bit", "[09][reduction]") {
  // Only the serial backend promises this (it updates the variable in order); OpenMP and GPUs
  // group the additions differently.
  const int n = 10007;
  acc::array<float> x(n);
  acc_test::fill_random(x, 5u, -1.0f, 1.0f);
  float s = 0.25f, e = 0.25f;
  for (int i = 0; i < n; ++i) e += x[i];
  const acc::view<const float> p = x;
  acc::parallel_loop(n, acc::num_gangs(1), acc::if_(false), acc::reduction(acc::plus, s),
                     ACC_LAMBDA(int i, float& v) { v += p[i]; });
#if !defined(_OPENMP)
  REQUIRE(s == e);
#else
  REQUIRE(s == Approx(e).epsilon(1e-4));
#endif
}

// ---- reduction clauses on acc::parallel: one private copy per gang ----

namespace {
// Every gang takes rows i = gang, gang + num_gangs, ...; each row's sum comes from a vector
// loop_reduce and its maximum from a worker one; the row count is bumped in single(per_gang).
template <class... Clauses>
void region_rows(acc::view<const double> x, int ni, int n, double& sum, double& mx, long& rows,
                 acc::loc_t<double, int>& where, Clauses... clauses) {
  acc::parallel(clauses..., acc::reduction(acc::plus, sum), acc::reduction(acc::maximum, mx),
                acc::reduction(acc::plus, rows), acc::reduction(acc::max_loc, where),
                ACC_LAMBDA(const acc::gang_t& g, double& s, double& m, long& r, acc::loc_t<double, int>& w) {
                  acc::loop(g, acc::gang, ni, [&](int i) {
                    const long long row = static_cast<long long>(i) * n;
                    s += acc::loop_reduce(g, acc::vector, n, acc::plus, [&](int k) { return x[row + k]; });
                    const double rm =
                        acc::loop_reduce(g, acc::worker, n, acc::maximum, [&](int k) { return x[row + k]; });
                    m = acc::maximum(m, rm);  // the operator objects are callable in bodies, on a GPU too
                    w = acc::max_loc(w, acc::loc(rm, i));
                    acc::single(g, acc::per_gang, [&] { ++r; });
                  });
                });
}
}  // namespace

TEST_CASE("reduction clauses on a parallel region take one value per gang", "[09][reduction][region]") {
  const auto [ni, n] = GENERATE(table<int, int>({{0, 5}, {1, 1}, {7, 0}, {31, 33}, {1000, 17}, {5003, 3}}));
  acc::array<double> x(static_cast<std::size_t>(ni) * n + 1);
  acc_test::fill_random(x, 23u, -1.0, 1.0);
  double esum = 1.5, emx = -2.0;
  long erows = 4;
  acc::loc_t<double, int> ewhere = acc::loc(-5.0, -1);
  for (int i = 0; i < ni; ++i) {
    double rs = 0, rm = std::numeric_limits<double>::lowest();
    for (int k = 0; k < n; ++k) rs += x[std::size_t(i) * n + k], rm = std::max(rm, x[std::size_t(i) * n + k]);
    esum += rs, emx = std::max(emx, rm), ++erows;
    if (rm > ewhere.value) ewhere = acc::loc(rm, i);
  }
  double sum = 1.5, mx = -2.0;
  long rows = 4;
  acc::loc_t<double, int> where = acc::loc(-5.0, -1);
  // Checked inside each section, so that every section asserts something.
  const auto check = [&] {
    REQUIRE(sum == Approx(esum).epsilon(1e-12).margin(1e-9));
    REQUIRE(mx == emx);
    REQUIRE(rows == erows);
    REQUIRE(where.value == ewhere.value);
    REQUIRE(where.index == ewhere.index);
  };
  SECTION("default configuration") {
    region_rows(x, ni, n, sum, mx, rows, where);
    check();
  }
  SECTION("more gangs than rows, workers and odd vectors") {
    region_rows(x, ni, n, sum, mx, rows, where, acc::num_gangs(300), acc::num_workers(3),
                acc::vector_length(45));
    check();
  }
  SECTION("thousands of gangs") {
    region_rows(x, ni, n, sum, mx, rows, where, acc::num_gangs(4099));
    check();
  }
  SECTION("async is waited for") {
    region_rows(x, ni, n, sum, mx, rows, where, acc::async(3));
    check();
  }
  SECTION("on the host") {
    region_rows(x, ni, n, sum, mx, rows, where, acc::if_(false), acc::num_gangs(5));
    check();
  }
}

namespace {
// A user operator with an identity: the first and last row index a gang saw, as a span.
struct span_t {
  int lo, hi;
};
struct widen {
  ACC_ROUTINE span_t operator()(span_t a, span_t b) const { return {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi}; }
  ACC_ROUTINE span_t identity() const { return {1 << 30, -(1 << 30)}; }
};

float region_float_sum(acc::view<const float> x, int n, int gangs) {
  float s = 0;
  acc::parallel(acc::num_gangs(gangs), acc::reduction(acc::plus, s), ACC_LAMBDA(const acc::gang_t& g, float& t) {
    acc::loop(g, acc::gang, n, [&](int i) { t += x[i]; });
  });
  return s;
}

span_t region_span(int n, int gangs) {
  span_t r = widen{}.identity();
  acc::parallel(acc::num_gangs(gangs), acc::reduction(widen{}, r), ACC_LAMBDA(const acc::gang_t& g, span_t& s) {
    acc::loop(g, acc::gang, n, [&](int i) { s = widen{}(s, span_t{i, i}); });
  });
  return r;
}
}  // namespace

TEST_CASE("region reductions: user operators, and float results fixed from run to run", "[09][reduction][region]") {
  const int n = GENERATE(1, 97, 100003);
  const int gangs = GENERATE(1, 13, 1024);
  const span_t s = region_span(n, gangs);
  REQUIRE(s.lo == 0);
  REQUIRE(s.hi == n - 1);
  acc::array<float> x(n);
  acc_test::fill_random(x, 31u, -1.0f, 1.0f);
  const float first = region_float_sum(x, n, gangs);
  double e = 0;
  for (int i = 0; i < n; ++i) e += x[i];
  REQUIRE(first == Approx(e).epsilon(1e-4).margin(1e-3));
  for (int r = 0; r < 3; ++r) REQUIRE(region_float_sum(x, n, gangs) == first);
}

namespace {
// Trivially copyable without a default constructor: private copies start from identity().
struct extent_1d {
  int lo, hi;
  ACC_ROUTINE constexpr extent_1d(int l, int h) : lo(l), hi(h) {}
};
static_assert(std::is_trivially_copyable_v<extent_1d> && !std::is_default_constructible_v<extent_1d>);
struct cover {
  ACC_ROUTINE extent_1d operator()(extent_1d a, extent_1d b) const {
    return {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  }
  ACC_ROUTINE extent_1d identity() const { return {1 << 30, -(1 << 30)}; }
};
}  // namespace

TEST_CASE("a type without a default constructor reduces through the clause", "[09][reduction][user]") {
  const int n = GENERATE(1, 2, 257, 100003);
  auto key = [](int i) { return int((i * 7919LL) % 10007) - 5000; };
  extent_1d expect{-7, -7};
  for (int i = 0; i < n; ++i) expect = cover{}(expect, extent_1d{key(i), key(i)});
  extent_1d r{-7, -7};  // folded in, as OpenACC folds the variable's own value
  acc::parallel_loop(n, acc::reduction(cover{}, r), ACC_LAMBDA(int i, extent_1d& e) {
    const int k = int((i * 7919LL) % 10007) - 5000;
    e = cover{}(e, extent_1d{k, k});
  });
  REQUIRE(r.lo == expect.lo);
  REQUIRE(r.hi == expect.hi);
}

TEST_CASE("a loop with reductions checks its launch shape as a plain loop does", "[09][reduction][errors]") {
  double s = 0;
  auto body = ACC_LAMBDA(int i, double& p) { p += i; };
  REQUIRE_THROWS_WITH(acc::parallel_loop(8, acc::vector_length(0), acc::reduction(acc::plus, s), body),
                      Catch::Contains("acc::parallel_loop at 09_reduction_clause.cpp:") &&
                          Catch::Contains("vector_length(0) must be at least 1"));
  REQUIRE(s == 0);
}

// The host has no thread limit per gang.
TEST_CASE("a loop with reductions beyond the GPU's threads per gang throws bad_clause", "[09][reduction][errors][gpu]") {
  double s = 0;
  auto body = ACC_LAMBDA(int i, double& p) { p += i; };
  REQUIRE_THROWS_AS(acc::parallel_loop(8, acc::vector_length(4096), acc::reduction(acc::plus, s), body),
                    acc::bad_clause);
  REQUIRE_THROWS_WITH(
      acc::parallel_loop(8, acc::vector_length(512), acc::num_workers(4), acc::reduction(acc::plus, s), body),
      Catch::Contains("2048 threads per gang"));
  REQUIRE(s == 0);
}

#if defined(__CUDACC__)
#  include <acc/backend/cuda/single_pass.hpp>

#  include <thread>
#  include <vector>

namespace {
// A GPU reduction runs as one kernel whose last block combines the blocks (the default) or as
// a block kernel and a combining kernel; these cases run both, which a GPU run of the other
// cases would not.
struct restore_single_pass {
  ~restore_single_pass() { acc::detail::cuda::single_pass_reductions = true; }
};

struct float_stats {
  float sum;
  double max;
  long count;
  float reduced;  // parallel_reduce's sum
  bool operator==(const float_stats&) const = default;
};

float_stats stats_of(acc::view<const float> x, int n, int shape, int queue = 0) {
  float_stats r{0.5f, -3.0, 2, 0};
  auto body = ACC_LAMBDA(int i, float& s, double& m, long& c) {
    s += x[i];
    m = m < x[i] ? x[i] : m;
    if (x[i] > 0) ++c;
  };
  auto value = ACC_LAMBDA(int i) { return x[i]; };
  const auto on = [&](auto... clauses) {
    acc::parallel_loop(n, clauses..., acc::reduction(acc::plus, r.sum), acc::reduction(acc::maximum, r.max),
                       acc::reduction(acc::plus, r.count), body);
    r.reduced = acc::parallel_reduce(n, clauses..., acc::plus, value);
  };
  if (queue) {
    on(acc::async(queue));
    acc::wait(queue);
  } else if (shape == 0) {
    on();
  } else if (shape == 1) {
    on(acc::num_gangs(3), acc::vector_length(33));
  } else {
    on(acc::num_gangs(1));
  }
  return r;
}
}  // namespace

TEST_CASE("single-pass and two-kernel GPU reductions give the same values, call after call", "[09][reduction][gpu]") {
  const int n = GENERATE(1, 2, 97, 65537, 1000003);
  acc::array<float> x(n);
  acc_test::fill_random(x, 41u, -1.0f, 1.0f);
  double esum = 0.5, emx = -3.0;
  long ecount = 2;
  for (int i = 0; i < n; ++i) esum += x[i], emx = std::max(emx, double(x[i])), ecount += x[i] > 0;
  restore_single_pass restore;
  for (int shape = 0; shape < 3; ++shape) {
    float_stats first[2];
    for (int form = 0; form < 2; ++form) {
      acc::detail::cuda::single_pass_reductions = form == 0;
      first[form] = stats_of(x, n, shape);
      REQUIRE(first[form].sum == Approx(esum).epsilon(1e-4).margin(1e-3));
      REQUIRE(first[form].reduced == Approx(esum - 0.5).epsilon(1e-4).margin(1e-3));
      REQUIRE(first[form].max == emx);
      REQUIRE(first[form].count == ecount);
      // The last block resets its ticket: every later call finds it at zero again.
      for (int rep = 0; rep < 3; ++rep) REQUIRE(stats_of(x, n, shape) == first[form]);
    }
    // Without clauses both forms combine the partials in blocks of the same size.
    if (shape == 0) REQUIRE(first[0] == first[1]);
  }
}

TEST_CASE("single-pass GPU reductions of several host threads on their own queues do not mix", "[09][reduction][gpu]") {
  const int n = 300007;
  acc::array<float> x(n);
  acc_test::fill_random(x, 43u, -1.0f, 1.0f);
  const float_stats expected = stats_of(x, n, 0);
  const int threads = 4, calls = 25;
  std::vector<int> wrong(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      // Odd threads on the synchronous queue (each thread's own stream), even ones on an async queue.
      for (int c = 0; c < calls; ++c) wrong[t] += !(stats_of(x, n, 0, t % 2 ? 0 : t + 1) == expected);
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) REQUIRE(wrong[t] == 0);
}
#endif
