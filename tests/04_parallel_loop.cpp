// Level 4: acc::parallel_loop over counts and ranges, every clause, every index type.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <limits>
#include <thread>
#include <utility>

#include "support/arrays.hpp"
#include "support/buffer.hpp"

#if defined(_OPENMP)
#  include <omp.h>
#endif

namespace {

// A user function called from a compute region (OpenACC `routine`).
ACC_ROUTINE long long mix(long long i) { return 3 * i + 1; }

}  // namespace

TEMPLATE_TEST_CASE("parallel_loop over a count visits each index once, as the sequential loop",
                   "[04][loop]", signed char, short, int, unsigned, long, long long, std::size_t) {
  using I = TestType;
  // Only the counts that type I can hold.
  const long long n = GENERATE(filter([](long long c) { return std::cmp_less_equal(c, std::numeric_limits<I>::max()); },
                                      values<long long>({0, 1, 2, 31, 32, 33, 127, 255, 256, 257, 1009, 65537,
                                                         (1 << 20) + 3})));

  acc::array<long long> x(n + 1), y(n + 1);
  acc_test::fill_random(x, 11u + static_cast<unsigned>(n));
  acc_test::fill_random(y, 12u);
  std::vector<long long> expect = acc_test::to_vector(y);
  for (long long i = 0; i < n; ++i) expect[i] += 5 * x[i] + mix(i);

  acc::parallel_loop(static_cast<I>(n), ACC_LAMBDA(I i) {
    static_assert(std::is_same_v<decltype(i), I>);
    y[i] += 5 * x[i] + mix(static_cast<long long>(i));
  });
  REQUIRE(acc_test::to_vector(y) == expect);  // includes y[n], which no iteration may touch
}

TEST_CASE("parallel_loop on floats matches the sequential loop to rounding", "[04][loop]") {
  const int n = GENERATE(1, 1000, 100003);
  // Host vectors seen through views, mapped by a data region around the construct.
  std::vector<float> x(n), y(n);
  acc_test::fill_random(x, 1u, -1.0f, 1.0f);
  acc_test::fill_random(y, 2u, -1.0f, 1.0f);
  std::vector<float> expect = y;
  const float a = 0.7f;
  for (int i = 0; i < n; ++i) expect[i] = a * x[i] + expect[i];
  {
    acc::view<const float> vx(x.data(), n);
    acc::view<float> vy(y.data(), n);
    acc::data region{acc::copyin(vx), acc::copy(vy)};
    acc::parallel_loop(n, ACC_LAMBDA(int i) { vy[i] = a * vx[i] + vy[i]; });
  }
  // nvcc contracts a * x + y into one fma: within an ulp of the host's two roundings.
  for (int i = 0; i < n; ++i) REQUIRE(y[i] == Approx(expect[i]).epsilon(1e-6).margin(1e-6));
}

TEST_CASE("negative counts and empty ranges run no iteration, as the sequential loop", "[04][loop]") {
  acc::array<int> hits(1);
  acc::parallel_loop(-5, ACC_LAMBDA(int) { hits[0] = 1; });
  acc::parallel_loop(0L, ACC_LAMBDA(long) { hits[0] = 1; });
  acc::parallel_loop(acc::range(10, 3), ACC_LAMBDA(int) { hits[0] = 1; });
  acc::parallel_loop(acc::range(7, 7), ACC_LAMBDA(int) { hits[0] = 1; });
  REQUIRE(hits[0] == 0);
}

TEST_CASE("num_gangs, num_workers and vector_length never change the result", "[04][loop][clauses]") {
  const int n = GENERATE(1, 97, 10007);
  const auto [gangs, workers, vector] = GENERATE(table<int, int, int>({{1, 1, 1},
                                                                       {1, 1, 33},
                                                                       {3, 1, 7},
                                                                       {7, 1, 1024},
                                                                       {1000, 1, 32},
                                                                       {2, 4, 31},
                                                                       {5, 8, 96}}));
  acc::array<long long> out(n);
  acc::parallel_loop(n, acc::num_gangs(gangs), acc::num_workers(workers), acc::vector_length(vector),
                     ACC_LAMBDA(int i) { out[i] += mix(i); });  // += : a second visit would show
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == mix(i));
}

TEST_CASE("ranges start at lo and reach the limits of their index type", "[04][loop][range]") {
  SECTION("int near INT_MAX") {
    acc::array<int> out(1000);
    acc::parallel_loop(acc::range(INT_MAX - 1000, INT_MAX), ACC_LAMBDA(int i) { out[i - (INT_MAX - 1000)] = i; });
    for (int k = 0; k < 1000; ++k) REQUIRE(out[k] == INT_MAX - 1000 + k);
  }
  SECTION("int from INT_MIN") {
    acc::array<int> out(999);
    acc::parallel_loop(acc::range(INT_MIN, INT_MIN + 999), acc::num_gangs(2), acc::vector_length(32),
                       ACC_LAMBDA(int i) { out[i - INT_MIN] = i; });
    for (int k = 0; k < 999; ++k) REQUIRE(out[k] == INT_MIN + k);
  }
  SECTION("unsigned near UINT_MAX") {
    acc::array<unsigned> out(77);
    acc::parallel_loop(acc::range(UINT_MAX - 77u, UINT_MAX), ACC_LAMBDA(unsigned i) { out[i - (UINT_MAX - 77u)] = i; });
    for (unsigned k = 0; k < 77; ++k) REQUIRE(out[k] == UINT_MAX - 77u + k);
  }
  SECTION("long long beyond 2^32, negative lo, mixed bound types") {
    const long long lo = -5'000'000'000'000LL;
    acc::array<long long> out(4099);
    acc::parallel_loop(acc::range(lo, lo + 4099), ACC_LAMBDA(long long i) { out[i - lo] = i; });
    for (long long k = 0; k < 4099; ++k) REQUIRE(out[k] == lo + k);
    acc::array<long> out2(10);
    acc::parallel_loop(acc::range(3, 13L), ACC_LAMBDA(long i) { out2[i - 3] = i * i; });
    for (long k = 0; k < 10; ++k) REQUIRE(out2[k] == (k + 3) * (k + 3));
  }
}

// 2^31 + 37 iterations, with no memory per iteration: every 2^20-th index and the last one
// leave a mark, which a 32-bit counter would wrap before reaching.
template <class... Clauses>
void check_beyond_2_31(Clauses... clauses) {
  const long long n = (1LL << 31) + 37;
  constexpr long long step = 1 << 20;
  const long long marks = n / step + 1;
  acc::array<long long> mark = acc_test::filled(marks + 1, -1LL);
  acc::parallel_loop(n, clauses..., ACC_LAMBDA(long long i) {
    if ((i & (step - 1)) == 0) mark[i / step] = i;
    if (i == n - 1) mark[marks] = i;
  });
  for (long long k = 0; k < marks; ++k) REQUIRE(mark[k] == k * step);
  REQUIRE(mark[marks] == n - 1);
}

TEST_CASE("64-bit counts beyond 2^31 reach every index", "[04][loop][large]") {
  check_beyond_2_31();
  // Few gangs make each thread stride many times through the 64-bit space; on the host this
  // is the same loop again, so only GPUs run it.
  if (acc_test::gpu_run()) check_beyond_2_31(acc::num_gangs(5), acc::vector_length(64));
}

TEST_CASE("if_(false) runs the construct on the host", "[04][loop][clauses]") {
  acc::array<int> where = acc_test::filled(2, -1);
  acc::parallel_loop(1, acc::if_(false), ACC_LAMBDA(int) { where[0] = acc_test::on_device(); });
  acc::parallel_loop(1, acc::if_(true), ACC_LAMBDA(int) { where[1] = acc_test::on_device(); });
  REQUIRE(where[0] == 0);
  REQUIRE(where[1] == (acc_test::gpu_run() ? 1 : 0));
}

TEST_CASE("device_num picks an existing device and rejects others", "[04][loop][clauses]") {
  acc::array<int> out(3);
  acc::parallel_loop(3, acc::device_num(0), ACC_LAMBDA(int i) { out[i] = i + 1; });
  REQUIRE(acc_test::to_vector(out) == std::vector<int>{1, 2, 3});
  if (acc_test::gpu_run()) {
    const int gpus = acc::get_num_devices(acc::device_type::nvidia);
    REQUIRE_THROWS_AS(acc::parallel_loop(3, acc::device_num(gpus), ACC_LAMBDA(int) {}), acc::bad_clause);
    REQUIRE_THROWS_WITH(acc::parallel_loop(3, acc::device_num(gpus), ACC_LAMBDA(int) {}),
                        Catch::Contains("device_num(" + std::to_string(gpus) + ") does not exist"));
  }
}

TEST_CASE("invalid clauses throw bad_clause naming the clause and the call site", "[04][loop][errors]") {
  auto body = ACC_LAMBDA(int) {};
  REQUIRE_THROWS_AS(acc::parallel_loop(8, acc::vector_length(0), body), acc::bad_clause);
  REQUIRE_THROWS_WITH(acc::parallel_loop(8, acc::vector_length(0), body),
                      Catch::Contains("acc::parallel_loop at 04_parallel_loop.cpp:") &&
                          Catch::Contains("vector_length(0) must be at least 1"));
  REQUIRE_THROWS_WITH(acc::parallel_loop(8, acc::num_gangs(-2), body), Catch::Contains("num_gangs(-2)"));
  REQUIRE_THROWS_WITH(acc::parallel_loop(8, acc::num_workers(0), body), Catch::Contains("num_workers(0)"));
  REQUIRE_THROWS_WITH(acc::parallel_loop(8, acc::async(-7), body), Catch::Contains("async(-7) is not a queue"));
  // Checked before the loop runs, even when it has no iteration.
  REQUIRE_THROWS_AS(acc::parallel_loop(0, acc::vector_length(-1), body), acc::bad_clause);
  // All bad_clauses are acc::errors are std::runtime_errors.
  REQUIRE_THROWS_AS(acc::parallel_loop(8, acc::num_gangs(0), body), std::runtime_error);
}

// The host has no such limit.
TEST_CASE("a vector_length the GPU cannot launch throws bad_clause with both numbers", "[04][loop][errors][gpu]") {
  REQUIRE_THROWS_AS(acc::parallel_loop(8, acc::vector_length(4096), ACC_LAMBDA(int) {}), acc::bad_clause);
  REQUIRE_THROWS_WITH(acc::parallel_loop(8, acc::vector_length(512), acc::num_workers(4), ACC_LAMBDA(int) {}),
                      Catch::Contains("2048 threads per gang") && Catch::Contains("runs at most 1024"));
}

namespace {
struct scaler {
  long long factor;
  void apply(acc::view<long long> v) const {
    acc::parallel_loop(v.size(), ACC_CLASS_LAMBDA(std::size_t i) { v[i] *= factor; });
  }
};
}  // namespace

TEST_CASE("ACC_CLASS_LAMBDA captures the object by value", "[04][loop]") {
  acc::array<long long> v(301);
  acc_test::fill_random(v, 5u);
  auto expect = acc_test::to_vector(v);
  for (auto& e : expect) e *= -3;
  scaler{-3}.apply(v);
  REQUIRE(acc_test::to_vector(v) == expect);
}

// 2^32 - 1 iterations of a 32-bit index, whose counter is 32 bits: it must stop at the end
// without wrapping, whatever the grid. Marks as above; GPU only (the host would run 4e9
// iterations in order).
template <class... Clauses>
void check_full_int_range(Clauses... clauses) {
  constexpr long long step = 1 << 20;
  const long long n = (1LL << 32) - 1, marks = n / step + 1;
  acc::array<long long> mark = acc_test::filled(marks + 1, -1LL);
  acc::array<int> visits_of_last(1);
  acc::parallel_loop(acc::range(INT_MIN, INT_MAX), clauses..., ACC_LAMBDA(int i) {
    const long long t = static_cast<long long>(i) - INT_MIN;
    if ((t & (step - 1)) == 0) mark[t / step] = t;
    if (i == INT_MAX - 1) {
      mark[marks] = t;
      acc_test::atomic_inc(&visits_of_last[0]);
    }
  });
  for (long long k = 0; k < marks; ++k) REQUIRE(mark[k] == k * step);
  REQUIRE(mark[marks] == n - 1);
  REQUIRE(visits_of_last[0] == 1);
}

// 2^32 iterations take minutes on the host.
TEST_CASE("a 32-bit index range of 2^32 - 1 iterations ends without wrapping", "[04][loop][large][gpu]") {
  check_full_int_range();
  check_full_int_range(acc::num_gangs(7), acc::vector_length(96));
}

namespace {

// Compute constructs in plain functions: nvcc rejects extended lambdas inside lambdas.
// `d` is a device address (acc::deviceptr): the body captures no array, so after its first
// call the dispatch runs it as written, without the copy that maps arrays.
void affine_raw(long long* d, long long n, long long f) {
  acc::parallel_loop(n, ACC_LAMBDA(long long i) { d[i] = d[i] * f + i % 5; });
}

void affine_array(acc::array<long long> a, long long f) {
  acc::parallel_loop(static_cast<long long>(a.size()), ACC_LAMBDA(long long i) { a[i] = a[i] * f + i % 5; });
}

void affine_reference(std::vector<long long>& v, long long f) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = v[i] * f + static_cast<long long>(i % 5);
}

}  // namespace

TEST_CASE("bodies without arrays run as written on every call, bodies with arrays are still mapped",
          "[04][loop][dispatch]") {
  const long long n = GENERATE(1, 2, 97, 4099);
  acc::array<long long> a("a", n);
  acc_test::fill_random(a, 31u + static_cast<unsigned>(n));
  std::vector<long long> expect = acc_test::to_vector(a);
  acc::enter_data(acc::copyin(a));
  long long* d = acc::deviceptr(a);
  for (long long f = 2; f < 6; ++f) {
    affine_raw(d, n, f);
    affine_reference(expect, f);
  }
  acc::exit_data(acc::copyout(a));
  REQUIRE(acc_test::to_vector(a) == expect);
  // Not present now: each call copies the array in and out (implicit data), call after call.
  for (long long f = -3; f < 0; ++f) {
    affine_array(a, f);
    affine_reference(expect, f);
    REQUIRE(acc_test::to_vector(a) == expect);
  }
}

namespace {
// A body that captures more arrays than a construct records in place (capture_scope keeps 32,
// then a list): each is mapped, written and copied back like the first.
struct many_arrays {
  static constexpr int count = 40;
  acc::array<long long> a[count];
  ACC_ROUTINE void operator()(long long i) const {
    for (int k = 0; k < count; ++k) a[k][i] = a[k][i] * (k + 2) + i;
  }
};
}  // namespace

TEST_CASE("a body capturing 40 arrays maps and copies back every one", "[04][loop][dispatch]") {
  const long long n = GENERATE(1, 37, 1031);
  many_arrays body;
  std::vector<std::vector<long long>> expect;
  for (int k = 0; k < many_arrays::count; ++k) {
    body.a[k] = acc::array<long long>("many", n);
    acc_test::fill_random(body.a[k], 7u * static_cast<unsigned>(k) + static_cast<unsigned>(n), -1000LL, 1000LL);
    std::vector<long long> e = acc_test::to_vector(body.a[k]);
    for (long long i = 0; i < n; ++i) e[i] = e[i] * (k + 2) + i;
    expect.push_back(e);
  }
  acc::parallel_loop(n, body);
  for (int k = 0; k < many_arrays::count; ++k) REQUIRE(acc_test::to_vector(body.a[k]) == expect[k]);
}

namespace {
// A class template over an ACC_LAMBDA's type is a class body: nvcc's name for it mentions the
// lambda only among its template arguments.
template <class F>
struct shifted {
  F f;
  long long offset;
  ACC_ROUTINE void operator()(long long i) const { f(i + offset); }
};
template <class F>
shifted<F> shift(F f, long long offset) {
  return {f, offset};
}
}  // namespace

TEST_CASE("a functor wrapping an ACC_LAMBDA is a body", "[04][loop]") {
  const long long n = GENERATE(0, 1, 997, 65537);
  const long long offset = 5;
  acc::array<long long> a("a", n + offset);
  for (long long i = 0; i < n + offset; ++i) a[i] = -1;
  acc::parallel_loop(n, shift(ACC_LAMBDA(long long j) { a[j] = 3 * j; }, offset));
  for (long long i = 0; i < n + offset; ++i) REQUIRE(a[i] == (i < offset ? -1 : 3 * i));
}

namespace {
template <class I>
void add_index(acc::array<long long> y, I lo, I hi) {
  acc::parallel_loop(acc::range(lo, hi), ACC_LAMBDA(I i) { y[i - lo] += static_cast<long long>(i); });
}
}  // namespace

// A GPU launch goes through the driver with the kernel's handle; a host thread that has made no
// CUDA call yet has no current context for it, and the launch must still happen, once.
TEST_CASE("constructs run from host threads that never made a CUDA call", "[04][loop][threads]") {
  const long long n = GENERATE(1, 1000, 65537);
  acc::array<long long> y("y", n), z("z", n);
  std::vector<long long> expect_y(static_cast<std::size_t>(n)), expect_z(expect_y);
  for (long long i = 0; i < n; ++i) y[i] = z[i] = i, expect_y[i] = 3 * i, expect_z[i] = 3 * i + 7;
  std::thread t1([&] {
    add_index<int>(y, 7, 7 + static_cast<int>(n));  // 32-bit index: the 1-D launch path
    add_index<long long>(y, -7, n - 7);              // 64-bit index: the general one
  });
  t1.join();
  std::thread t2([&] { add_index<long long>(z, 0, n); });
  t2.join();
  add_index<long long>(z, 7, n + 7);
  REQUIRE(acc_test::to_vector(y) == expect_y);
  REQUIRE(acc_test::to_vector(z) == expect_z);
}

TEST_CASE("a negative device_num is bad_clause on every compute construct", "[04][loop][clauses][errors]") {
  acc::array<int> out(4);
  REQUIRE_THROWS_WITH(acc::parallel_loop(4, acc::device_num(-2), ACC_LAMBDA(int i) { out[i] = 1; }),
                      Catch::Contains("acc::parallel_loop at 04_parallel_loop.cpp:") &&
                          Catch::Contains("device_num(-2) is negative"));
  REQUIRE_THROWS_AS(acc::parallel_reduce(4, acc::device_num(-5), acc::plus, ACC_LAMBDA(int i) { return i; }),
                    acc::bad_clause);
  REQUIRE_THROWS_AS(acc::parallel(acc::device_num(-3), ACC_LAMBDA(const acc::gang_t&) {}), acc::bad_clause);
  REQUIRE(acc_test::to_vector(out) == std::vector<int>(4, 0));  // nothing ran
}

TEST_CASE("num_gangs(1) on the host runs the construct as the sequential loop, to the bit", "[04][loop][clauses]") {
  // Host gangs become threads (backend/host/executor.hpp): one gang is the calling thread alone,
  // so even with OpenMP a float sum is the sequential loop's. if_(false): on the host everywhere.
  const int n = GENERATE(1, 1009, 100003);
  acc::array<float> x(n);
  acc_test::fill_random(x, 17u, -1.0f, 1.0f);
  float e = 0.5f;
  for (int i = 0; i < n; ++i) e += x[i];
  const acc::view<const float> p = x;
  REQUIRE(acc::parallel_reduce(n, acc::num_gangs(1), acc::if_(false), acc::plus,
                               ACC_LAMBDA(int i) { return p[i]; }, 0.5f) == e);
  float s = 0.5f;
  acc::parallel_loop(n, acc::num_gangs(1), acc::if_(false), acc::reduction(acc::plus, s),
                     ACC_LAMBDA(int i, float& v) { v += p[i]; });
  REQUIRE(s == e);
}

namespace {
// One thread's constructs, in a function of their own (not in the OpenMP region's block).
void fill_and_sum(acc::array<long long>& y, long long add, long long& sum) {
  acc::parallel_loop(static_cast<long long>(y.size()), ACC_LAMBDA(long long i) { y[i] = mix(i) + add; });
  sum = acc::parallel_reduce(static_cast<long long>(y.size()), acc::plus, ACC_LAMBDA(long long i) { return y[i]; });
}
}  // namespace

TEST_CASE("constructs called inside an OpenMP parallel region run every iteration", "[04][loop][threads]") {
  // Nested in a region, OpenMP gives a construct's region one thread, fewer than it asked for:
  // that thread takes every part.
  const long long n = GENERATE(1, 1000, 65537);
  acc::array<long long> y0("y0", n), y1("y1", n);
  long long sums[2] = {0, 0};
  bool ran[2] = {false, false};
#if defined(_OPENMP)
#  pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    if (t < 2) fill_and_sum(t == 0 ? y0 : y1, t, sums[t]), ran[t] = true;
  }
#endif
  // Without OpenMP, or where its region had one thread: the rest here.
  if (!ran[0]) fill_and_sum(y0, 0, sums[0]);
  if (!ran[1]) fill_and_sum(y1, 1, sums[1]);
  long long e0 = 0, e1 = 0;
  for (long long i = 0; i < n; ++i) {
    REQUIRE(y0[i] == mix(i));
    REQUIRE(y1[i] == mix(i) + 1);
    e0 += mix(i), e1 += mix(i) + 1;
  }
  REQUIRE(sums[0] == e0);
  REQUIRE(sums[1] == e1);
}
