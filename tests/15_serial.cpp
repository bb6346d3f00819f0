// Level 15: acc::serial, OpenACC's `serial` construct: the body runs once, with implicit data
// and default_present as for parallel_loop, and the clauses it takes.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

// Compute constructs live in plain functions: nvcc rejects extended lambdas inside lambdas.

// A sequential prefix sum inside one serial region: only correct if the body runs exactly once
// and in order.
void prefix_in_serial(acc::array<long long> a) {
  const std::size_t n = a.size();
  acc::serial(ACC_LAMBDA() {
    for (std::size_t i = 1; i < n; ++i) a[i] += a[i - 1];
  });
}

// Counts how often the body runs: a non-idempotent update of one element.
void bump(acc::array<int> c, int q) {
  acc::serial(acc::async(q), ACC_LAMBDA() { c[0] += 1; });
}

void periodic_halo(acc::array<double> a, bool on_device) {
  const long n = static_cast<long>(a.size()) - 2;
  acc::serial(acc::if_(on_device), acc::default_present, ACC_LAMBDA() {
    a[0] = a[n];
    a[n + 1] = a[1];
  });
}

void read_only_sum(acc::view<const long long> in, acc::array<long long> out) {
  const std::size_t n = in.size();
  acc::serial(ACC_LAMBDA() {
    long long s = 0;  // a scalar declared in the body is private to it, as OpenACC's would be
    for (std::size_t i = 0; i < n; ++i) s += in[i];
    out[0] = s;
  });
}

void present_only(acc::array<int> a) {
  acc::serial(acc::default_present, ACC_LAMBDA() { a[0] = 1; });
}

void on_device(acc::array<int> a, int dev) {
  acc::serial(acc::device_num(dev), ACC_LAMBDA() { a[0] = 7; });
}

struct serial_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A kernel never calls it (the body runs with if_(false)), but nvcc compiles it for the device.
ACC_ROUTINE inline void fail_serial() {
#if defined(__CUDA_ARCH__)
  __trap();
#else
  throw serial_failure("from serial");
#endif
}

void throw_on_host() {
  acc::serial(acc::if_(false), ACC_LAMBDA() { fail_serial(); });
}

}  // namespace

TEST_CASE("serial runs its body once, in order, with implicit copy of captured arrays", "[15][serial]") {
  const long n = GENERATE(1L, 2L, 33L, 1009L);
  acc::array<long long> a("a", n);
  std::mt19937_64 gen(static_cast<unsigned>(n));
  std::uniform_int_distribution<long long> d(-1000, 1000);
  for (auto& e : a) e = d(gen);
  std::vector<long long> expect(a.begin(), a.end());
  for (long i = 1; i < n; ++i) expect[i] += expect[i - 1];

  prefix_in_serial(a);  // not present: copied in and out for the construct
  REQUIRE(std::vector<long long>(a.begin(), a.end()) == expect);
}

TEST_CASE("serial with async runs once per call, in queue order", "[15][serial][async]") {
  acc::array<int> c("c", 1);
  c[0] = 0;
  const int calls = GENERATE(1, 5, 40);
  {
    acc::data region{acc::copy(c)};
    for (int k = 0; k < calls; ++k) bump(c, 3);
    acc::wait(3);
  }
  REQUIRE(c[0] == calls);
}

TEST_CASE("serial with default_present uses present data, on the device or the host (if_)", "[15][serial][data]") {
  const long n = GENERATE(1L, 7L, 100L);
  const bool device = GENERATE(true, false);
  acc::array<double> a("a", n + 2);
  for (long i = 0; i < n + 2; ++i) a[i] = 0.5 * i;
  {
    acc::data region{acc::copy(a)};
    periodic_halo(a, device);
    // if_(false) wrote the host copy: bring it to the device so copy-out keeps it.
    if (!device) acc::update_device(a);
  }
  REQUIRE(a[0] == 0.5 * n);
  REQUIRE(a[n + 1] == 0.5);
  for (long i = 1; i <= n; ++i) REQUIRE(a[i] == 0.5 * i);
}

TEST_CASE("serial copies in a const array only, and writes its results back", "[15][serial][data]") {
  const long n = GENERATE(1L, 300L);
  acc::array<long long> in("in", n), out("out", 1);
  long long expect = 0;
  for (long i = 0; i < n; ++i) expect += in[i] = 3 * i - 7;
  read_only_sum(in, out);
  REQUIRE(out[0] == expect);
}

TEST_CASE("serial with default_present throws when captured data is absent", "[15][serial][data]") {
  acc::array<int> a("absent", 4);
  REQUIRE_THROWS_AS(present_only(a), acc::not_present_error);
  acc::data region{acc::copy(a)};
  REQUIRE_NOTHROW(present_only(a));
}

TEST_CASE("serial with device_num runs on that device, a missing one is a bad_clause", "[15][serial][clauses]") {
  acc::array<int> a("a", 1);
  a[0] = 0;
  on_device(a, 0);
  REQUIRE(a[0] == 7);
  if (acc::get_device_type() == acc::device_type::nvidia) {
    const int gpus = acc::get_num_devices(acc::device_type::nvidia);
    REQUIRE_THROWS_AS(on_device(a, gpus), acc::bad_clause);
  }
}

TEST_CASE("an exception thrown in a serial body on the host reaches the caller", "[15][serial][exception]") {
  REQUIRE_THROWS_AS(throw_on_host(), serial_failure);
}

namespace {
// Generic code that receives the body: acc::serial(body) and acc::parallel(body) with a named
// body are calls (they would declare a variable `body` if the constructs were class templates).
template <class F>
void run_serial(F body) {
  acc::serial(body);
}
template <class F>
void run_parallel(int gangs, F body) {
  acc::parallel(body);
  acc::parallel(acc::num_gangs(gangs), body);
  acc::parallel(acc::default_present, acc::if_(false), body);
}
}  // namespace

TEST_CASE("serial and parallel take a body held in a variable", "[15][serial]") {
  const int n = GENERATE(1, 13, 1000);
  acc::array<long> a("a", n);
  for (int i = 0; i < n; ++i) a[i] = i;
  run_serial(ACC_LAMBDA() { a[0] += 1000; });
  auto serial_body = ACC_LAMBDA() { a[n - 1] += 7; };
  acc::serial(serial_body);
  acc::serial(acc::adaptive, serial_body);
  // Each call of the gang loop adds i once per element, whatever the number of gangs.
  run_parallel(3, ACC_LAMBDA(const acc::gang_t& g) { acc::loop(g, acc::gang, n, [&](int i) { a[i] += i; }); });
  std::vector<long> expect(n);
  for (int i = 0; i < n; ++i) expect[i] = i + 3L * i;
  expect[0] += 1000;
  expect[n - 1] += 14;
  for (int i = 0; i < n; ++i) REQUIRE(a[i] == expect[i]);
}
