// V&V parallel*: the `parallel` construct, its data clauses (a data region around the
// construct in acc), private / firstprivate (gang-shared memory: one copy per gang),
// reduction, if, async / wait, and atomics under `loop independent`.
#include "construct_cases.hpp"

#include <vector>

using vv::n;

TEST_CASE("vv parallel", "[vv][parallel]") {
  // Ten nested two-trip `loop`s: the outer five bits of the index on gangs, the inner five on
  // vector lanes.
  auto a = vv::random_array("a", 1024, 1), b = vv::random_array("b", 1024, 2), c = vv::filled("c", 1024, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copy(c)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, acc::gang, 32, [&](int hi) {
        acc::loop(g, acc::vector, 32, [&](int lo) { c[hi * 32 + lo] = a[hi * 32 + lo] + b[hi * 32 + lo]; });
      });
    });
  }
  for (int x = 0; x < 1024; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

TEST_CASE("vv parallel_async", "[vv][parallel][async]") { vv::async_case(vv::loop_run{}); }
TEST_CASE("vv parallel_wait_queue", "[vv][parallel][async]") { vv::async_case(vv::loop_run{}); }

TEST_CASE("vv parallel_copy", "[vv][parallel][data]") {
  vv::copy_case(vv::loop_run{});
  // copy(device) reduction(+:device): the reduction result lands in the host's variable.
  std::mt19937 g(3);
  double device = vv::uniform(g, 10);
  const double host = device;
  acc::parallel_loop(n, acc::reduction(acc::plus, device), ACC_LAMBDA(int, double& d) { d += 1.0; });
  REQUIRE(vv::same(host, device - n));
}

TEST_CASE("vv parallel_copyin", "[vv][parallel][data]") { vv::copyin_case(vv::loop_run{}); }
TEST_CASE("vv parallel_copyout", "[vv][parallel][data]") { vv::copyout_case(vv::loop_run{}); }
TEST_CASE("vv parallel_create", "[vv][parallel][data]") { vv::create_case(vv::loop_run{}); }
TEST_CASE("vv parallel_copyout_zero", "[vv][parallel][data]") { vv::copyout_zero_case(vv::loop_run{}); }
TEST_CASE("vv parallel_create_zero", "[vv][parallel][data]") { vv::create_zero_case(vv::loop_run{}); }
TEST_CASE("vv parallel_default_copy", "[vv][parallel][data]") { vv::default_copy_case(vv::loop_run{}); }
TEST_CASE("vv parallel_default_present", "[vv][parallel][data]") { vv::default_present_case(vv::loop_run{}); }
TEST_CASE("vv parallel_deviceptr", "[vv][parallel][data]") { vv::deviceptr_case(vv::loop_run{}); }
TEST_CASE("vv parallel_if", "[vv][parallel]") { vv::if_case(vv::loop_run{}); }
TEST_CASE("vv parallel_present", "[vv][parallel][data]") { vv::present_case(vv::loop_run{}); }
TEST_CASE("vv parallel_scalar_default_firstprivate", "[vv][parallel][data]") {
  vv::scalar_default_firstprivate_case(vv::loop_run{});
}
TEST_CASE("vv parallel_switch", "[vv][parallel]") { vv::switch_case(vv::loop_run{}); }
TEST_CASE("vv parallel_wait", "[vv][parallel][async]") { vv::wait_case(vv::loop_run{}); }

TEST_CASE("vv parallel_wait_devnum", "[vv][parallel][async]") {
  // parallel loop async(1) on the current device; update host(b) wait(1).
  auto a = vv::random_array("a", n, 20), b = vv::filled("b", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b)};
    acc::parallel_loop(n, acc::default_present, acc::async(1),
                       acc::device_num(acc::get_device_num(acc::get_device_type())),
                       ACC_LAMBDA(int x) { b[x] = a[x]; });
    acc::wait(1);
    acc::update_self(b);
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x]));
}

TEST_CASE("vv parallel_firstprivate", "[vv][parallel][private]") {
  auto a = vv::random_array("a", 10 * n, 21), b = vv::random_array("b", 10 * n, 22);
  auto c = vv::random_array("c", n, 23), d = vv::filled("d", 10 * n, 0);
  std::vector<double> c_copy(c.data(), c.data() + n);
  {
    // T1: firstprivate(c[0:n]): each gang starts from the host's c.
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copy(d)};
    acc::parallel(acc::num_gangs(10), acc::shared_bytes(n * sizeof(double)), ACC_LAMBDA(const acc::gang_t& g) {
      auto cp = g.shared<double>(n);
      acc::loop(g, acc::worker_vector, n, [&](int y) { cp[y] = c[y]; });
      acc::loop(g, acc::gang, 10, [&](int x) {
        acc::loop(g, acc::worker, n, [&](int y) { d[x * n + y] = a[x * n + y] + b[x * n + y] + cp[y]; });
      });
    });
  }
  for (int x = 0; x < 10 * n; ++x) REQUIRE(vv::same(d[x], a[x] + b[x] + c_copy[x % n]));
  for (int y = 0; y < n; ++y) REQUIRE(c[y] == c_copy[y]);
  {
    // T2: each gang's copy of c holds a - b of its own row.
    for (int y = 0; y < n; ++y) c[y] = 0;
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copy(d)};
    acc::parallel(acc::num_gangs(10), acc::shared_bytes(n * sizeof(double)), ACC_LAMBDA(const acc::gang_t& g) {
      auto cp = g.shared<double>(n);
      acc::loop(g, acc::worker_vector, n, [&](int y) { cp[y] = c[y]; });
      acc::loop(g, acc::gang, 10, [&](int x) {
        acc::loop(g, acc::worker, n, [&](int y) { cp[y] = a[x * n + y] - b[x * n + y]; });
        acc::loop(g, acc::worker, n, [&](int y) { d[x * n + y] = a[x * n + y] + b[x * n + y] + cp[y]; });
      });
    });
  }
  for (int x = 0; x < 10 * n; ++x) REQUIRE(vv::same(d[x], 2 * a[x], 4));
}

TEST_CASE("vv parallel_private", "[vv][parallel][private]") {
  // private(c[0:n]) on `parallel num_gangs(10)`: one c per gang; worker loop fills it, a seq
  // loop (one thread of the gang) sums it into d[x].
  auto a = vv::random_array("a", 10 * n, 24), b = vv::random_array("b", 10 * n, 25), d = vv::filled("d", 10, 0);
  acc::enter_data(acc::copyin(a), acc::copyin(b), acc::copyin(d));
  acc::parallel(acc::num_gangs(10), acc::shared_bytes(n * sizeof(double)), acc::default_present,
                ACC_LAMBDA(const acc::gang_t& g) {
                  auto c = g.shared<double>(n);
                  acc::loop(g, acc::gang, 10, [&](int x) {
                    acc::loop(g, acc::worker, n, [&](int y) { c[y] = a[x * n + y] + b[x * n + y]; });
                    acc::single(g, acc::per_gang, [&] {
                      for (int y = 0; y < n; ++y) d[x] += c[y];
                    });
                  });
                });
  acc::exit_data(acc::copyout(d), acc::delete_(a), acc::delete_(b));
  for (int x = 0; x < 10; ++x) {
    double temp = 0;
    for (int y = 0; y < n; ++y) temp += a[x * n + y] + b[x * n + y];
    REQUIRE(std::abs(temp - d[x]) <= 2 * vv::precision * n);
  }
}

TEST_CASE("vv parallel_reduction", "[vv][parallel][reduction]") {
  // parallel copyin(a) reduction(+:r) with a loop: one private r per gang, folded at the end.
  auto a = vv::random_array("a", n, 26);
  double r = 0.0;
  {
    acc::data region{acc::copyin(a)};
    acc::parallel(acc::reduction(acc::plus, r), ACC_LAMBDA(const acc::gang_t& g, double& s) {
      acc::loop(g, acc::gang, n, [&](int x) { s += a[x]; });
    });
  }
  for (int x = 0; x < n; ++x) r -= a[x];
  REQUIRE(std::abs(r) <= vv::precision * n);
}

TEST_CASE("vv parallel_implicit_data_attributes", "[vv][parallel][data]") {
  // T1, T2: scalars in reduction clauses need no data clause; T3: a loop of no trips leaves the
  // value; T4: an array without a clause is copied in and out.
  int test = 0;
  acc::parallel_loop(n, acc::reduction(acc::plus, test), ACC_LAMBDA(int, int& t) { t += 1; });
  REQUIRE(test == n);
  std::mt19937 g(27);
  double a = vv::uniform(g, 10);
  const double host = a + n;
  acc::parallel_loop(n, acc::reduction(acc::plus, a), ACC_LAMBDA(int, double& s) { s += 1.0; });
  REQUIRE(vv::same(a, host));
  int device_value = static_cast<int>(vv::uniform(g, 10));
  const int host_value = device_value;
  acc::parallel_loop(0, acc::reduction(acc::plus, device_value), ACC_LAMBDA(int, int& v) { v += v; });
  REQUIRE(device_value == host_value);
  auto host_array = vv::random_array("h", n, 28), device_array = vv::filled("d", n, 0);
  for (int x = 0; x < n; ++x) device_array[x] = host_array[x];
  acc::parallel_loop(n, ACC_LAMBDA(int x) { device_array[x] += device_array[x]; });
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(host_array[x] * 2, device_array[x]));
}

TEST_CASE("vv parallel_while_loop", "[vv][parallel]") {
  // Per row (gang), a while loop runs a vector loop that scales the row by 1.5 and reduces its
  // mean, until the mean passes 1000.
  auto a = vv::random_array("a", 10 * n, 29);
  {
    acc::data region{acc::copy(a)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, acc::gang, 10, [&](int y) {
        double avg = 0.0;
        while (avg - 1000 < vv::precision * n) {
          avg = acc::loop_reduce(g, acc::vector, n, acc::plus, [&](int x) {
            a[n * y + x] *= 1.5;
            return a[n * y + x] / n;
          });
        }
      });
    });
  }
  for (int y = 0; y < 10; ++y) {
    double avg = 0.0;
    for (int x = 0; x < n; ++x) avg += a[y * n + x] / n;
    REQUIRE(avg >= 1000);
    REQUIRE(avg <= 1600);
  }
}

// parallel_independent_atomic*: `parallel` { `loop independent` { `atomic ...` } }, each
// iteration its own element.
namespace {
template <class Body>
void independent_loop(Body body) {
  acc::parallel(ACC_LAMBDA(const acc::gang_t& g) { acc::loop(g, acc::gang_vector, n, [&](int x) { body(x); }); });
}
}  // namespace

TEST_CASE("vv parallel_independent_atomic", "[vv][parallel][atomic]") {
  auto a = vv::random_array("a", n, 30), b = vv::random_array("b", n, 31);
  {
    acc::data region{acc::copy(a), acc::copy(b)};
    independent_loop(ACC_LAMBDA(int x) {
      acc::atomic_update(a[x], acc::multiplies, 2.0);
      b[x] = a[x];
    });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x]));
  auto c = vv::random_array("c", n, 32), c0 = vv::filled("c0", n, 0);
  for (int x = 0; x < n; ++x) c0[x] = c[x];
  {
    acc::data region{acc::copy(c)};
    independent_loop(ACC_LAMBDA(int x) { acc::atomic_update(c[x], acc::plus, 1.0); });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], c0[x] + 1));
}

TEST_CASE("vv parallel_independent_atomic_capture", "[vv][parallel][atomic]") {
  auto a = vv::random_array("a", n, 33), b = vv::random_array("b", n, 34);
  {
    acc::data region{acc::copy(a), acc::copy(b)};
    independent_loop(ACC_LAMBDA(int x) { b[x] = acc::atomic_capture(a[x], acc::plus, 1.0); });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x] + 1));
}

TEST_CASE("vv parallel_independent_atomic_read", "[vv][parallel][atomic]") {
  auto a = vv::random_array("a", n, 35), b = vv::random_array("b", n, 36);
  {
    acc::data region{acc::copy(a), acc::copy(b)};
    independent_loop(ACC_LAMBDA(int x) { b[x] = acc::atomic_read(a[x]); });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x]));
}

TEST_CASE("vv parallel_independent_atomic_update", "[vv][parallel][atomic]") {
  auto a = vv::random_array("a", n, 37), b = vv::filled("b", n, 0);
  for (int x = 0; x < n; ++x) b[x] = a[x];
  {
    acc::data region{acc::copy(a)};
    independent_loop(ACC_LAMBDA(int x) { acc::atomic_update(a[x], acc::plus, 1.0); });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x] + 1));
}

TEST_CASE("vv parallel_independent_atomic_write", "[vv][parallel][atomic]") {
  auto a = vv::random_array("a", n, 38), b = vv::random_array("b", n, 39);
  {
    acc::data region{acc::copy(a), acc::copy(b)};
    independent_loop(ACC_LAMBDA(int x) { acc::atomic_write(b[x], a[x]); });
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(a[x], b[x]));
}
