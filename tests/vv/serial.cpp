// V&V serial*: the `serial` construct (one gang, one worker, one vector lane: the body runs
// once, its loops in order).
#include "reduction_family.hpp"
#include "construct_cases.hpp"

using vv::n;

TEST_CASE("vv serial", "[vv][serial]") {
  auto a = vv::random_array("a", 1024, 1), b = vv::random_array("b", 1024, 2), c = vv::filled("c", 1024, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copy(c)};
    acc::serial(ACC_LAMBDA() {
      for (int x = 0; x < 1024; ++x) c[x] = a[x] + b[x];
    });
  }
  for (int x = 0; x < 1024; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

TEST_CASE("vv serial_async", "[vv][serial][async]") { vv::async_case(vv::serial_run{}); }
TEST_CASE("vv serial_copy", "[vv][serial][data]") { vv::copy_case(vv::serial_run{}); }
TEST_CASE("vv serial_copyin", "[vv][serial][data]") { vv::copyin_case(vv::serial_run{}); }
TEST_CASE("vv serial_copyout", "[vv][serial][data]") { vv::copyout_case(vv::serial_run{}); }
TEST_CASE("vv serial_create", "[vv][serial][data]") { vv::create_case(vv::serial_run{}); }
TEST_CASE("vv serial_copyout_zero", "[vv][serial][data]") { vv::copyout_zero_case(vv::serial_run{}); }
TEST_CASE("vv serial_create_zero", "[vv][serial][data]") { vv::create_zero_case(vv::serial_run{}); }
TEST_CASE("vv serial_default_copy", "[vv][serial][data]") { vv::default_copy_case(vv::serial_run{}); }
TEST_CASE("vv serial_default_present", "[vv][serial][data]") { vv::default_present_case(vv::serial_run{}); }
TEST_CASE("vv serial_deviceptr", "[vv][serial][data]") { vv::deviceptr_case(vv::serial_run{}); }
TEST_CASE("vv serial_if", "[vv][serial]") { vv::if_case(vv::serial_run{}); }
TEST_CASE("vv serial_present", "[vv][serial][data]") { vv::present_case(vv::serial_run{}); }
TEST_CASE("vv serial_scalar_default_firstprivate", "[vv][serial][data]") {
  vv::scalar_default_firstprivate_case(vv::serial_run{});
}
TEST_CASE("vv serial_switch", "[vv][serial]") { vv::switch_case(vv::serial_run{}); }
TEST_CASE("vv serial_wait", "[vv][serial][async]") { vv::wait_case(vv::serial_run{}); }
TEST_CASE("vv serial_implicit_data_attributes", "[vv][serial][data]") {
  auto t = vv::random_array("t", n, 3), h = vv::filled("h", n, 0);
  for (int x = 0; x < n; ++x) h[x] = t[x];
  vv::serial_run{}(n, ACC_LAMBDA(int x) { t[x] += t[x]; });
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(h[x] * 2, t[x]));
}

// Loops inside serial: whatever the level clause, one thread runs them in order, so a loop
// carrying a dependence gives the sequential result.
namespace {
void serial_prefix_sum() {
  auto a = vv::random_array("a", n, 4), b = vv::filled("b", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copy(b)};
    acc::serial(ACC_LAMBDA() {
      for (int x = 1; x < n; ++x) b[x] = b[x - 1] + a[x];
    });
  }
  double temp = 0;
  for (int x = 1; x < n; ++x) {
    temp += a[x];
    REQUIRE(std::abs(b[x] - temp) <= vv::precision * n * std::max(1.0, temp));
  }
}
void serial_blocking() {
  auto a = vv::random_array("a", n, 5), b = vv::random_array("b", n, 6), c = vv::filled("c", n, 0);
  const double multiplyer = 2;
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(c)};
    acc::serial(ACC_LAMBDA() {
      for (int x = 0; x < n; ++x) c[x] = (a[x] + b[x]) * multiplyer;
      for (int x = 0; x < n; ++x) c[x] = c[x] + a[x] + b[x];
    });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], 3 * (a[x] + b[x]), 2));
}
void serial_add() {
  auto a = vv::random_array("a", n, 7), b = vv::random_array("b", n, 8), c = vv::filled("c", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copy(c)};
    vv::serial_run{}(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}
}  // namespace

TEST_CASE("vv serial_loop", "[vv][serial]") { serial_add(); }
TEST_CASE("vv serial_loop_async", "[vv][serial][async]") {
  auto a = vv::random_array("a", n, 9), b = vv::filled("b", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copy(b)};
    vv::serial_run{}(n, ACC_LAMBDA(int x) { b[x] = a[x] * 2; }, acc::async(1));
    acc::wait(1);
  }
  for (int x = 0; x < n; ++x) REQUIRE(b[x] == a[x] * 2);
}
TEST_CASE("vv serial_loop_auto", "[vv][serial]") { serial_prefix_sum(); }
TEST_CASE("vv serial_loop_gang", "[vv][serial]") { serial_add(); }
TEST_CASE("vv serial_loop_worker", "[vv][serial]") { serial_add(); }
TEST_CASE("vv serial_loop_vector", "[vv][serial]") { serial_add(); }
TEST_CASE("vv serial_loop_seq", "[vv][serial]") { serial_prefix_sum(); }
TEST_CASE("vv serial_loop_gang_blocking", "[vv][serial]") { serial_blocking(); }
TEST_CASE("vv serial_loop_worker_blocking", "[vv][serial]") { serial_blocking(); }
TEST_CASE("vv serial_loop_vector_blocking", "[vv][serial]") { serial_blocking(); }
TEST_CASE("vv serial_loop_tile", "[vv][serial][tile]") {
  auto a = vv::random_array("a", n, 10), b = vv::random_array("b", n, 11), c = vv::random_array("c", n, 12);
  acc::array<double, 2> d2("d2", n, n);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copyout(d2)};
    acc::serial(ACC_LAMBDA() {
      for (int x = 0; x < n; ++x)
        for (int y = 0; y < n; ++y) {
          double temp = 0;
          for (int z = 0; z < n; ++z) temp += a[x] + b[y] + c[z];
          d2(x, y) = temp;
        }
    });
  }
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) {
      double temp = 0;
      for (int z = 0; z < n; ++z) temp += a[x] + b[y] + c[z];
      REQUIRE(std::abs(temp - d2(x, y)) <= vv::precision * n);
    }
}
TEST_CASE("vv serial_private", "[vv][serial][private]") {
  // private(c[0:n]) of the one gang: a local array in the body.
  auto a = vv::random_array("a", 10 * n, 13), b = vv::random_array("b", 10 * n, 14), d = vv::filled("d", 10, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copy(d)};
    acc::serial(ACC_LAMBDA() {
      double c[n];
      for (int x = 0; x < 10; ++x) {
        for (int y = 0; y < n; ++y) c[y] = a[x * n + y] + b[x * n + y];
        for (int y = 0; y < n; ++y) d[x] += c[y];
      }
    });
  }
  for (int x = 0; x < 10; ++x) {
    double temp = 0;
    for (int y = 0; y < n; ++y) temp += a[x * n + y] + b[x * n + y];
    REQUIRE(std::abs(temp - d[x]) <= 2 * vv::precision * n);
  }
}
TEST_CASE("vv serial_firstprivate", "[vv][serial][private]") {
  // firstprivate(c[0:n]): a local copy of the host's c; the host's c is unchanged.
  auto a = vv::random_array("a", 10 * n, 15), c = vv::random_array("c", n, 16), d = vv::filled("d", 10 * n, 0);
  std::vector<double> c0(c.data(), c.data() + n);
  {
    acc::data region{acc::copyin(a), acc::copyin(c), acc::copy(d)};
    acc::serial(ACC_LAMBDA() {
      double cp[n];
      for (int y = 0; y < n; ++y) cp[y] = c[y];
      for (int x = 0; x < 10; ++x)
        for (int y = 0; y < n; ++y) d[x * n + y] = a[x * n + y] + cp[y];
    });
  }
  for (int x = 0; x < 10 * n; ++x) REQUIRE(vv::same(d[x], a[x] + c0[x % n]));
}
TEST_CASE("vv serial_reduction", "[vv][serial][reduction]") { vv::serial_general<vv::add_d>(); }
TEST_CASE("vv serial_while_loop", "[vv][serial]") {
  auto a = vv::random_array("a", 10 * n, 17);
  {
    acc::data region{acc::copy(a)};
    acc::serial(ACC_LAMBDA() {
      for (int y = 0; y < 10; ++y) {
        double avg = 0.0;
        while (avg - 1000 < vv::precision * n) {
          avg = 0.0;
          for (int x = 0; x < n; ++x) {
            a[n * y + x] *= 1.5;
            avg += a[n * y + x] / n;
          }
        }
      }
    });
  }
  for (int y = 0; y < 10; ++y) {
    double avg = 0.0;
    for (int x = 0; x < n; ++x) avg += a[y * n + x] / n;
    REQUIRE(avg >= 1000);
    REQUIRE(avg <= 1600);
  }
}

#define VV_SERIAL_REDUCTION_CASES(opname, D)                                                                  \
  TEST_CASE("vv serial_loop_reduction_" opname "_general", "[vv][serial][reduction]") { vv::serial_general<D>(); } \
  TEST_CASE("vv serial_loop_reduction_" opname "_loop", "[vv][serial][reduction]") { vv::serial_rows<D>(true); }    \
  TEST_CASE("vv serial_loop_reduction_" opname "_vector_loop", "[vv][serial][reduction]") { vv::serial_rows<D>(false); }

VV_SERIAL_REDUCTION_CASES("add", vv::add_d)
VV_SERIAL_REDUCTION_CASES("multiply", vv::multiply_d)
VV_SERIAL_REDUCTION_CASES("max", vv::max_d)
VV_SERIAL_REDUCTION_CASES("min", vv::min_d)
VV_SERIAL_REDUCTION_CASES("and", vv::and_d)
VV_SERIAL_REDUCTION_CASES("or", vv::or_d)
VV_SERIAL_REDUCTION_CASES("bitand", vv::bitand_d)
VV_SERIAL_REDUCTION_CASES("bitor", vv::bitor_d)
VV_SERIAL_REDUCTION_CASES("bitxor", vv::bitxor_d)
