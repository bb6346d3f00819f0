// Level 6: acc::parallel_reduce with every operator, index kind and awkward size.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <random>

#include "support/arrays.hpp"

TEST_CASE("parallel_reduce sums 0..n-1 in closed form", "[06][reduce]") {
  const long n = GENERATE(0, 1, 2, 255, 256, 257, 1009, 65537, (1 << 20) + 7);
  REQUIRE(acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(long i) { return i; }) == n * (n - 1) / 2);
  REQUIRE(acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(long i) { return i; }, 100L) == 100 + n * (n - 1) / 2);
}

TEMPLATE_TEST_CASE("every built-in operator matches a sequential fold", "[06][reduce]", int, long, unsigned,
                   long long, float, double) {
  using T = TestType;
  const int n = GENERATE(1, 31, 1000, 100003);
  acc::array<T> v(n);
  if constexpr (std::is_floating_point_v<T>) acc_test::fill_random(v, 7u, T(0.5), T(1.5));
  else acc_test::fill_random(v, 7u, T(1), T(1000));
  const acc::view<const T> p = v;  // read-only: copied in, not out
  auto at = ACC_LAMBDA(int i) { return p[i]; };

  T sum = 0, prod = 1, mx = std::numeric_limits<T>::lowest(), mn = std::numeric_limits<T>::max();
  for (int i = 0; i < n; ++i) sum += v[i], mx = std::max(mx, v[i]), mn = std::min(mn, v[i]);
  if constexpr (std::is_floating_point_v<T>) {
    for (int i = 0; i < std::min(n, 31); ++i) prod *= v[i];  // few factors: stays finite
    REQUIRE(acc::parallel_reduce(n, acc::plus, at) == Approx(sum).epsilon(1e-5));
    REQUIRE(acc::parallel_reduce(std::min(n, 31), acc::multiplies, at) == Approx(prod).epsilon(1e-5));
  } else {
    // Factors 1 and 2, at most 30 of them: the product fits a 32-bit int exactly.
    auto factor = ACC_LAMBDA(int i) { return T(1 + (p[i] & 1)); };
    for (int i = 0; i < std::min(n, 30); ++i) prod *= T(1 + (v[i] & 1));
    REQUIRE(acc::parallel_reduce(n, acc::plus, at) == sum);
    REQUIRE(acc::parallel_reduce(std::min(n, 30), acc::multiplies, factor) == prod);
  }
  REQUIRE(acc::parallel_reduce(n, acc::maximum, at) == mx);
  REQUIRE(acc::parallel_reduce(n, acc::minimum, at) == mn);
  if constexpr (std::is_integral_v<T>) {
    T band = ~T(0), bor = 0, bxor = 0;
    for (int i = 0; i < n; ++i) band &= v[i], bor |= v[i], bxor ^= v[i];
    REQUIRE(acc::parallel_reduce(n, acc::bit_and, at) == band);
    REQUIRE(acc::parallel_reduce(n, acc::bit_or, at) == bor);
    REQUIRE(acc::parallel_reduce(n, acc::bit_xor, at) == bxor);
  }
  // logical: "all positive" holds, "any above 2000" does not
  REQUIRE(acc::parallel_reduce(n, acc::logical_and, ACC_LAMBDA(int i) { return int(p[i] > 0); }) == 1);
  REQUIRE(acc::parallel_reduce(n, acc::logical_or, ACC_LAMBDA(int i) { return int(p[i] > T(2000)); }) == 0);
}

TEST_CASE("bool reduces with every operator that fits it", "[06][reduce]") {
  const int n = GENERATE(0, 1, 31, 1000, 100003);
  const int density = GENERATE(0, 1, 2, 1000);  // all false, a quarter true, half, all true
  std::mt19937 gen(static_cast<unsigned>(n * 7 + density));
  acc::array<bool> v(n);
  for (int i = 0; i < n; ++i) v[i] = density == 1000 || (density > 0 && int(gen() % 1000) < density * 250);
  const acc::view<const bool> p = v;
  bool all = true, any = false, odd = false;
  for (int i = 0; i < n; ++i) all = all && v[i], any = any || v[i], odd = odd != v[i];
  REQUIRE(acc::parallel_reduce(n, acc::logical_and, ACC_LAMBDA(int i) { return p[i]; }) == all);
  REQUIRE(acc::parallel_reduce(n, acc::logical_or, ACC_LAMBDA(int i) { return p[i]; }) == any);
  REQUIRE(acc::parallel_reduce(n, acc::multiplies, ACC_LAMBDA(int i) { return p[i]; }) == all);
  REQUIRE(acc::parallel_reduce(n, acc::bit_and, ACC_LAMBDA(int i) { return p[i]; }) == all);
  REQUIRE(acc::parallel_reduce(n, acc::bit_or, ACC_LAMBDA(int i) { return p[i]; }) == any);
  REQUIRE(acc::parallel_reduce(n, acc::bit_xor, ACC_LAMBDA(int i) { return p[i]; }) == odd);
  REQUIRE(acc::parallel_reduce(n, acc::maximum, ACC_LAMBDA(int i) { return p[i]; }) == any);
  REQUIRE(acc::parallel_reduce(n, acc::minimum, ACC_LAMBDA(int i) { return p[i]; }) == all);
}

TEST_CASE("min_loc and max_loc find the first extremum", "[06][reduce][loc]") {
  const int n = GENERATE(1, 2, 97, 4096, 100003);
  acc::array<int> v(n);
  acc_test::fill_random(v, 3u, 0, 50);  // many ties: the smallest index must win
  const acc::array<int>& p = v;
  int mi = 0, ma = 0;
  for (int i = 1; i < n; ++i) {
    if (v[i] < v[mi]) mi = i;
    if (v[i] > v[ma]) ma = i;
  }
  const auto lo = acc::parallel_reduce(n, acc::min_loc, ACC_LAMBDA(int i) { return acc::loc(p[i], i); });
  const auto hi = acc::parallel_reduce(n, acc::max_loc, ACC_LAMBDA(int i) { return acc::loc(p[i], i); });
  REQUIRE(lo == acc::loc(v[mi], mi));
  REQUIRE(hi == acc::loc(v[ma], ma));
}

namespace {
// A user type and operator: count, sum, and the largest value with the first index holding it
// (associative and commutative, as every OpenACC reduction operator is).
struct stats {
  long long count, sum, max, argmax;
  friend bool operator==(const stats&, const stats&) = default;
};
struct stats_op {
  ACC_ROUTINE stats operator()(const stats& x, const stats& y) const {
    const bool right = y.max > x.max || (y.max == x.max && y.argmax < x.argmax);
    return {x.count + y.count, x.sum + y.sum, right ? y.max : x.max, right ? y.argmax : x.argmax};
  }
  ACC_ROUTINE stats identity() const { return {0, 0, -1, 1LL << 62}; }
};
ACC_ROUTINE stats stats_of(long long i) { return {1, i % 1000, (i * 7919) % 10007, i}; }

// Without identity(): only an explicit initial value makes it usable.
struct plain_max {
  ACC_ROUTINE long long operator()(long long a, long long b) const { return a < b ? b : a; }
};
}  // namespace

TEST_CASE("a user operator and type reduce like the sequential fold", "[06][reduce][user]") {
  const int n = GENERATE(1, 2, 33, 1000, 50021, 1 << 20);
  stats expect = stats_op{}.identity();
  for (int i = 0; i < n; ++i) expect = stats_op{}(expect, stats_of(i));
  REQUIRE(acc::parallel_reduce(n, stats_op{}, ACC_LAMBDA(int i) { return stats_of(i); }) == expect);
  // An explicit initial value is folded in, as OpenACC folds the variable's own value.
  const stats init{5, 5, 20000, 7};
  REQUIRE(acc::parallel_reduce(n, stats_op{}, ACC_LAMBDA(int i) { return stats_of(i); }, init) ==
          stats_op{}(init, expect));
  long long m = -5;
  for (int i = 0; i < n; ++i) m = std::max(m, (i * 31LL) % 977);
  REQUIRE(acc::parallel_reduce(n, plain_max{}, ACC_LAMBDA(int i) { return (i * 31LL) % 977; }, -5LL) == m);
}

namespace {
// Trivially copyable without a default constructor: reduced from the identity or the initial
// value, never from a default-constructed T.
struct moments {
  long long count;
  double sum;
  ACC_ROUTINE constexpr moments(long long c, double s) : count(c), sum(s) {}
  friend bool operator==(const moments&, const moments&) = default;
};
static_assert(std::is_trivially_copyable_v<moments> && !std::is_default_constructible_v<moments>);
struct moments_op {
  ACC_ROUTINE moments operator()(const moments& x, const moments& y) const { return {x.count + y.count, x.sum + y.sum}; }
  ACC_ROUTINE moments identity() const { return {0, 0.0}; }
};
// The same without identity(): usable with an initial value.
struct moments_sum {
  ACC_ROUTINE moments operator()(const moments& x, const moments& y) const { return {x.count + y.count, x.sum + y.sum}; }
};
// Sums of small integers in double are exact, so any grouping gives the sequential value.
ACC_ROUTINE moments moments_of(int i) { return {1, double(i % 100)}; }
}  // namespace

TEST_CASE("a type without a default constructor reduces like the sequential fold", "[06][reduce][user]") {
  const int n = GENERATE(0, 1, 2, 33, 257, 50021, 1 << 20);
  moments expect = moments_op{}.identity();
  for (int i = 0; i < n; ++i) expect = moments_op{}(expect, moments_of(i));
  REQUIRE(acc::parallel_reduce(n, moments_op{}, ACC_LAMBDA(int i) { return moments_of(i); }) == expect);
  const moments init{10, 0.5};
  const moments with_init{expect.count + 10, expect.sum + 0.5};
  REQUIRE(acc::parallel_reduce(n, moments_op{}, ACC_LAMBDA(int i) { return moments_of(i); }, init) == with_init);
  REQUIRE(acc::parallel_reduce(n, moments_sum{}, ACC_LAMBDA(int i) { return moments_of(i); }, init) == with_init);
  REQUIRE(acc::parallel_reduce(n, acc::num_gangs(3), moments_op{}, ACC_LAMBDA(int i) { return moments_of(i); }) ==
          expect);
}

TEST_CASE("minimum and maximum of a type without numeric_limits start from the initial value", "[06][reduce]") {
  // std::numeric_limits<nanoseconds> is not specialized: its max() is 0 ns, no identity for
  // minimum, so the initial value is where the reduction starts.
  using ns = std::chrono::nanoseconds;
  const int n = GENERATE(0, 1, 2, 33, 257, 50021, 1 << 20);
  ns lo = ns::max(), hi = ns::min();
  for (int i = 0; i < n; ++i) {
    lo = std::min(lo, ns(5 + (i * 7919LL) % 10007));
    hi = std::max(hi, ns(-1 - (i * 7919LL) % 10007));
  }
  REQUIRE(acc::parallel_reduce(n, acc::minimum, ACC_LAMBDA(int i) { return ns(5 + (i * 7919LL) % 10007); },
                               ns::max()) == lo);
  REQUIRE(acc::parallel_reduce(n, acc::maximum, ACC_LAMBDA(int i) { return ns(-1 - (i * 7919LL) % 10007); },
                               ns::min()) == hi);
}

TEST_CASE("parallel_reduce over ranges and collapsed spaces", "[06][reduce]") {
  REQUIRE(acc::parallel_reduce(acc::range(-50, 51), acc::plus, ACC_LAMBDA(int i) { return i; }) == 0);
  REQUIRE(acc::parallel_reduce(acc::range(10, 3), acc::plus, ACC_LAMBDA(int i) { return i; }, 7) == 7);
  const auto [ni, nj, nk] = GENERATE(table<int, int, int>({{1, 1, 1}, {3, 5, 7}, {64, 33, 2}, {1, 1000, 3}}));
  long long s2 = 0, s3 = 0;
  for (long long i = 0; i < ni; ++i)
    for (long long j = 0; j < nj; ++j) {
      s2 += i * 1000 + j;
      for (long long k = 0; k < nk; ++k) s3 += (i * 1000 + j) * 10 + k;
    }
  REQUIRE(acc::parallel_reduce(acc::collapse(ni, nj), acc::plus,
                               ACC_LAMBDA(int i, int j) { return i * 1000LL + j; }) == s2);
  REQUIRE(acc::parallel_reduce(acc::collapse(ni, nj, nk), acc::plus,
                               ACC_LAMBDA(int i, int j, int k) { return (i * 1000LL + j) * 10 + k; }) == s3);
}

TEST_CASE("parallel_reduce beyond 2^31 iterations", "[06][reduce][large]") {
  const long long n = (1LL << 31) + 11;
  // The number of odd i and the largest i: a wrapped counter would lose iterations.
  REQUIRE(acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(long long i) { return i & 1; }) == n / 2);
  REQUIRE(acc::parallel_reduce(n, acc::maximum, ACC_LAMBDA(long long i) { return i; }) == n - 1);
}

TEST_CASE("parallel_reduce takes clauses and reads arrays", "[06][reduce][clauses]") {
  const int n = 12345;
  acc::array<double> x("x", n);
  std::mt19937 gen(9);
  std::uniform_real_distribution<double> d(-1, 1);
  double expect = 0;
  for (int i = 0; i < n; ++i) expect = std::max(expect, x[i] = d(gen));
  REQUIRE(acc::parallel_reduce(n, acc::maximum, ACC_LAMBDA(int i) { return x[i]; }) == expect);
  REQUIRE(acc::parallel_reduce(n, acc::if_(false), acc::maximum, ACC_LAMBDA(int i) { return x[i]; }) == expect);
  REQUIRE_THROWS_AS(
      acc::parallel_reduce(n, acc::default_present, acc::maximum, ACC_LAMBDA(int i) { return x[i]; }),
      acc::not_present_error);
  {
    acc::data region{acc::copyin(x)};
    REQUIRE(acc::parallel_reduce(n, acc::default_present, acc::async(2), acc::maximum,
                                 ACC_LAMBDA(int i) { return x[i]; }) == expect);
  }
  REQUIRE_THROWS_WITH(acc::parallel_reduce(n, acc::num_gangs(0), acc::plus, ACC_LAMBDA(int i) { return i; }),
                      Catch::Contains("acc::parallel_reduce at 06_reduce.cpp:") && Catch::Contains("num_gangs(0)"));
}

TEST_CASE("parallel_reduce takes any number of clauses and names the call site from them", "[06][reduce][clauses]") {
  const long n = GENERATE(0L, 1L, 257L, 100003L);
  std::vector<long> x(n + 1);
  for (long i = 0; i < n; ++i) x[i] = (i * 7919) % 101 - 50;
  long expect = 3;
  for (long i = 0; i < n; ++i) expect += x[i];
  // default_present: the host vector's view must be mapped by the region.
  const acc::view<const long> px(x.data(), x.size());
  acc::data region{acc::copyin(px)};
  // Seven clauses, every kind parallel_reduce accepts; the shape clauses bound the launch.
  const long s = acc::parallel_reduce(n, acc::num_gangs(5), acc::num_workers(2), acc::vector_length(48),
                                      acc::async(3), acc::if_(true), acc::device_num(0), acc::default_present,
                                      acc::plus, ACC_LAMBDA(long i) { return px[i]; }, 3L);
  REQUIRE(s == expect);
  REQUIRE_THROWS_WITH(acc::parallel_reduce(n, acc::if_(true), acc::async(1), acc::device_num(0),
                                           acc::num_workers(-1), acc::plus, ACC_LAMBDA(long i) { return px[i]; }),
                      Catch::Contains("acc::parallel_reduce at 06_reduce.cpp:") && Catch::Contains("num_workers(-1)"));
}
