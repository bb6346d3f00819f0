// Level 14: atomics (OpenACC `atomic` read / write / update / capture, acc::atomic_ref): many
// iterations hammer a few locations with every operator and type, against a sequential fold.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include "support/buffer.hpp"

#include <algorithm>
#include <cmath>
#include <atomic>  // std::memory_order_*: acc/atomic.hpp takes them without including <atomic>
#include <cstdint>
#include <limits>
#include <string>
#include <random>
#include <vector>

using acc_test::buffer;

namespace {

// Few slots, many iterations each: every slot is updated concurrently by many threads (and,
// for 1- and 2-byte types, its neighbours share the 4-byte word the GPU swaps).
constexpr int slots = 6;

/// Applies x[i % slots] op= v[i] from every iteration at once (update, or capture when
/// `capture`), and compares with the sequential fold; all the operators are order-independent
/// on the chosen values (integers wrap modulo 2^n, floats stay exact).
template <class T, class Op>
void hammer(Op op, T init, const std::vector<T>& v, bool capture, bool chain = true) {
  const int n = static_cast<int>(v.size());
  buffer<T> vals(v.size()), x(slots, init), old(v.size(), T(0));
  std::copy(v.begin(), v.end(), vals.data());
  T *pv = vals.data(), *px = x.data(), *po = old.data();
  if (capture)
    acc::parallel_loop(n, ACC_LAMBDA(int i) { po[i] = acc::atomic_capture(px[i % slots], op, pv[i]); });
  else
    acc::parallel_loop(n, ACC_LAMBDA(int i) { acc::atomic_update(px[i % slots], op, pv[i]); });
  std::vector<T> ref(slots, init);
  for (int i = 0; i < n; ++i) ref[i % slots] = static_cast<T>(op(ref[i % slots], v[i]));
  for (int s = 0; s < slots; ++s) REQUIRE(x[s] == ref[s]);
  if (capture && chain) {
    // Replaying a slot's updates in the order of the old values they saw must reproduce those
    // old values: every capture saw the state right before its own update. Updates that left
    // the state unchanged are replayed first (that never hides a real successor), and the
    // callers pass chain only where no state recurs, so the replay order is forced.
    for (int s = 0; s < slots; ++s) {
      std::vector<int> mine;
      for (int i = s; i < n; i += slots) mine.push_back(i);
      std::vector<bool> used(mine.size(), false);
      T cur = init;
      for (std::size_t step = 0; step < mine.size(); ++step) {
        std::size_t pick = mine.size();
        for (std::size_t k = 0; k < mine.size(); ++k) {
          if (used[k] || !(old[mine[k]] == cur)) continue;
          if (pick == mine.size()) pick = k;
          if (static_cast<T>(op(cur, v[mine[k]])) == cur) {
            pick = k;
            break;
          }
        }
        REQUIRE(pick < mine.size());
        used[pick] = true;
        cur = static_cast<T>(op(cur, v[mine[pick]]));
      }
      REQUIRE(cur == x[s]);
    }
  }
}

/// Values that keep each operator exact and order-independent for any T.
template <class T>
std::vector<T> values_for(const char* what, int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<T> v(n);
  const std::string w = what;
  for (int i = 0; i < n; ++i) {
    const unsigned r = gen();
    if (w == "small") v[i] = static_cast<T>(r % 3 + 1);          // sums stay below 2^24 for floats
    else if (w == "scale") v[i] = static_cast<T>((i / slots) % 64 == 5 ? 2 : 1);  // four 2s per slot
    else if (w == "any") v[i] = static_cast<T>(static_cast<int>(r % 201) - 100);
    else if (w == "bits") v[i] = static_cast<T>(r);
    else if (w == "shift") v[i] = static_cast<T>((i / slots) % 64 == 7 ? 1 : 0);  // four 1s per slot
    else if (w == "bool") v[i] = static_cast<T>(r % 16 != 0);
  }
  return v;
}

// x op= v with v of another type than x: the sequential expression computes in the common type
// (C++'s usual arithmetic conversions) and stores the result as x's type.
void mixed_updates(buffer<int>& i, buffer<float>& f, buffer<long long>& old, double just_above_one) {
  int* pi = i.data();
  float* pf = f.data();
  long long* po = old.data();
  acc::serial(ACC_LAMBDA() {
    acc::atomic_update(pi[0], acc::divides, 2.5);      // 7 / 2.5 = 2.8 -> 2
    acc::atomic_update(pi[1], acc::multiplies, 0.5);   // 10 * 0.5 -> 5
    acc::atomic_update(pi[2], acc::plus, 2.5);         // -5 + 2.5 = -2.5 -> -2
    acc::atomic_update(pi[3], acc::logical_and, 0.5);  // 3 && 0.5 -> 1
    acc::atomic_update(pi[4], acc::minimum, 5000000000LL);  // 9 stays: 5e9 does not wrap to an int first
    acc::atomic_update(pi[5], acc::plus, 1LL << 33);   // integer sums wrap as the sequential ones: + 0
    acc::atomic_update(pf[0], acc::plus, just_above_one);  // 2^24 + 1 + 2^-25 rounds up, 2^24 + 1.0f to even
    po[0] = acc::atomic_capture(pi[6], acc::divides, 0.25);  // 3 / 0.25 = 12, old 3
  });
}

}  // namespace

TEMPLATE_TEST_CASE("atomic_update and atomic_capture give the sequential result for every operator", "[14][atomic]",
                   signed char, unsigned char, short, unsigned short, int, unsigned, long, unsigned long long, float,
                   double) {
  using T = TestType;
  const int n = GENERATE(1, 255, 3000);
  const bool capture = GENERATE(false, true);
  // Sums and differences recur only once they wrap around T's range.
  const bool no_wrap = 3.0 * (n / slots + 1) + 100 < double(std::numeric_limits<T>::max());
  hammer<T>(acc::plus, T(1), values_for<T>("small", n, 1), capture, no_wrap);
  hammer<T>(acc::minus, T(100), values_for<T>("small", n, 2), capture, no_wrap && std::is_signed_v<T>);
  hammer<T>(acc::multiplies, T(3), values_for<T>("scale", n, 3), capture);
  hammer<T>(acc::divides, T(96), values_for<T>("scale", n, 4), capture);
  hammer<T>(acc::minimum, T(50), values_for<T>("any", n, 5), capture);
  hammer<T>(acc::maximum, T(-50), values_for<T>("any", n, 6), capture);
  hammer<T>(acc::logical_and, T(1), values_for<T>("bool", n, 7), capture);
  hammer<T>(acc::logical_or, T(0), values_for<T>("bool", n, 8), capture);
  if constexpr (std::is_integral_v<T>) {
    hammer<T>(acc::bit_and, T(~T(0)), values_for<T>("bits", n, 9), capture);
    hammer<T>(acc::bit_or, T(0), values_for<T>("bits", n, 10), capture);
    hammer<T>(acc::bit_xor, T(0), values_for<T>("bits", n, 11), capture, false);
    hammer<T>(acc::shift_left, T(3), values_for<T>("shift", n, 12), capture);
    hammer<T>(acc::shift_right, T(96), values_for<T>("shift", n, 13), capture);
  }
}

TEMPLATE_TEST_CASE("atomic_capture of plus 1 hands out distinct tickets", "[14][atomic]", short, int, unsigned, long long,
                   double) {
  using T = TestType;
  const int n = GENERATE(1, 1000, 30000);
  buffer<T> next(1, T(0));
  buffer<int> hits(n, 0);
  T* pn = next.data();
  int* ph = hits.data();
  acc::parallel_loop(n, ACC_LAMBDA(int i) {
    (void)i;
    const T ticket = acc::atomic_capture(*pn, acc::plus, T(1));
    acc::atomic_add(&ph[static_cast<int>(ticket)], 1);
  });
  REQUIRE(next[0] == T(n));
  for (int i = 0; i < n; ++i) REQUIRE(hits[i] == 1);
}

TEMPLATE_TEST_CASE("atomic_write and atomic_read move whole values", "[14][atomic]", unsigned char, short, int,
                   long long, float, double) {
  using T = TestType;
  const int n = GENERATE(1, 1001);
  buffer<T> x(n, T(0)), y(n, T(0));
  T *px = x.data(), *py = y.data();
  acc::parallel_loop(n, ACC_LAMBDA(int i) { acc::atomic_write(px[i], static_cast<T>(i % 100 + 1)); });
  acc::parallel_loop(n, ACC_LAMBDA(int i) { py[i] = acc::atomic_read(px[i]); });
  for (int i = 0; i < n; ++i) REQUIRE(y[i] == static_cast<T>(i % 100 + 1));
}

TEMPLATE_TEST_CASE("atomic_ref has std::atomic_ref's operations", "[14][atomic][atomic_ref]", unsigned char, short, int,
                   unsigned, long long, unsigned long long) {
  using T = TestType;
  const int n = GENERATE(1, 100, 5000);
  // counters: [0] ++, [1] --, [2] +=, [3] -=, [4] fetch_add, [5] postfix ++, [6] |=, [7] ^=.
  buffer<T> c(8, T(0));
  buffer<T> m(2, T(0));  // fetch_max, then fetch_min through compare_exchange
  T* pc = c.data();
  T* pm = m.data();
  m[1] = T(~T(0)) > T(0) ? T(~T(0)) : T(127);
  acc::parallel_loop(n, ACC_LAMBDA(int i) {
    ++acc::atomic_ref<T>(pc[0]);
    acc::atomic_ref<T>(pc[1])--;
    acc::atomic_ref<T>(pc[2]) += T(2);
    acc::atomic_ref<T>(pc[3]) -= T(3);
    acc::atomic_ref<T>(pc[4]).fetch_add(T(1), std::memory_order_relaxed);
    acc::atomic_ref<T>(pc[5])++;
    acc::atomic_ref<T>(pc[6]) |= T(1u << (i % 7));
    acc::atomic_ref<T>(pc[7]) ^= T(1);
    acc::atomic_ref<T>(pm[0]).fetch_max(T(i % 97));
    acc::atomic_ref<T> lo(pm[1]);
    T seen = lo.load(std::memory_order_relaxed);
    const T mine = T(i % 89 + 5);
    while (mine < seen && !lo.compare_exchange_weak(seen, mine)) {
    }
  });
  const auto wrap = [](long long v) { return static_cast<T>(v); };
  REQUIRE(c[0] == wrap(n));
  REQUIRE(c[1] == wrap(-n));
  REQUIRE(c[2] == wrap(2LL * n));
  REQUIRE(c[3] == wrap(-3LL * n));
  REQUIRE(c[4] == wrap(n));
  REQUIRE(c[5] == wrap(n));
  T bits = 0;
  for (int i = 0; i < std::min(n, 7); ++i) bits = T(bits | T(1u << i));
  REQUIRE(c[6] == bits);
  REQUIRE(c[7] == T(n % 2));
  REQUIRE(m[0] == T(std::min(n - 1, 96)));
  REQUIRE(m[1] == T(5));
}

TEMPLATE_TEST_CASE("atomic_ref exchange passes every value along exactly once", "[14][atomic][atomic_ref]", short, int,
                   long long, float, double) {
  using T = TestType;
  const int n = GENERATE(1, 777, 20000);
  buffer<T> cell(1, T(-1));
  buffer<T> got(n, T(0));
  T *pc = cell.data(), *pg = got.data();
  acc::parallel_loop(n, ACC_LAMBDA(int i) {
    pg[i] = acc::atomic_ref<T>(*pc).exchange(static_cast<T>(i % 30000));
  });
  // The old values and the final value are the initial value and every value written.
  std::vector<long long> all;
  for (int i = 0; i < n; ++i) all.push_back(static_cast<long long>(got[i]));
  all.push_back(static_cast<long long>(cell[0]));
  std::sort(all.begin(), all.end());
  std::vector<long long> expect{-1};
  for (int i = 0; i < n; ++i) expect.push_back(i % 30000);
  std::sort(expect.begin(), expect.end());
  REQUIRE(all == expect);
}

TEST_CASE("atomic_ref on floating types adds, subtracts and keeps extrema", "[14][atomic][atomic_ref]") {
  const int n = GENERATE(1, 4097);
  buffer<double> d(3, 0.0);
  buffer<float> f(2, 0.0f);
  double* pd = d.data();
  float* pf = f.data();
  d[1] = 1e9;
  acc::parallel_loop(n, ACC_LAMBDA(int i) {
    acc::atomic_ref<double>(pd[0]) += 0.5;
    acc::atomic_ref<double>(pd[1]).fetch_min(double(i) * 0.25 - 3.0);
    acc::atomic_ref<double>(pd[2]).fetch_max(double(i % 1000));
    acc::atomic_ref<float>(pf[0]) -= 2.0f;
    acc::atomic_ref<float>(pf[1]).store(1.5f, std::memory_order_release);
  });
  REQUIRE(d[0] == 0.5 * n);
  REQUIRE(d[1] == -3.0);
  REQUIRE(d[2] == double(std::min(n - 1, 999)));
  REQUIRE(f[0] == -2.0f * float(n));
  REQUIRE(acc::atomic_ref<float>(f[1]).load() == 1.5f);
}

TEST_CASE("atomic updates with a value of another type give the sequential result", "[14][atomic]") {
  buffer<int> i(7);
  buffer<float> f(1);
  buffer<long long> old(1);
  const int init[7] = {7, 10, -5, 3, 9, 4, 3};
  for (int k = 0; k < 7; ++k) i[k] = init[k];
  f[0] = 16777216.0f;
  const double just_above_one = 1.0 + std::ldexp(1.0, -25);  // 1.0f as a float
  mixed_updates(i, f, old, just_above_one);
  int expect[7];
  for (int k = 0; k < 7; ++k) expect[k] = init[k];
  expect[0] /= 2.5;
  expect[1] *= 0.5;
  expect[2] += 2.5;
  expect[3] = expect[3] && 0.5;
  expect[4] = static_cast<int>(std::min<long long>(expect[4], 5000000000LL));
  expect[5] = static_cast<int>(static_cast<unsigned>(expect[5]) + static_cast<unsigned>(1ULL << 33));
  expect[6] /= 0.25;
  for (int k = 0; k < 7; ++k) REQUIRE(i[k] == expect[k]);
  float ef = 16777216.0f;
  ef += just_above_one;
  REQUIRE(ef == 16777218.0f);
  REQUIRE(f[0] == ef);
  REQUIRE(old[0] == 3);
}

TEST_CASE("a contended minimum with wider values than x", "[14][atomic]") {
  // Every value but the first is above INT_MAX; converted to int first they would wrap to
  // n - k, and the minimum would be 1.
  const int n = GENERATE(2, 1000, 100003);
  buffer<int> lo(1, std::numeric_limits<int>::max());
  int* p = lo.data();
  acc::parallel_loop(n, ACC_LAMBDA(int k) {
    acc::atomic_update(p[0], acc::minimum, static_cast<long long>(k) * 4294967296LL + (n - k));
  });
  REQUIRE(lo[0] == n);
}

TEST_CASE("atomic_add takes a value of another type than *p", "[14][atomic]") {
  const int n = GENERATE(1, 997, 100003);
  buffer<double> sum(1, 0.5);
  buffer<unsigned> count(1, 7u);
  double* s = sum.data();
  unsigned* c = count.data();
  acc::parallel_loop(n, ACC_LAMBDA(int i) {
    acc::atomic_add(s, 1);          // int into a double
    acc::atomic_add(c, i % 3 - 1);  // int into an unsigned: -1 wraps, as `*c += -1` does
  });
  unsigned expect = 7u;
  for (int i = 0; i < n; ++i) expect += static_cast<unsigned>(i % 3 - 1);
  REQUIRE(sum[0] == 0.5 + n);
  REQUIRE(count[0] == expect);
}

TEMPLATE_TEST_CASE("an atomic minimum or maximum that ties keeps x, as the sequential x = op(x, v)", "[14][atomic]",
                   float, double) {
  // -0 and +0 compare equal: a tie, where acc::minimum(x, v) and acc::maximum(x, v) give x, so
  // the sign of x stays.
  const int n = GENERATE(1, 1000);
  buffer<TestType> x(4, TestType(0));
  x[0] = -TestType(0), x[1] = TestType(0), x[2] = -TestType(0), x[3] = TestType(0);
  TestType* p = x.data();
  acc::parallel_loop(n, ACC_LAMBDA(int) {
    acc::atomic_update(p[0], acc::minimum, TestType(0));   // -0 stays -0
    acc::atomic_update(p[1], acc::minimum, -TestType(0));  // +0 stays +0
    acc::atomic_update(p[2], acc::maximum, TestType(0));   // -0 stays -0
    acc::atomic_update(p[3], acc::maximum, -TestType(0));  // +0 stays +0
  });
  REQUIRE(std::signbit(x[0]));
  REQUIRE_FALSE(std::signbit(x[1]));
  REQUIRE(std::signbit(x[2]));
  REQUIRE_FALSE(std::signbit(x[3]));
  REQUIRE(acc::minimum(-TestType(0), TestType(0)) == TestType(0));  // the operator object agrees
  REQUIRE(std::signbit(acc::minimum(-TestType(0), TestType(0))));
}
