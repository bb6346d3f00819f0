// Level 13: misuse and edges. An exception thrown in a body reaches the caller from
// every construct on every host backend (OpenMP included); shared_bytes and g.shared past it
// are reported, not wrapped; a region's reductions and a tile's halo take bounded memory;
// maximum / minimum start from -inf / +inf; collapsed spaces with an empty loop run nothing;
// variadic acc::wait names the caller's line.
//
// Bodies that throw run on the host (acc::if_(false)): a kernel cannot throw. The checks of
// values run wherever the construct runs.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#  include <malloc.h>
#endif

#include "support/buffer.hpp"

using acc_test::buffer;

namespace {

/// What the test bodies throw: a type of the user's own, which must arrive unchanged.
struct body_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws body_failure naming i on the host; a kernel never calls it (the bodies run with
/// if_(false)), but nvcc compiles them for the device too.
ACC_ROUTINE inline void fail_at(long long i) {
#if defined(__CUDA_ARCH__)
  (void)i;
  __trap();
#else
  throw body_failure("body failed at " + std::to_string(i));
#endif
}

// Sizes around the host's thresholds: one part, parts shorter than a chunk, the scans' 2^15.
const long long sizes[] = {1, 7, 1000, (1 << 15) - 1, 1 << 15, (1 << 15) + 1, (1 << 17) + 3};

/// Where iteration `at` of n should fail: the first, the middle and the last iteration.
std::vector<long long> failing_iterations(long long n) { return {0, n / 2, n - 1}; }

/// A correct run after a failed one: nothing is left over from the failure.
void require_loop_still_works(long long n) {
  buffer<long long> out(static_cast<std::size_t>(n), -1);
  long long* o = out.data();
  acc::parallel_loop(n, ACC_LAMBDA(long long i) { o[i] = 2 * i; });
  for (long long i = 0; i < n; ++i)
    if (out[static_cast<std::size_t>(i)] != 2 * i) FAIL("element " << i << " is " << out[static_cast<std::size_t>(i)]);
}

}  // namespace

TEST_CASE("an exception thrown in a parallel_loop body reaches the caller", "[13][exception][loop]") {
  const long long n = GENERATE(from_range(std::begin(sizes), std::end(sizes)));
  for (long long at : failing_iterations(n)) {
    CAPTURE(n, at);
    const auto body = ACC_LAMBDA(long long i) {
      if (i == at) fail_at(i);
    };
    REQUIRE_THROWS_WITH(acc::parallel_loop(n, acc::if_(false), body), "body failed at " + std::to_string(at));
    REQUIRE_THROWS_AS(acc::parallel_loop(n, acc::if_(false), acc::num_gangs(1), body), body_failure);
    REQUIRE_THROWS_AS(acc::parallel_loop(n, acc::if_(false), acc::num_gangs(3), body), body_failure);
    REQUIRE_THROWS_AS(acc::parallel_loop(acc::range(-5, n - 5), acc::if_(false), ACC_LAMBDA(long long i) {
                        if (i + 5 == at) fail_at(i);
                      }),
                      body_failure);
  }
  // every iteration fails: one exception, the first caught, arrives
  REQUIRE_THROWS_AS(acc::parallel_loop(n, acc::if_(false), ACC_LAMBDA(long long i) { fail_at(i); }), body_failure);
  require_loop_still_works(n);
}

TEST_CASE("an exception thrown in a collapsed loop body reaches the caller", "[13][exception][collapse]") {
  const auto [ni, nj, nk] = GENERATE(table<int, int, int>({{1, 1, 1}, {3, 5, 7}, {33, 65, 17}, {2, 70000, 1}}));
  CAPTURE(ni, nj, nk);
  const int fi = ni / 2, fj = nj - 1, fk = nk / 3;
  REQUIRE_THROWS_AS(acc::parallel_loop(acc::collapse(ni, nj), acc::if_(false), ACC_LAMBDA(int i, int j) {
                      if (i == fi && j == fj) fail_at(i);
                    }),
                    body_failure);
  REQUIRE_THROWS_AS(acc::parallel_loop(acc::collapse(ni, nj, nk), acc::if_(false), ACC_LAMBDA(int i, int j, int k) {
                      if (i == fi && j == fj && k == fk) fail_at(k);
                    }),
                    body_failure);
  REQUIRE_THROWS_AS(acc::parallel_loop(acc::collapse(ni, nj, nk), acc::if_(false), acc::num_gangs(1),
                                       ACC_LAMBDA(int i, int, int) { fail_at(i); }),
                    body_failure);
  // a collapsed loop that does not fail visits every point once, row by row in each chunk
  const std::size_t total = std::size_t(ni) * nj * nk;
  buffer<int> seen(total, 0);
  int* s = seen.data();
  acc::parallel_loop(acc::collapse(ni, nj, nk), ACC_LAMBDA(int i, int j, int k) {
    acc_test::atomic_inc(&s[(std::size_t(i) * nj + j) * nk + k]);
  });
  for (std::size_t t = 0; t < total; ++t)
    if (seen[t] != 1) FAIL("point " << t << " visited " << seen[t] << " times");
}

TEST_CASE("an exception thrown in a parallel_reduce body or a reduction clause's body reaches the caller",
          "[13][exception][reduce]") {
  const long long n = GENERATE(from_range(std::begin(sizes), std::end(sizes)));
  for (long long at : failing_iterations(n)) {
    CAPTURE(n, at);
    REQUIRE_THROWS_AS(acc::parallel_reduce(n, acc::if_(false), acc::plus, ACC_LAMBDA(long long i) {
                        if (i == at) fail_at(i);
                        return i;
                      }),
                      body_failure);
    REQUIRE_THROWS_AS(acc::parallel_reduce(acc::collapse(n, 2LL), acc::if_(false), acc::maximum,
                                           ACC_LAMBDA(long long i, long long j) {
                                             if (i == at && j == 1) fail_at(i);
                                             return i + j;
                                           }),
                      body_failure);
    // The variables keep their values, on one part as on several.
    for (const int gangs : {1, 3}) {
      CAPTURE(gangs);
      long long sum = 7, most = -7;
      REQUIRE_THROWS_AS(acc::parallel_loop(n, acc::if_(false), acc::num_gangs(gangs), acc::reduction(acc::plus, sum),
                                           acc::reduction(acc::maximum, most),
                                           ACC_LAMBDA(long long i, long long& s, long long& m) {
                                             s += i + 1;
                                             m = i > m ? i : m;
                                             if (i == at) fail_at(i);
                                           }),
                        body_failure);
      CHECK(sum == 7);
      CHECK(most == -7);
    }
  }
  // afterwards the same reductions are right
  const long long s = acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(long long i) { return i; });
  REQUIRE(s == n * (n - 1) / 2);
  long long sum = 0;
  acc::parallel_loop(n, acc::reduction(acc::plus, sum), ACC_LAMBDA(long long i, long long& v) { v += i; });
  REQUIRE(sum == n * (n - 1) / 2);
}

TEST_CASE("an exception thrown in a scan's body or operator reaches the caller", "[13][exception][scan]") {
  const long long n = GENERATE(from_range(std::begin(sizes), std::end(sizes)));
  for (long long at : failing_iterations(n)) {
    CAPTURE(n, at);
    REQUIRE_THROWS_AS(acc::parallel_scan(n, acc::if_(false), ACC_LAMBDA(long long i, long long& p, bool final) {
                        if (i == at && final) fail_at(i);
                        p += i;
                      }),
                      body_failure);
    REQUIRE_THROWS_AS(acc::parallel_scan(n, acc::if_(false), ACC_LAMBDA(long long i, long long& p, bool) {
                        if (i == at) fail_at(i);
                        p += i;
                      }),
                      body_failure);
    std::vector<long long> x(static_cast<std::size_t>(n)), y(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<long long>(k);
    // The operator fails when it meets element `at` (the value at is x[at] = at).
    const auto op = ACC_LAMBDA(long long a, long long b) {
      if (b == at) fail_at(b);
      return a + b;
    };
    if (at > 0) {  // an inclusive scan never applies op to its first element
      REQUIRE_THROWS_AS(acc::inclusive_scan(x.data(), static_cast<std::size_t>(n), y.data(), op, acc::if_(false)),
                        body_failure);
    }
    REQUIRE_THROWS_AS(acc::exclusive_scan(x.data(), static_cast<std::size_t>(n), y.data(), 0LL, op, acc::if_(false)),
                      body_failure);
  }
  // afterwards a scan is right
  std::vector<long long> x(static_cast<std::size_t>(n), 1), y(x.size());
  acc::inclusive_scan(x.data(), x.size(), y.data());
  for (std::size_t k = 0; k < y.size(); ++k)
    if (y[k] != static_cast<long long>(k) + 1) FAIL("element " << k << " is " << y[k]);
}

TEST_CASE("an exception thrown in a parallel region or a tile_loop reaches the caller", "[13][exception][region][tile]") {
  const int gangs = GENERATE(1, 2, 7, 300);
  CAPTURE(gangs);
  for (int failing : {0, gangs / 2, gangs - 1}) {
    REQUIRE_THROWS_AS(acc::parallel(acc::num_gangs(gangs), acc::if_(false), ACC_LAMBDA(const acc::gang_t& g) {
                        if (g.gang_num() == failing) fail_at(failing);
                      }),
                      body_failure);
    double total = 0;
    REQUIRE_THROWS_AS(acc::parallel(acc::num_gangs(gangs), acc::if_(false), acc::reduction(acc::plus, total),
                                    ACC_LAMBDA(const acc::gang_t& g, double& t) {
                                      acc::loop(g, acc::gang, 1000, [&](int i) {
                                        if (i == 999 - failing) fail_at(i);
                                        t += 1;
                                      });
                                    }),
                      body_failure);
  }
  const int n = gangs * 13 + 5;
  acc::array<double> a("a", n);
  for (int at : {0, n / 2, n - 1}) {
    CAPTURE(at);
    REQUIRE_THROWS_AS(acc::tile_loop(n, acc::tile_size(16), acc::if_(false), acc::cached(a, acc::fetch, acc::halo(1, 1)),
                                     ACC_LAMBDA(int i, const acc::cached_view<double, 1>&) {
                                       if (i == at) fail_at(i);
                                     }),
                      body_failure);
  }
}

// ---- shared_bytes and g.shared -------------------------------------------------------------

TEST_CASE("shared_bytes that no host can allocate is bad_clause, not a wrapped size", "[13][shared]") {
  const std::size_t bytes = GENERATE(SIZE_MAX, SIZE_MAX - 8, SIZE_MAX - 15, SIZE_MAX / 2);
  CAPTURE(bytes);
  int runs = 0;
  int* r = &runs;
  const auto body = ACC_LAMBDA(const acc::gang_t& g) {
    const auto s = g.shared<char>(64);
    s[63] = 1;
    acc_test::atomic_inc(r);
  };
  REQUIRE_THROWS_AS(acc::parallel(acc::num_gangs(4), acc::shared_bytes(bytes), acc::if_(false), body), acc::bad_clause);
  REQUIRE_THROWS_WITH(acc::parallel(acc::num_gangs(4), acc::shared_bytes(bytes), acc::if_(false), body),
                      Catch::Contains("acc::parallel at 13_robustness.cpp:") &&
                          Catch::Contains("shared_bytes(" + std::to_string(bytes) + ")"));
  // where the construct runs by default (a GPU's limit there)
  REQUIRE_THROWS_AS(acc::parallel(acc::num_gangs(4), acc::shared_bytes(bytes), body), acc::bad_clause);
  REQUIRE(runs == 0);
}

namespace {
void ask(std::size_t count) {
  acc::parallel(acc::num_gangs(3), acc::shared_bytes(64), acc::if_(false), ACC_LAMBDA(const acc::gang_t& g) {
    const auto s = g.shared<double>(count);
    if (!s.empty()) s[0] = 1;
  });
}
}  // namespace

TEST_CASE("g.shared past shared_bytes names the construct and its call site on the host", "[13][shared]") {
  REQUIRE_NOTHROW(ask(8));
  // 9 doubles; and a count whose byte size wraps to 16
  for (std::size_t count : {std::size_t(9), SIZE_MAX / 8 + 3, SIZE_MAX}) {
    CAPTURE(count);
    REQUIRE_THROWS_AS(ask(count), acc::bad_clause);
    REQUIRE_THROWS_WITH(ask(count), Catch::Contains("acc::parallel at 13_robustness.cpp:") &&
                                        Catch::Contains("gang shared memory exhausted") &&
                                        Catch::Contains("64 that acc::shared_bytes gave"));
  }
}

// ---- bounded memory ------------------------------------------------------------------------

namespace {

struct wide {
  double v[8];
};
/// A user operator over a 64-byte value: a region's private copies of it are what must not be
/// allocated per gang.
struct wide_plus {
  ACC_ROUTINE wide operator()(const wide& a, const wide& b) const {
    wide r;
    for (int k = 0; k < 8; ++k) r.v[k] = a.v[k] + b.v[k];
    return r;
  }
  ACC_ROUTINE wide identity() const { return wide{}; }
};

/// Bytes the C heap holds now (glibc), or 0 where that cannot be asked.
ACC_ROUTINE inline std::size_t heap_in_use() {
#if defined(__GLIBC__) && !defined(__CUDA_ARCH__)
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
#else
  return 0;
#endif
}

}  // namespace

TEST_CASE("a region's reductions take storage per running thread, not per gang", "[13][memory][region]") {
  // 4 Mi gangs of 64-byte private copies would be 256 MiB if allocated up front.
  const int gangs = 1 << 22;
  wide total{};
  // The buffer first: in a CUDA build it is managed memory, whose first allocation starts the
  // CUDA runtime (tens of MiB of heap that are not the construct's).
  buffer<std::size_t> during(1, 0);
  std::size_t* d = during.data();
  const std::size_t before = heap_in_use();
  acc::parallel(acc::num_gangs(gangs), acc::if_(false), acc::reduction(wide_plus{}, total),
                ACC_LAMBDA(const acc::gang_t& g, wide& t) {
                  t.v[g.gang_num() % 8] += 1;
                  if (g.gang_num() == 0) *d = heap_in_use();
                });
  for (int k = 0; k < 8; ++k) REQUIRE(total.v[k] == gangs / 8);
  if (before != 0) REQUIRE(during[0] < before + (std::size_t(16) << 20));
}

TEST_CASE("a tile_loop halo longer than the array is clipped to it", "[13][memory][tile]") {
  const int n = 100;
  acc::array<long long> a("a", n), out("out", n);
  for (int i = 0; i < n; ++i) a(i) = 3 * i + 1;
  const int tile = GENERATE(1, 16, 128);
  const auto mode = GENERATE(acc::fetch | acc::channel, acc::fetch);
  CAPTURE(tile);
  // every element of the array is in every tile's cache
  acc::tile_loop(n, acc::tile_size(tile), acc::cached(a, mode, acc::halo(INT_MAX, INT_MAX)),
                 ACC_LAMBDA(int i, const acc::cached_view<long long, 1>& c) { out(i) = c(0) + c(n - 1) + c(i); });
  for (int i = 0; i < n; ++i) REQUIRE(out(i) == 1 + (3 * (n - 1) + 1) + (3 * i + 1));
  // and asymmetric halos reaching past one end only
  acc::tile_loop(n, acc::tile_size(tile), acc::cached(a, mode, acc::halo(0, INT_MAX - 5)),
                 ACC_LAMBDA(int i, const acc::cached_view<long long, 1>& c) { out(i) = c(n - 1) - c(i); });
  for (int i = 0; i < n; ++i) REQUIRE(out(i) == 3 * (n - 1 - i));
}

// ---- identities ----------------------------------------------------------------------------

TEMPLATE_TEST_CASE("maximum and minimum of infinities are infinities on every backend", "[13][reduce][identity]", float,
                   double) {
  using T = TestType;
  constexpr T inf = std::numeric_limits<T>::infinity();
  const long long n = GENERATE(1, 5, 1000, 100003);
  const int gangs = GENERATE(0, 1, 3);
  CAPTURE(n, gangs);
  const auto g = acc::num_gangs(gangs ? gangs : 64);
  REQUIRE(acc::parallel_reduce(n, g, acc::maximum, ACC_LAMBDA(long long) { return -inf; }) == -inf);
  REQUIRE(acc::parallel_reduce(n, g, acc::minimum, ACC_LAMBDA(long long) { return inf; }) == inf);
  T m = -inf, l = inf;
  acc::parallel_loop(n, g, acc::reduction(acc::maximum, m), acc::reduction(acc::minimum, l),
                     ACC_LAMBDA(long long, T& mx, T& mn) {
                       mx = mx < -inf ? -inf : mx;
                       mn = inf < mn ? inf : mn;
                     });
  REQUIRE(m == -inf);
  REQUIRE(l == inf);
  T rm = -inf;
  acc::parallel(g, acc::reduction(acc::maximum, rm), ACC_LAMBDA(const acc::gang_t& gang, T& v) {
    acc::loop(gang, acc::gang, n, [&](long long) { v = v < -inf ? -inf : v; });
  });
  REQUIRE(rm == -inf);
  REQUIRE(acc::maximum_t::identity<T>() == -inf);
  REQUIRE(acc::minimum_t::identity<T>() == inf);
}

TEST_CASE("min_loc and max_loc over infinities return an index of the range", "[13][reduce][loc]") {
  const long long n = GENERATE(1, 2, 1000, 100003);
  const long long lo = GENERATE(0LL, 5LL, -70LL);
  CAPTURE(n, lo);
  constexpr double inf = std::numeric_limits<double>::infinity();
  const auto r = acc::range(lo, lo + n);
  const auto mn = acc::parallel_reduce(r, acc::min_loc, ACC_LAMBDA(long long i) { return acc::loc(inf, i); });
  const auto mx = acc::parallel_reduce(r, acc::max_loc, ACC_LAMBDA(long long i) { return acc::loc(-inf, i); });
  // all values tie: the first index, as a sequential scan keeping the first extremum
  REQUIRE(mn.value == inf);
  REQUIRE(mn.index == lo);
  REQUIRE(mx.value == -inf);
  REQUIRE(mx.index == lo);
}

// ---- edges ---------------------------------------------------------------------------------

TEST_CASE("a collapsed space with an empty loop runs nothing, however long the others", "[13][collapse][edge]") {
  buffer<int> runs(1, 0);
  int* r = runs.data();
  acc::parallel_loop(acc::collapse(LONG_MAX, LONG_MAX, 0L), ACC_LAMBDA(long, long, long) { acc_test::atomic_inc(r); });
  acc::parallel_loop(acc::collapse(0L, LONG_MAX, LONG_MAX), ACC_LAMBDA(long, long, long) { acc_test::atomic_inc(r); });
  acc::parallel_loop(acc::collapse(LONG_MAX, -3L), ACC_LAMBDA(long, long) { acc_test::atomic_inc(r); });
  REQUIRE(acc::parallel_reduce(acc::collapse(LONG_MAX, LONG_MAX, 0L), acc::plus,
                               ACC_LAMBDA(long, long, long) { return 1L; }) == 0);
  acc::tile_loop(acc::collapse(LONG_MAX, LONG_MAX, 0L), acc::tile_size(1, 1, 1),
                 ACC_LAMBDA(long, long, long) { acc_test::atomic_inc(r); });
  REQUIRE(runs[0] == 0);
  // without an empty loop the space is still too large
  REQUIRE_THROWS_AS(acc::parallel_loop(acc::collapse(LONG_MAX, LONG_MAX, 4L), ACC_LAMBDA(long, long, long) {}),
                    acc::bad_clause);
}

TEST_CASE("variadic acc::wait reports the caller's line", "[13][async][edge]") {
  REQUIRE_THROWS_AS(acc::wait(1, 2, -9), acc::bad_clause);
  const int line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(acc::wait(1, 2, -9), Catch::Contains("acc::wait at 13_robustness.cpp:" + std::to_string(line)));
  REQUIRE_THROWS_WITH(acc::wait(-9, 2), Catch::Contains("13_robustness.cpp:"));
  REQUIRE_NOTHROW(acc::wait(1, 2, 3, 4));
}

TEST_CASE("worker loops with vector reductions and per-worker stores in multi-warp workers",
          "[13][race][region]") {
  // The shape compute-sanitizer's racecheck is run on: 4 workers of two warps each, a vector
  // loop_reduce per worker iteration, its result stored (and accumulated) once per worker.
  const int rows = 37, cols = 29, len = 301;
  const int workers = GENERATE(1, 4), vector = GENERATE(32, 64, 96);
  acc::array<double> a("a", std::size_t(rows) * cols * len), out("out", std::size_t(rows) * cols),
      acc_out("acc_out", std::size_t(rows) * cols);
  std::vector<double> start(std::size_t(rows) * cols);
  std::mt19937 gen(1307u);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = d(gen);
  for (std::size_t k = 0; k < start.size(); ++k) acc_out[k] = start[k] = d(gen);
  const int repeats = 2;
  {
    acc::data region{acc::copyin(a), acc::copyout(out), acc::copy(acc_out)};
    acc::parallel(acc::num_gangs(8), acc::num_workers(workers), acc::vector_length(vector),
                  ACC_LAMBDA(const acc::gang_t& g) {
                    acc::loop(g, acc::gang, rows, [&](int r) {
                      acc::loop(g, acc::worker, cols, [&](int c) {
                        for (int rep = 0; rep < repeats; ++rep) {
                          const double s = acc::loop_reduce(g, acc::vector, len, acc::plus, [&](int k) {
                            return a[(std::size_t(r) * cols + c) * len + k];
                          });
                          acc::single(g, acc::per_worker, [&] {
                            out[std::size_t(r) * cols + c] = s;
                            acc_out[std::size_t(r) * cols + c] = acc_out[std::size_t(r) * cols + c] + s;
                          });
                        }
                      });
                    });
                  });
  }
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      double s = 0;
      for (int k = 0; k < len; ++k) s += a[(std::size_t(r) * cols + c) * len + k];
      const std::size_t at = std::size_t(r) * cols + c;
      REQUIRE(out[at] == Approx(s).margin(1e-12));
      REQUIRE(acc_out[at] == Approx(start[at] + repeats * s).margin(1e-12));
    }
}
