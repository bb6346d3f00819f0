// OpenACC V&V `loop` and `wait` tests (Tests/loop_*.cpp, Tests/wait_if*.cpp) in acc. A `wait`
// clause on a construct is acc::wait_async before it; on an update it is acc::wait; `if` on an
// update is a C++ if around it.
#include "vv_support.hpp"

#include <catch2/catch.hpp>

TEST_CASE("vv loop_collapse", "[vv][loop]") {
  // 10 rows of n: collapse(1) parallelises rows, each row a running sum; collapse(2) all cells.
  const int ni = 10, nj = vv::n;
  auto a = vv::filled("a", vv::random_vector(ni * nj));
  auto b = vv::filled("b", vv::random_vector(ni * nj));
  acc::array<double> c("c", ni * nj);
  SECTION("collapse(1): sequential inner loop") {
    for (int i = 0; i < ni * nj; ++i) c[i] = 0.0;
    {
      acc::data region{acc::copyin(a), acc::copyin(b), acc::copy(c)};
      acc::parallel_loop(ni, ACC_LAMBDA(int x) {
        c[x * nj] = a[x * nj] + b[x * nj];
        for (int y = 1; y < nj; ++y) c[x * nj + y] = c[x * nj + y - 1] + a[x * nj + y] + b[x * nj + y];
      });
    }
    for (int x = 0; x < ni; ++x) {
      double s = 0;
      for (int y = 0; y < nj; ++y) {
        s += a[x * nj + y] + b[x * nj + y];
        REQUIRE(vv::close(c[x * nj + y], s, 1e-12));
      }
    }
  }
  SECTION("collapse(2)") {
    {
      acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(c)};
      acc::parallel_loop(acc::collapse(ni, nj), ACC_LAMBDA(int x, int y) { c[x * nj + y] = a[x * nj + y] + b[x * nj + y]; });
    }
    for (int i = 0; i < ni * nj; ++i) REQUIRE(vv::close(c[i], a[i] + b[i]));
  }
}

TEST_CASE("vv loop_no_collapse_default", "[vv][loop]") {
  // Without collapse only the outer loop is partitioned: the inner one stays in order.
  const int ni = 10, nj = vv::n;
  auto a = vv::filled("a", vv::random_vector(ni * nj));
  auto b = vv::filled("b", vv::random_vector(ni * nj));
  acc::array<double> c("c", ni * nj);
  for (int i = 0; i < ni * nj; ++i) c[i] = 0.0;
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copy(c)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, acc::gang_worker_vector, ni, [&](int x) {
        c[x * nj] = a[x * nj] + b[x * nj];
        for (int y = 1; y < nj; ++y) c[x * nj + y] = c[x * nj + y - 1] + a[x * nj + y] + b[x * nj + y];
      });
    });
  }
  for (int x = 0; x < ni; ++x) {
    double s = 0;
    for (int y = 0; y < nj; ++y) {
      s += a[x * nj + y] + b[x * nj + y];
      REQUIRE(vv::close(c[x * nj + y], s, 1e-12));
    }
  }
}

namespace {

/// c = a + b on queue 1, f = d + e on queue 2, g = c + f on queue 3 after both; then update
/// host of c, f, g waiting on their queues if `cond`.
void three_queues(bool cond, bool wait_all_at_once) {
  auto a = vv::filled("a", vv::random_vector());
  auto b = vv::filled("b", vv::random_vector());
  auto d = vv::filled("d", vv::random_vector());
  auto e = vv::filled("e", vv::random_vector());
  acc::array<double> c("c", vv::n), f("f", vv::n), g("g", vv::n);
  for (int x = 0; x < vv::n; ++x) c[x] = f[x] = g[x] = 0.0;
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copyin(d),
                     acc::copyin(e), acc::copyin(f), acc::copyin(g)};
    acc::parallel_loop(vv::n, acc::async(1), ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::parallel_loop(vv::n, acc::async(2), ACC_LAMBDA(int x) { f[x] = d[x] + e[x]; });
    acc::wait_async(1, 3);  // parallel loop wait(1, 2) async(3)
    acc::wait_async(2, 3);
    acc::parallel_loop(vv::n, acc::async(3), ACC_LAMBDA(int x) { g[x] = c[x] + f[x]; });
    if (cond) {
      if (wait_all_at_once) {
        acc::wait(1, 2);
        acc::update_self(c, f);
        acc::wait(1, 2, 3);
        acc::update_self(g);
      } else {
        acc::wait(1);
        acc::update_self(c);
        acc::wait(2);
        acc::update_self(f);
        acc::wait(3);
        acc::update_self(g);
      }
    }
    acc::wait();
  }
  // Without separate memory the loops wrote the host's arrays: the sums are there, updated or not.
  for (int x = 0; x < vv::n; ++x) {
    if (cond || !vv::separate_memory()) {
      REQUIRE(vv::close(c[x], a[x] + b[x]));
      REQUIRE(vv::close(f[x], d[x] + e[x]));
      REQUIRE(vv::close(g[x], a[x] + b[x] + d[x] + e[x]));
    } else {
      REQUIRE(c[x] == 0.0);
      REQUIRE(f[x] == 0.0);
      REQUIRE(g[x] == 0.0);
    }
  }
}

}  // namespace

TEST_CASE("vv wait_if", "[vv][wait]") {
  const bool cond = GENERATE(true, false);
  const bool at_once = GENERATE(true, false);
  three_queues(cond, at_once);
}

TEST_CASE("vv wait_if_devnum_true", "[vv][wait]") {
  three_queues(acc::get_device_num(acc::get_device_type()) >= 0, false);
}
TEST_CASE("vv wait_if_devnum_false", "[vv][wait]") {
  three_queues(acc::get_device_num(acc::get_device_type()) < 0, false);
}
TEST_CASE("vv wait_if_queue_true", "[vv][wait]") { three_queues(true, true); }
TEST_CASE("vv wait_if_queue_false", "[vv][wait]") { three_queues(false, true); }
