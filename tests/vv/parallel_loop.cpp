// V&V parallel_loop* (but the reductions): `parallel loop` with gang / worker / vector / seq /
// auto / independent / tile, blocking loops in a region, async queues.
#include "construct_cases.hpp"

using vv::n;

TEST_CASE("vv parallel_loop", "[vv][parallel_loop]") {
  auto a = vv::filled("a", n, 0);
  {
    acc::data region{acc::copy(a)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { a[x] = 1.0; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(a[x] == 1.0);
  // T2: two loops in one region; the second sees the first's writes.
  auto b = vv::random_array("b", n, 1), c = vv::random_array("c", n, 2);
  {
    acc::data region{acc::copy(a), acc::copy(b), acc::copy(c)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, acc::gang_worker_vector, n, [&](int x) { a[x] = b[x]; });
      acc::loop(g, acc::gang_worker_vector, n, [&](int x) { a[x] += c[x]; });
    });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x] + c[x], 2));
}

TEST_CASE("vv parallel_loop_async", "[vv][parallel_loop][async]") {
  auto a = vv::random_array("a", 10 * n, 3), b = vv::random_array("b", 10 * n, 4);
  auto c = vv::filled("c", 10 * n, 0), d = vv::filled("d", 10 * n, 0);
  for (int x = 0; x < 10 * n; ++x) d[x] = a[x] + b[x];
  acc::array<int> errors("errors", 10);
  for (int x = 0; x < 10; ++x) errors[x] = 0;
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copyin(d), acc::copy(errors)};
    for (int x = 0; x < 10; ++x) {
      acc::parallel_loop(n, acc::async(x), ACC_LAMBDA(int y) { c[x * n + y] = a[x * n + y] + b[x * n + y]; });
      // reduction(+:errors[x]) on queue x: counted into the device's errors[x]
      acc::parallel_loop(n, acc::async(x), ACC_LAMBDA(int y) {
        if (c[x * n + y] - d[x * n + y] > vv::precision || d[x * n + y] - c[x * n + y] > vv::precision)
          acc::atomic_update(errors[x], acc::plus, 1);
      });
    }
    acc::wait();
  }
  for (int x = 0; x < 10; ++x) REQUIRE(errors[x] == 0);
  // T2: two constructs on queue 0 with copy clauses, then wait.
  auto p = vv::random_array("p", n, 5), q = vv::random_array("q", n, 6);
  auto p2 = vv::filled("p2", n, 0), q2 = vv::filled("q2", n, 0);
  for (int x = 0; x < n; ++x) p2[x] = p[x] * 2, q2[x] = q[x] * 2;
  acc::parallel_loop(n, acc::async(0), ACC_LAMBDA(int x) { p[x] = p[x] * 2; });
  acc::parallel_loop(n, acc::async(0), ACC_LAMBDA(int x) { q[x] = q[x] * 2; });
  acc::wait();
  for (int x = 0; x < n; ++x) REQUIRE((p[x] == p2[x] && q[x] == q2[x]));
}

TEST_CASE("vv parallel_loop_auto", "[vv][parallel_loop]") {
  // `loop auto` over a carried dependence in one gang, worker and lane: the loop must run
  // sequentially, which is acc::seq.
  auto device = vv::random_array("device", n, 7), host = vv::filled("host", n, 0);
  for (int x = 0; x < n; ++x) host[x] = device[x];
  {
    acc::data region{acc::copy(device)};
    acc::parallel(acc::num_gangs(1), acc::num_workers(1), acc::vector_length(1), ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, acc::seq, acc::range(1, n), [&](int x) { device[x] = device[x - 1] + device[x]; });
    });
  }
  double rolling_total = 0;
  for (int x = 0; x < n; ++x) {
    rolling_total += host[x];
    REQUIRE(std::abs(rolling_total - device[x]) <= vv::precision * (x + 1) * std::max(1.0, rolling_total));
  }
}

namespace {
template <class Level>
void add_at_level(Level level) {
  auto a = vv::random_array("a", n, 8), b = vv::random_array("b", n, 9), c = vv::filled("c", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copy(c)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) { acc::loop(g, level, n, [&](int x) { c[x] = a[x] + b[x]; }); });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

/// A region with two loops at one level, the second reading what the first wrote.
template <class Level>
void blocking_at_level(Level level) {
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
}  // namespace

TEST_CASE("vv parallel_loop_gang", "[vv][parallel_loop]") { add_at_level(acc::gang); }
TEST_CASE("vv parallel_loop_worker", "[vv][parallel_loop]") { add_at_level(acc::worker); }
TEST_CASE("vv parallel_loop_vector", "[vv][parallel_loop]") { add_at_level(acc::vector); }
TEST_CASE("vv parallel_loop_worker_blocking", "[vv][parallel_loop]") { blocking_at_level(acc::worker); }
TEST_CASE("vv parallel_loop_vector_blocking", "[vv][parallel_loop]") { blocking_at_level(acc::vector); }

TEST_CASE("vv parallel_loop_independent", "[vv][parallel_loop]") {
  auto a = vv::random_array("a", n, 12), b = vv::filled("b", n, 0);
  {
    acc::data region{acc::copy(a), acc::copyout(b)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { b[x] = a[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x]));
}

TEST_CASE("vv parallel_loop_independent_reduction", "[vv][parallel_loop][reduction]") {
  auto a = vv::random_array("a", n, 13);
  double reduction = 0;
  {
    acc::data region{acc::copyin(a)};
    acc::parallel(acc::reduction(acc::plus, reduction), ACC_LAMBDA(const acc::gang_t& g, double& r) {
      acc::loop(g, acc::gang, n, [&](int x) { r = r + a[x]; });
    });
  }
  for (int x = 0; x < n; ++x) reduction -= a[x];
  REQUIRE(std::abs(reduction) <= vv::precision * n);
}

TEST_CASE("vv parallel_loop_seq", "[vv][parallel_loop]") {
  auto a = vv::random_array("a", n, 14), b = vv::filled("b", n, 0);
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

TEST_CASE("vv parallel_loop_tile", "[vv][parallel_loop][tile]") {
  auto a = vv::random_array("a", n, 15), b = vv::random_array("b", n, 16), c = vv::random_array("c", n, 17);
  acc::array<double, 2> d2("d2", n, n);
  {
    // tile(*, *): the tile shape is acc's choice; temp is private to an iteration.
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copy(d2)};
    acc::tile_loop(acc::collapse(n, n), acc::tile_size(8, 8), ACC_LAMBDA(int x, int y) {
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
  acc::array<double, 3> d3("d3", n, n, n);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copyout(d3)};
    acc::tile_loop(acc::collapse(n, n, n), acc::tile_size(2, 4, 8),
                   ACC_LAMBDA(int x, int y, int z) { d3(x, y, z) = a[x] + b[x] + c[x]; });
  }
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y)
      for (int z = 0; z < n; ++z) REQUIRE(std::abs(d3(x, y, z) - a[x] - b[x] - c[x]) <= vv::precision * 2);
}
