// V&V kernels* (but the reductions): `kernels` regions whose loops are independent, so each
// is the parallel loop acc runs; data clauses on the construct are a data region around it.
// Loops with carried dependences (auto-parallelisation proper) are not emulated.
#include "construct_cases.hpp"

using vv::n;

namespace {
// A launcher type of its own: the same template instantiated with ACC_LAMBDA in two CUDA
// translation units crashes under nvcc (see docs/conformance.md).
struct kernels_run : vv::loop_run {};
}  // namespace

TEST_CASE("vv kernels_async", "[vv][kernels][async]") { vv::async_case(kernels_run{}); }
TEST_CASE("vv kernels_copy", "[vv][kernels][data]") {
  vv::copy_case(kernels_run{});
  // T3 (devonly): copy inside a region where c is present copies nothing at the construct.
  if (!vv::separate_memory()) return;
  auto a = vv::random_array("a", n, 1), b = vv::random_array("b", n, 2), c = vv::filled("c", n, 1);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copy(c)};
    for (int x = 0; x < n; ++x) c[x] = 0;
    {
      acc::data inner{acc::copy(c)};
      acc::parallel_loop(n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
    }
    for (int x = 0; x < n; ++x) REQUIRE(c[x] == 0.0);
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x] + 1));
}
TEST_CASE("vv kernels_copyin", "[vv][kernels][data]") { vv::copyin_case(kernels_run{}); }
TEST_CASE("vv kernels_copyout", "[vv][kernels][data]") { vv::copyout_case(kernels_run{}); }
TEST_CASE("vv kernels_create", "[vv][kernels][data]") { vv::create_case(kernels_run{}); }
TEST_CASE("vv kernels_copyout_zero", "[vv][kernels][data]") { vv::copyout_zero_case(kernels_run{}); }
TEST_CASE("vv kernels_create_zero", "[vv][kernels][data]") { vv::create_zero_case(kernels_run{}); }
TEST_CASE("vv kernels_default_copy", "[vv][kernels][data]") { vv::default_copy_case(kernels_run{}); }
TEST_CASE("vv kernels_default_present", "[vv][kernels][data]") { vv::default_present_case(kernels_run{}); }
TEST_CASE("vv kernels_present", "[vv][kernels][data]") { vv::present_case(kernels_run{}); }
TEST_CASE("vv kernels_wait", "[vv][kernels][async]") { vv::wait_case(kernels_run{}); }

TEST_CASE("vv kernels_if", "[vv][kernels]") {
  // if(data_on_device) present(a, b): true runs on the device copies, false on the host's.
  auto a = vv::random_array("a", n, 3), b = vv::filled("b", n, 0);
  for (bool data_on_device : {false, true}) {
    for (int x = 0; x < n; ++x) b[x] = 0;
    if (data_on_device) acc::enter_data(acc::copyin(a), acc::create(b));
    acc::parallel_loop(n, acc::if_(data_on_device), ACC_LAMBDA(int x) { b[x] = a[x]; });
    if (data_on_device) acc::exit_data(acc::copyout(b), acc::delete_(a));
    for (int x = 0; x < n; ++x) REQUIRE(vv::same(b[x], a[x]));
  }
  if (!vv::separate_memory()) return;
  // T3: data present but if false: the host's a (-1) goes to the host's b; the device's copies
  // stay as entered.
  for (int x = 0; x < n; ++x) b[x] = 0;
  auto a0 = vv::filled("a0", n, 0);
  for (int x = 0; x < n; ++x) a0[x] = a[x];
  acc::enter_data(acc::copyin(a), acc::create(b));
  for (int x = 0; x < n; ++x) a[x] = -1;
  acc::parallel_loop(n, acc::if_(false), ACC_LAMBDA(int x) { b[x] = a[x]; });
  for (int x = 0; x < n; ++x) REQUIRE(b[x] == -1.0);
  acc::exit_data(acc::copyout(a), acc::delete_(b));
  for (int x = 0; x < n; ++x) REQUIRE(a[x] == a0[x]);
}

TEST_CASE("vv kernels_loop", "[vv][kernels]") {
  // kernels loop over 1024 elements as nested independent loops: a collapse(4) split into
  // collapse(2, 2, 256) here (acc collapses up to three).
  auto a = vv::random_array("a", 1024, 4), b = vv::filled("b", 1024, 0);
  {
    acc::data region{acc::copy(a), acc::copyout(b)};
    acc::parallel_loop(acc::collapse(2, 2, 256), ACC_LAMBDA(int i, int j, int k) {
      const int x = i * 512 + j * 256 + k;
      b[x] = a[x];
    });
  }
  for (int x = 0; x < 1024; ++x) REQUIRE(a[x] == b[x]);
}

TEST_CASE("vv kernels_loop_independent", "[vv][kernels]") {
  auto a = vv::random_array("a", n, 5), b = vv::filled("b", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyout(b)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { b[x] = a[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x]));
}

TEST_CASE("vv kernels_loop_seq", "[vv][kernels]") {
  // kernels loop seq: the dependent loop runs in order on one thread of the device.
  auto a = vv::random_array("a", n, 6), b = vv::filled("b", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copy(b)};
    acc::parallel(acc::num_gangs(1), ACC_LAMBDA(const acc::gang_t& g) {
      acc::single(g, acc::per_gang, [&] {
        for (int x = 1; x < n; ++x) b[x] = b[x - 1] + a[x];
      });
    });
  }
  double temp = 0;
  for (int x = 1; x < n; ++x) {
    temp += a[x];
    REQUIRE(std::abs(b[x] - temp) <= vv::precision * n * std::max(1.0, temp));
  }
}

TEST_CASE("vv kernels_loop_tile", "[vv][kernels][tile]") {
  auto a = vv::random_array("a", n, 7), b = vv::random_array("b", n, 8), c = vv::random_array("c", n, 9);
  acc::array<double, 2> d2("d2", n, n);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copyout(d2)};
    acc::tile_loop(acc::collapse(n, n), acc::tile_size(4, 4), ACC_LAMBDA(int x, int y) {
      double temp = 0;
      for (int z = 0; z < n; ++z) temp += a[x] + b[y] + c[z];
      d2(x, y) = temp;
    });
  }
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) {
      double temp = 0;
      for (int z = 0; z < n; ++z) temp += a[x] + b[y] + c[z];
      REQUIRE(std::abs(temp - d2(x, y)) <= vv::precision * n);
    }
}

namespace {
template <class Level>
void kernels_blocking(Level level) {
  auto a = vv::random_array("a", n, 10), b = vv::random_array("b", n, 11), c = vv::filled("c", n, 0);
  const double multiplyer = 2;
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(c)};
    acc::parallel(acc::num_gangs(1), ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, level, n, [&](int x) { c[x] = (a[x] + b[x]) * multiplyer; });
      // A worker loop's body runs in every vector lane of its worker (docs/porting.md): the
      // read-modify-write goes in single(per_worker), so that it runs once per iteration.
      acc::loop(g, level, n, [&](int x) {
        if constexpr (Level::vector) c[x] = c[x] + a[x] + b[x];
        else acc::single(g, acc::per_worker, [&] { c[x] = c[x] + a[x] + b[x]; });
      });
    });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], 3 * (a[x] + b[x]), 2));
}

template <class Clause>
void copy_with(Clause clause) {
  auto a = vv::random_array("a", n, 12), b = vv::filled("b", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyout(b)};
    acc::parallel_loop(n, clause, ACC_LAMBDA(int x) { b[x] = a[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(a[x] == b[x]);
}
}  // namespace

TEST_CASE("vv kernels_loop_vector_blocking", "[vv][kernels]") { kernels_blocking(acc::vector); }
TEST_CASE("vv kernels_loop_worker_blocking", "[vv][kernels]") { kernels_blocking(acc::worker); }
TEST_CASE("vv kernels_num_gangs", "[vv][kernels]") { copy_with(acc::num_gangs(16)); }
TEST_CASE("vv kernels_num_workers", "[vv][kernels]") { copy_with(acc::num_workers(16)); }
TEST_CASE("vv kernels_vector_length", "[vv][kernels]") { copy_with(acc::vector_length(16)); }

TEST_CASE("vv kernel_implicit_data_attributes", "[vv][kernels][data]") {
  // T2: an array without a data clause is copied in and out. (T1, a scalar doubled by a
  // dependent loop, needs kernels auto-parallelisation.)
  auto test_array = vv::random_array("t", n, 13), host_array = vv::filled("h", n, 0);
  for (int x = 0; x < n; ++x) host_array[x] = test_array[x];
  acc::parallel_loop(n, ACC_LAMBDA(int x) { test_array[x] += test_array[x]; });
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(host_array[x] * 2, test_array[x]));
}
