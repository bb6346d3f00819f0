// Level 10: device-wide scans (acc::inclusive_scan / exclusive_scan) and acc::parallel_scan,
// against sequential references computed here, on random data and awkward sizes; a
// non-commutative operator (2x2 matrix product) shows that the order of elements is kept.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/arrays.hpp"
#include "support/mat2.hpp"
#include "support/device_memory.hpp"

namespace {

using acc_test::mat2;
using acc_test::mat_product;

// ---- sequential references -----------------------------------------------------------------

template <class V, class T, class Op>
std::vector<V> ref_inclusive(const T* x, std::size_t n, Op op) {
  std::vector<V> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = i == 0 ? V(x[0]) : op(r[i - 1], V(x[i]));
  return r;
}
template <class V, class T, class Op>
std::vector<V> ref_exclusive(const T* x, std::size_t n, V init, Op op) {
  std::vector<V> r(n);
  V acc = init;
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = acc;
    acc = op(acc, V(x[i]));
  }
  return r;
}

// Reports the first mismatch only.
template <class V>
void require_equal(const V* got, const std::vector<V>& expect) {
  for (std::size_t i = 0; i < expect.size(); ++i)
    if (!(got[i] == expect[i])) {
      INFO("first mismatch at " << i << " of " << expect.size());
      REQUIRE(got[i] == expect[i]);
    }
  SUCCEED();
}

const long sizes[] = {0, 1, 2, 31, 1000, 4099, 100003, (1 << 20) + 7};

template <class Op>
std::string name_of(Op) {
  if constexpr (std::is_same_v<Op, acc::plus_t>) return "plus";
  else if constexpr (std::is_same_v<Op, acc::maximum_t>) return "maximum";
  else if constexpr (std::is_same_v<Op, acc::minimum_t>) return "minimum";
  else if constexpr (std::is_same_v<Op, acc::bit_or_t>) return "bit_or";
  else return "user";
}

template <class T, class Op>
void check_pointer_scans(Op op, long n, unsigned seed) {
  CAPTURE(name_of(op), n);
  // Arrays' host storage through the pointer forms: absent, so copied in and out per call.
  acc::array<T> x(n), y = acc_test::filled(n, T(-7)), z(n);
  acc_test::fill_random(x, seed, std::is_signed_v<T> ? T(-1000) : T(0), T(1000));
  const auto inc = ref_inclusive<T>(x.data(), n, op);
  const auto exc = ref_exclusive<T>(x.data(), n, T(5), op);
  {
    INFO("inclusive, out of place");
    acc::inclusive_scan(x.data(), n, y.data(), op);
    require_equal(y.data(), inc);
  }
  {
    INFO("exclusive, out of place");
    acc::exclusive_scan(x.data(), n, y.data(), T(5), op);
    require_equal(y.data(), exc);
  }
  {
    INFO("inclusive, in place");
    std::copy(x.data(), x.data() + n, z.data());
    acc::inclusive_scan(z.data(), n, z.data(), op);
    require_equal(z.data(), inc);
  }
  {
    INFO("exclusive, in place, on queue 1");
    std::copy(x.data(), x.data() + n, z.data());
    acc::exclusive_scan(z.data(), n, z.data(), T(5), op, acc::async(1));
    acc::wait(1);
    require_equal(z.data(), exc);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("inclusive and exclusive scans of integers match sequential scans", "[10][scan]", int, long long,
                   unsigned) {
  const long n = GENERATE(from_range(std::begin(sizes), std::end(sizes)));
  const unsigned seed = 1000u + static_cast<unsigned>(n);
  check_pointer_scans<TestType>(acc::plus, n, seed);
  check_pointer_scans<TestType>(acc::maximum, n, seed + 1);
  check_pointer_scans<TestType>(acc::minimum, n, seed + 2);
  check_pointer_scans<TestType>(acc::bit_or, n, seed + 3);
}

TEST_CASE("scans of doubles: sums close to the sequential ones, max and min exact", "[10][scan]") {
  const long n = GENERATE(1, 1000, 100003, (1 << 20) + 7);
  acc::array<double> x(n), y(n);
  acc_test::fill_random(x, 77u, -1.0, 1.0);
  check_pointer_scans<double>(acc::maximum, n, 78u);
  acc::inclusive_scan(x, y);
  const auto inc = ref_inclusive<double>(x.data(), n, acc::plus);
  for (long i = 0; i < n; i += 1 + n / 1000) REQUIRE(y[i] == Approx(inc[i]).margin(1e-9 * n));
  acc::exclusive_scan(x, y, 0.5);
  const auto exc = ref_exclusive<double>(x.data(), n, 0.5, acc::plus);
  for (long i = 0; i < n; i += 1 + n / 1000) REQUIRE(y[i] == Approx(exc[i]).margin(1e-9 * n));
}

TEST_CASE("a non-commutative operator keeps the order of the elements", "[10][scan][user]") {
  const long n = GENERATE(1, 2, 33, 4099, 100003, (1 << 20) + 7);
  CAPTURE(n);
  acc::array<mat2> x(n), y(n);
  std::mt19937 gen(5);
  std::uniform_int_distribution<std::uint32_t> d(0, 3);
  for (long i = 0; i < n; ++i) x[i] = {d(gen), d(gen), d(gen), d(gen)};
  acc::inclusive_scan(x.data(), n, y.data(), mat_product{});
  require_equal(y.data(), ref_inclusive<mat2>(x.data(), n, mat_product{}));
  const mat2 init{2, 1, 1, 1};
  acc::exclusive_scan(x.data(), n, x.data(), init, mat_product{});
  // x was overwritten: recompute the reference from y (y[i] = x0 ... xi).
  std::vector<mat2> expect(n);
  expect[0] = init;
  // init * x0 ... x(i-1) = init * y[i - 1]
  for (long i = 1; i < n; ++i) expect[i] = mat_product{}(init, y[i - 1]);
  require_equal(x.data(), expect);
}

TEST_CASE("the scan accumulates in the output's element type", "[10][scan]") {
  const long n = 1000003;
  acc::array<int> x = acc_test::filled(n, 100000);  // the sum passes 2^31 after 21475 elements
  acc::array<long long> y(n);
  acc::inclusive_scan(x.data(), n, y.data());
  REQUIRE(y[0] == 100000);
  REQUIRE(y[n - 1] == 100000LL * n);
  acc::exclusive_scan(x.data(), n, y.data(), 7);
  REQUIRE(y[n - 1] == 7 + 100000LL * (n - 1));
}

TEST_CASE("scans of arrays and views, present or not", "[10][scan][data]") {
  const int n = GENERATE(0, 1, 1000, 65537);
  CAPTURE(n);
  acc::array<int> a("keys", n), b("ranks", n);
  std::mt19937 gen(11);
  std::uniform_int_distribution<int> d(0, 9);
  for (int i = 0; i < n; ++i) a[i] = d(gen);
  const auto inc = ref_inclusive<int>(a.data(), n, acc::plus);
  const auto exc = ref_exclusive<int>(a.data(), n, 0, acc::plus);

  SECTION("absent: copied in and out for the call") {
    acc::inclusive_scan(a, b);
    require_equal(b.data(), inc);
    acc::exclusive_scan(acc::view<const int>(a), acc::view<int>(b), 0);
    require_equal(b.data(), exc);
  }
  SECTION("present: scanned on the device, where the result stays") {
    acc::data region{acc::copyin(a), acc::create(b)};
    acc::inclusive_scan(a, b, acc::plus, acc::default_present);
    acc::update_self(b);
    require_equal(b.data(), inc);
    acc::exclusive_scan(a, a, 0, acc::plus, acc::async(2));  // in place on the device copy
    acc::wait(2);
    acc::update_self(a);
    require_equal(a.data(), exc);
  }
  SECTION("if_(false) runs on the host") {
    acc::inclusive_scan(a, b, acc::if_(false));
    require_equal(b.data(), inc);
  }
  SECTION("nothing is left allocated") {
    // Run twice: each run scans a fresh copy in place, so that the sums stay small.
    REQUIRE(acc_test::leaked_by([&] {
              acc::inclusive_scan(a, b);
              require_equal(b.data(), inc);
              std::copy_n(a.data(), n, b.data());
              acc::exclusive_scan(b.data(), n, b.data(), 0);
              require_equal(b.data(), exc);
            }) == 0);
  }
}

TEST_CASE("scan errors name the data", "[10][scan][errors]") {
  acc::array<int> a("keys", 10), b("ranks", 9);
  REQUIRE_THROWS_WITH(acc::inclusive_scan(a, b), Catch::Contains("acc::inclusive_scan at 10_scan.cpp:") &&
                                                     Catch::Contains("'keys'") && Catch::Contains("'ranks'"));
  REQUIRE_THROWS_AS(acc::exclusive_scan(a, b, 0), acc::bad_clause);
  acc::array<int> c("c", 10);
  REQUIRE_THROWS_AS(acc::inclusive_scan(a, c, acc::plus, acc::default_present), acc::not_present_error);
  REQUIRE_THROWS_WITH(acc::inclusive_scan(a.data(), 10, a.data() + 1), Catch::Contains("overlap"));
  REQUIRE_THROWS_WITH(acc::inclusive_scan(a.data(), -1, c.data()), Catch::Contains("negative"));
  REQUIRE_THROWS_AS(acc::inclusive_scan(a.data(), 10, c.data(), acc::plus, acc::async(-7)), acc::bad_clause);
}

// On the host, 2^31 bytes twice over would not fit the CI machine's time budget.
TEST_CASE("an in-place scan beyond 2^31 elements (GPU only)", "[10][scan][large][gpu]") {
  const std::size_t n = (std::size_t(1) << 31) + 11;
  std::vector<unsigned char> x(n, 1);
  acc::inclusive_scan(x.data(), n, x.data());  // (i + 1) mod 256, which a 32-bit index would break
  for (std::size_t i : {std::size_t(0), std::size_t(255), (std::size_t(1) << 31) - 1, std::size_t(1) << 31, n - 1})
    REQUIRE(x[i] == static_cast<unsigned char>((i + 1) % 256));
}

// ---- parallel_scan ---------------------------------------------------------------------------

namespace {

// One function template per construct (nvcc: no ACC_LAMBDA inside another lambda).
template <class T>
long compact_positive(acc::view<const T> x, long n, acc::view<T> out) {
  return acc::parallel_scan(n, ACC_LAMBDA(long i, long& p, bool final) {
    const bool keep = x[i] > 0;
    if (final && keep) out[p] = x[i];
    p += keep;
  });
}

template <class T>
int compact_int_counter(acc::view<const T> x, int n, acc::view<T> out) {
  return acc::parallel_scan(n, ACC_LAMBDA(int i, int& p, bool final) {
    const bool keep = x[i] % 3 == 0;
    if (final && keep) out[p] = x[i];
    p += keep;
  });
}

/// Both compactions of n random ints against std::copy_if: long and int counters.
void check_compactions(long n, unsigned seed) {
  acc::array<int> x(n), out = acc_test::filled(n + 1, -1);
  acc_test::fill_random(x, seed, -50, 50);
  std::vector<int> expect;
  std::copy_if(x.data(), x.data() + n, std::back_inserter(expect), [](int v) { return v > 0; });
  const long kept = compact_positive<int>(x, n, out);
  REQUIRE(kept == static_cast<long>(expect.size()));
  require_equal(out.data(), expect);
  REQUIRE(out[kept] == -1);  // nothing written past the kept elements

  std::vector<int> expect3;
  std::copy_if(x.data(), x.data() + n, std::back_inserter(expect3), [](int v) { return v % 3 == 0; });
  REQUIRE(compact_int_counter<int>(x, static_cast<int>(n), out) == static_cast<int>(expect3.size()));
  require_equal(out.data(), expect3);
}

// Explicit T with a generic body (a functor with a templated call operator; nvcc does not
// allow generic extended lambdas), recording every iteration's prefix.
template <class T>
struct record_prefix {
  acc::view<const T> x;
  acc::view<T> prefix;
  template <class P>
  ACC_ROUTINE void operator()(long i, P& p, bool final) const {
    if (final) prefix[i] = p;
    p += x[i];
  }
};

template <class T>
T prefixes_explicit(acc::view<const T> x, long n, acc::view<T> prefix) {
  return acc::parallel_scan<T>(n, record_prefix<T>{x, prefix});
}

inline mat2 mat_of(long i) {
  return {std::uint32_t(i % 3), std::uint32_t(1 + i % 2), std::uint32_t(i % 5 == 0), std::uint32_t(1 + i % 4)};
}

mat2 matrix_prefixes(long n, acc::view<mat2> prefix) {
  return acc::parallel_scan(n, mat_product{}, ACC_LAMBDA(long i, mat2& p, bool final) {
    if (final) prefix[i] = p;
    p = mat_product{}(p, mat2{std::uint32_t(i % 3), std::uint32_t(1 + i % 2), std::uint32_t(i % 5 == 0),
                               std::uint32_t(1 + i % 4)});
  });
}

int running_max(acc::view<const int> x, int n, acc::view<int> prefix) {
  return acc::parallel_scan(n, acc::maximum, ACC_LAMBDA(int i, int& p, bool final) {
    if (final) prefix[i] = p;
    p = p < x[i] ? x[i] : p;
  });
}

long long range_sum(int lo, int hi, acc::view<long long> prefix) {
  return acc::parallel_scan(acc::range(lo, hi), acc::async(1), ACC_LAMBDA(int i, long long& p, bool final) {
    if (final) prefix[i - lo] = p;
    p += i;
  });
}

long array_compact(acc::array<int> x, acc::array<int> out) {
  return acc::parallel_scan(long(x.size()), acc::default_present, ACC_LAMBDA(long i, long& p, bool final) {
    if (final && x[i] > 5) out[p] = x[i];
    p += x[i] > 5;
  });
}

long long odd_count(long long n, acc::view<long long> last_prefix) {
  return acc::parallel_scan(n, ACC_LAMBDA(long long i, long long& p, bool final) {
    if (final && i == n - 1) last_prefix[0] = p;
    p += i & 1;
  });
}

long long odd_range(long long lo, long long hi, acc::view<long long> last_prefix) {
  return acc::parallel_scan(acc::range(lo, hi), ACC_LAMBDA(long long i, long long& p, bool final) {
    if (final && i == hi - 1) last_prefix[0] = p;
    p += i & 1;
  });
}

// A body whose call operator is noexcept: its partial's type is still read from the signature.
struct keep_odd {
  acc::view<const int> x;
  acc::view<int> out;
  ACC_ROUTINE void operator()(long i, int& p, bool final) const noexcept {
    if (x[i] % 2 == 0) return;
    if (final) out[p] = x[i];
    p += 1;
  }
};

}  // namespace

TEST_CASE("parallel_scan deduces the partial of a noexcept body", "[10][scan][parallel_scan]") {
  const long n = GENERATE(0, 1, 4099);
  acc::array<int> x(n), out(n);
  acc_test::fill_random(x, 17u, -50, 50);
  const int kept = acc::parallel_scan(n, keep_odd{x, out});
  std::vector<int> expect;
  std::copy_if(x.data(), x.data() + n, std::back_inserter(expect), [](int v) { return v % 2 != 0; });
  REQUIRE(kept == static_cast<int>(expect.size()));
  for (int k = 0; k < kept; ++k) REQUIRE(out[k] == expect[k]);
}

TEST_CASE("parallel_scan compacts like std::copy_if", "[10][scan][parallel_scan]") {
  const long n = GENERATE(0, 1, 2, 257, 4097, 100003, (1 << 20) + 3);
  CAPTURE(n);
  check_compactions(n, 31u + static_cast<unsigned>(n));
}

TEST_CASE("parallel_scan gives each iteration its exclusive prefix", "[10][scan][parallel_scan]") {
  const long n = GENERATE(1, 31, 4096, 4097, 100003, (1 << 20) + 7);
  CAPTURE(n);
  SECTION("long long sums, explicit T") {
    acc::array<long long> x(n), prefix(n);
    acc_test::fill_random(x, 3u, -1000LL, 1000LL);
    const long long total = prefixes_explicit<long long>(x, n, prefix);
    require_equal(prefix.data(), ref_exclusive<long long>(x.data(), n, 0LL, acc::plus));
    REQUIRE(total == ref_inclusive<long long>(x.data(), n, acc::plus).back());
  }
  SECTION("double sums of eighths are exact, and the same every run") {
    acc::array<double> x(n), prefix(n), again(n);
    std::mt19937 gen(4);
    std::uniform_int_distribution<int> d(-8, 8);
    for (long i = 0; i < n; ++i) x[i] = d(gen) / 8.0;
    const double total = prefixes_explicit<double>(x, n, prefix);
    require_equal(prefix.data(), ref_exclusive<double>(x.data(), n, 0.0, acc::plus));
    REQUIRE(total == ref_inclusive<double>(x.data(), n, acc::plus).back());
    acc_test::fill_random(x, 9u, -1.0, 1.0);
    double t1 = 0, t2 = 0;
    {
      // x is present for both scans: copied in once, by the region.
      acc::data region{acc::copyin(x), acc::copyout(prefix), acc::copyout(again)};
      t1 = prefixes_explicit<double>(x, n, prefix);
      t2 = prefixes_explicit<double>(x, n, again);
    }
    REQUIRE(t1 == t2);
    require_equal(again.data(), acc_test::to_vector(prefix));
  }
  SECTION("a non-commutative operator") {
    acc::array<mat2> prefix(n);
    std::vector<mat2> m(n);
    for (long i = 0; i < n; ++i) m[i] = mat_of(i);
    const mat2 total = matrix_prefixes(n, prefix);
    require_equal(prefix.data(), ref_exclusive<mat2>(m.data(), n, mat_product{}.identity(), mat_product{}));
    REQUIRE(total == ref_inclusive<mat2>(m.data(), n, mat_product{}).back());
  }
  SECTION("maximum") {
    acc::array<int> x(n), prefix(n);
    acc_test::fill_random(x, 8u, -100000, 100000);
    const int total = running_max(x, static_cast<int>(n), prefix);
    require_equal(prefix.data(), ref_exclusive<int>(x.data(), n, std::numeric_limits<int>::lowest(), acc::maximum));
    REQUIRE(total == *std::max_element(x.data(), x.data() + n));
  }
}

// The GPU scans a tile of 64-bit sums in 32 bits while all its contributions are small
// (|v| * tile < 2^31: below 419431 for the CUDA backend's 5120-iteration tiles, below 524288
// for 4096) and takes a wide path in any tile with a larger one. Large contributions every
// `every` iterations: in every tile, in some, or in one.
template <class T>
void check_wide_contributions(long n, long every, const std::vector<T>& large) {
  acc::array<T> x(n), prefix(n);
  acc_test::fill_random(x, 11u + static_cast<unsigned>(n), T(0), T(1000));
  std::mt19937_64 gen(static_cast<unsigned long long>(n * 31 + every));
  for (long i = every / 2; i < n; i += every) x[i] = large[gen() % large.size()];
  const T total = prefixes_explicit<T>(x, n, prefix);
  require_equal(prefix.data(), ref_exclusive<T>(x.data(), n, T(0), acc::plus));
  REQUIRE(total == ref_inclusive<T>(x.data(), n, acc::plus).back());
}

TEST_CASE("parallel_scan of 64-bit sums with contributions beyond the narrow range",
          "[10][scan][parallel_scan]") {
  const long n = GENERATE(1, 4095, 4097, 5119, 5121, 15361, 100003, (1 << 20) + 7);
  const long every = GENERATE(1L, 7L, 5003L, 1L << 22);
  CAPTURE(n, every);
  SECTION("long long, both signs, at and beyond the limit") {
    check_wide_contributions<long long>(
        n, every, {419430, -419430, 419431, -419431, 524288, -524288, 1LL << 40, -(1LL << 40), -1});
  }
  SECTION("long long, every contribution at the limit or one past it") {
    // 5120 x 419431 > 2^31 - 1: a tile of those would overflow a 32-bit scan.
    for (long long v : {419430LL, -419430LL, 419431LL, -419431LL, 524287LL, -524288LL})
      check_wide_contributions<long long>(n, every, {v});
  }
  SECTION("unsigned long long, wrapping past 2^64") {
    check_wide_contributions<unsigned long long>(n, every, {419430ULL, 419431ULL, 524288ULL, 1ULL << 40, 1ULL << 63});
  }
}

#if defined(__CUDACC__)
#  include <acc/backend/cuda/scan.hpp>

namespace {
struct restore_scan_shape {
  ~restore_scan_shape() { acc::detail::cuda::scan_shape_choice = acc::detail::cuda::scan_shape::of_device; }
};
}  // namespace

// The GPU's parallel_scan takes its narrow tiles of 64-bit sums by the device's memory speed per
// SM (4096 or 5120 iterations), so a GPU run of the cases above takes one of the two; these take
// both. The sizes also straddle the 3072-iteration tiles of 4-byte sums, the same on every GPU.
TEST_CASE("parallel_scan in the tile shapes of slow and of fast memory, on any GPU", "[10][scan][parallel_scan]") {
  using acc::detail::cuda::scan_shape;
  const restore_scan_shape restore;
  const scan_shape shape = GENERATE(scan_shape::slow_memory, scan_shape::fast_memory);
  const long n = GENERATE(1, 3071, 3073, 4095, 4097, 5119, 5121, 100003);
  CAPTURE(shape == scan_shape::fast_memory, n);
  acc::detail::cuda::scan_shape_choice = shape;
  SECTION("compaction with int and long counters") { check_compactions(n, 37u + static_cast<unsigned>(n)); }
  SECTION("64-bit sums, narrow tiles and tiles with contributions beyond them") {
    check_wide_contributions<long long>(n, 1L << 22, {-1});
    check_wide_contributions<long long>(n, 7, {419430, -419431, 524287, -524288, 1LL << 40});
    check_wide_contributions<unsigned long long>(n, 5003, {419431ULL, 524288ULL, 1ULL << 63});
  }
}
#endif

TEST_CASE("parallel_scan over a range, with clauses and arrays", "[10][scan][parallel_scan]") {
  acc::array<long long> prefix(2001);
  REQUIRE(range_sum(-1000, 1001, prefix) == 0);
  acc::wait(1);  // the implicit copy of prefix back to the host is queued on 1 too
  for (int i = -1000; i <= 1000; ++i) REQUIRE(prefix[i + 1000] == (long long)(i - 1 + -1000) * (i + 1000) / 2);
  REQUIRE(range_sum(5, 5, prefix) == 0);

  acc::array<int> x("x", 5000), out("out", 5000);
  for (int i = 0; i < 5000; ++i) x[i] = (i * 7919) % 11;
  std::vector<int> expect;
  std::copy_if(x.begin(), x.end(), std::back_inserter(expect), [](int v) { return v > 5; });
  REQUIRE_THROWS_AS(array_compact(x, out), acc::not_present_error);
  {
    // Only the kept elements are written: copy back those (create, then update self).
    acc::data region{acc::copyin(x), acc::create(out)};
    REQUIRE(array_compact(x, out) == static_cast<long>(expect.size()));
    acc::update_self(out.data(), expect.size());
  }
  require_equal(out.data(), expect);
}

TEST_CASE("parallel_scan beyond 2^31 iterations", "[10][scan][parallel_scan][large]") {
  acc::array<long long> last = acc_test::filled(1, -1LL);
  if (acc_test::gpu_run()) {
    const long long n = (1LL << 31) + 11;
    REQUIRE(odd_count(n, last) == n / 2);
    REQUIRE(last[0] == (n - 1) / 2);  // odd numbers below n - 1
  } else {
    // 2^31 calls through nvcc's type-erased lambda wrapper take 20 s on the CI host; indices
    // beyond 2^32 show the 64-bit path there instead.
    const long long lo = (1LL << 32) + 1, hi = lo + 100001;
    REQUIRE(odd_range(lo, hi, last) == (hi - lo) / 2 + 1);
    REQUIRE(last[0] == (hi - lo) / 2);
  }
}

TEST_CASE("atomic_add counts from every iteration", "[10][scan][atomic]") {
  const int n = GENERATE(1, 1000, 100003);
  acc::array<int> count(8);
  acc::array<double> sum(1);
  acc::array<long long> big(1);
  acc::parallel_loop(n, ACC_LAMBDA(int i) {
    acc::atomic_add(&count[i % 8], 1);
    acc::atomic_add(&sum[0], 0.5);
    acc::atomic_add(&big[0], 1LL << 33);
  });
  for (int k = 0; k < 8; ++k) REQUIRE(count[k] == n / 8 + (k < n % 8));
  REQUIRE(sum[0] == 0.5 * n);
  REQUIRE(big[0] == (1LL << 33) * n);
}

TEST_CASE("parallel_scan takes any number of clauses", "[10][scan][parallel_scan][clauses]") {
  const long n = GENERATE(0L, 1L, 4099L);
  // default_present: the host vector's view must be mapped by the region; every y[i] below n
  // is written.
  std::vector<long> y(n + 1);
  const acc::view<long> py(y.data(), y.size());
  long total = 0;
  {
    acc::data region{acc::copyout(py)};
    total = acc::parallel_scan(n, acc::async(2), acc::if_(true), acc::device_num(0), acc::default_present, acc::plus,
                               ACC_LAMBDA(long i, long& p, bool final) {
                                 if (final) py[i] = p;
                                 p += i % 3;
                               });
    acc::wait(2);
  }
  long expect = 0;
  for (long i = 0; i < n; ++i) {
    REQUIRE(y[i] == expect);
    expect += i % 3;
  }
  REQUIRE(total == expect);
}

TEST_CASE("a scan with default_present names the output when only the input is present", "[10][scan][errors]") {
  const int n = GENERATE(1, 1000);
  acc::array<int> in("keys", n), out("ranks", n);
  acc::data region{acc::copyin(in)};
  REQUIRE_THROWS_WITH(acc::inclusive_scan(in, out, acc::plus, acc::default_present),
                      Catch::Contains("'ranks' is not present"));
  REQUIRE_THROWS_AS(acc::exclusive_scan(in, out, 0, acc::plus, acc::default_present), acc::not_present_error);
  {
    acc::data both{acc::create(out)};
    REQUIRE_NOTHROW(acc::inclusive_scan(in, out, acc::plus, acc::default_present));
  }
}

TEST_CASE("a scan with if_(false) runs on the host without default_present's presence check", "[10][scan][data]") {
  // As compute constructs: if_(false) runs on the host, where every array is accessible.
  const int n = GENERATE(1, 1000, 65537);
  acc::array<int> a("keys", n), b("ranks", n);
  acc_test::fill_random(a, 23u, -9, 9);
  const auto inc = ref_inclusive<int>(a.data(), n, acc::plus);
  const auto exc = ref_exclusive<int>(a.data(), n, 5, acc::plus);
  REQUIRE_FALSE(acc::is_present(a));
  acc::inclusive_scan(a, b, acc::plus, acc::if_(false), acc::default_present);
  require_equal(b.data(), inc);
  acc::exclusive_scan(a.data(), n, b.data(), 5, acc::plus, acc::default_present, acc::if_(false));
  require_equal(b.data(), exc);
}
