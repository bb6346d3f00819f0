// V&V acc_get_default_async, acc_set_default_async, set_default_async, acc_wait_any,
// acc_wait_all_async, acc_map_data, acc_unmap_data, acc_memcpy_d2d: the default async queue,
// waits over several queues, program-owned device memory in the present table, and copies
// between devices. `async` with no number is acc::async(); the `set default_async(q)`
// directive is acc::set(acc::default_async(q)).
#include "construct_cases.hpp"

#include <vector>

using vv::n;

namespace {

/// Gives the thread its initial default async queue back when a case ends.
struct default_async_reset {
  ~default_async_reset() { acc::set_default_async(acc::async_default); }
};

/// a = a*a on the default queue set to 1, b = b*b on the default queue set to 2, then
/// c = a + b on queue 1 after queue 2; `set_default(q)` is how each variant sets it (a
/// function pointer: nvcc takes no local lambda type as the template argument of a function
/// that holds an ACC_LAMBDA).
void squares_on_default_queues(void (*set_default)(int)) {
  default_async_reset reset;
  auto a = vv::random_array("a", n, 71), b = vv::random_array("b", n, 72), c = vv::filled("c", n, 0);
  std::vector<double> a0(a.data(), a.data() + n), b0(b.data(), b.data() + n);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(c)};
    set_default(1);
    acc::parallel_loop(n, acc::async(), ACC_LAMBDA(int x) { a[x] = a[x] * a[x]; });
    set_default(2);
    acc::parallel_loop(n, acc::async(), ACC_LAMBDA(int x) { b[x] = b[x] * b[x]; });
    acc::wait_async(2, 1);  // `async(1) wait(2)`
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::wait(1);
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a0[x] * a0[x] + b0[x] * b0[x], 4));
}

}  // namespace

TEST_CASE("vv acc_get_default_async", "[vv][runtime][async]") {
  // `parallel async` runs on the default queue, which acc::get_default_async names and
  // acc::wait completes; the default is a queue number (>= 0).
  auto a = vv::random_array("a", n, 73), b = vv::random_array("b", n, 74), c = vv::filled("c", n, 0);
  const int holder = acc::get_default_async();
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(c)};
    acc::parallel_loop(n, acc::async(), ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::wait(holder);
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
  REQUIRE(acc::get_default_async() >= 0);
}

TEST_CASE("vv acc_set_default_async", "[vv][runtime][async]") {
  squares_on_default_queues([](int q) { acc::set_default_async(q); });
}

TEST_CASE("vv set_default_async", "[vv][set][async]") {
  squares_on_default_queues([](int q) { acc::set(acc::default_async(q)); });
}

TEST_CASE("vv acc_wait_any", "[vv][runtime][async]") {
  // a and b are incremented on queues 0 and 1; as each queue is reported done, its array is
  // doubled; at the end c == a + b, c having been computed from the starting values. The
  // suite's third entry is never set: here it is acc::async_sync, which wait_any skips.
  auto a = vv::random_array("a", n, 75), b = vv::random_array("b", n, 76), c = vv::filled("c", n, 0);
  for (int x = 0; x < n; ++x) c[x] = (a[x] + 1) * 2 + (b[x] + 1) * 2;
  acc::array<double> list[2] = {a, b};
  int queues[3] = {acc::async_sync, acc::async_sync, acc::async_sync};
  {
    acc::data region{acc::copyin(a), acc::copyin(b)};
    for (int i = 0; i < 2; ++i) {
      acc::enter_data(acc::copyin(list[i]), acc::async(i));
      queues[i] = i;
      acc::array<double> v = list[i];
      acc::parallel_loop(n, acc::async(i), ACC_LAMBDA(int k) { v[k] += 1; });
    }
    int next;
    int reported = 0;
    while ((next = acc::wait_any(3, queues)) >= 0) {
      REQUIRE(next < 2);
      queues[next] = acc::async_sync;
      ++reported;
      acc::array<double> v = list[next];
      acc::parallel_loop(n, ACC_LAMBDA(int k) { v[k] = v[k] * 2; });
    }
    REQUIRE(reported == 2);
    // The suite leaves the enter data's references to the region's end; copy the results back.
    acc::update_self(a, b);
    acc::exit_data(acc::delete_(a), acc::delete_(b));
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

TEST_CASE("vv acc_wait_all_async", "[vv][runtime][async]") {
  // Three queues each produce a sum; queue 4 waits for all of them (acc_wait_all_async) and
  // combines them; then three more products, and queue 4 again waits for all.
  auto a = vv::random_array("a", n, 77), b = vv::random_array("b", n, 78), d = vv::random_array("d", n, 79),
       e = vv::random_array("e", n, 80), g = vv::random_array("g", n, 81), h = vv::random_array("h", n, 82);
  auto c = vv::filled("c", n, 0), f = vv::filled("f", n, 0), i = vv::filled("i", n, 0), j = vv::filled("j", n, 0),
       k = vv::filled("k", n, 0);
  std::vector<double> a0(a.data(), a.data() + n), d0(d.data(), d.data() + n), g0(g.data(), g.data() + n);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(d), acc::copyin(e), acc::copyin(g),
                     acc::copyin(h), acc::create(c), acc::create(f), acc::create(i), acc::create(j),
                     acc::copyout(k)};
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::parallel_loop(n, acc::async(2), ACC_LAMBDA(int x) { f[x] = d[x] + e[x]; });
    acc::parallel_loop(n, acc::async(3), ACC_LAMBDA(int x) { i[x] = g[x] + h[x]; });
    acc::wait_all_async(4);
    acc::parallel_loop(n, acc::async(4), ACC_LAMBDA(int x) { j[x] = c[x] + f[x] + i[x]; });
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int x) { a[x] = b[x] * c[x]; });
    acc::parallel_loop(n, acc::async(2), ACC_LAMBDA(int x) { d[x] = e[x] * f[x]; });
    acc::parallel_loop(n, acc::async(3), ACC_LAMBDA(int x) { g[x] = h[x] * i[x]; });
    acc::wait_all_async(4);
    acc::parallel_loop(n, acc::async(4), ACC_LAMBDA(int x) { k[x] = j[x] + a[x] + d[x] + g[x]; });
    acc::wait(4);
  }
  for (int x = 0; x < n; ++x) {
    double expect = a0[x] + b[x] + d0[x] + e[x] + g0[x] + h[x];
    expect += b[x] * (a0[x] + b[x]) + e[x] * (d0[x] + e[x]) + h[x] * (g0[x] + h[x]);
    REQUIRE(vv::same(k[x], expect, 10));
  }
}

namespace {

/// The suite's acc_map_data / acc_unmap_data tests (the same three cases in both files).
/// `T1`: c mapped to an acc::malloc block, c = a + b in a present region, update, unmap, free.
void map_one() {
  auto a = vv::random_array("a", n, 83), b = vv::random_array("b", n, 84);
  std::vector<double> c(n, 0.0);
  auto* d = static_cast<double*>(acc::malloc(n * sizeof(double)));
  REQUIRE(d);
  acc::map_data(c.data(), d, n * sizeof(double));
  acc::view<double> cv(c.data(), n);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::present(cv)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { cv[x] = a[x] + b[x]; });
  }
  acc::update_self(c.data(), n);
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
  acc::unmap_data(c.data());
  acc::free(d);
}

/// `T2`: two host arrays mapped to the two halves of one block.
void map_two() {
  auto a = vv::random_array("a", n, 85), b = vv::random_array("b", n, 86);
  std::vector<double> c(n, 0.0), e(n, 0.0);
  auto* d = static_cast<double*>(acc::malloc(2 * n * sizeof(double)));
  REQUIRE(d);
  acc::map_data(c.data(), d, n * sizeof(double));
  acc::map_data(e.data(), d + n, n * sizeof(double));
  acc::view<double> cv(c.data(), n), ev(e.data(), n);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::present(cv), acc::present(ev)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { cv[x] = a[x] + b[x]; });
    acc::parallel_loop(n, ACC_LAMBDA(int x) { ev[x] = a[x] * b[x]; });
  }
  acc::update_self(c.data(), n);
  acc::update_self(e.data(), n);
  for (int x = 0; x < n; ++x) {
    REQUIRE(vv::same(c[x], a[x] + b[x]));
    REQUIRE(vv::same(e[x], a[x] * b[x]));
  }
  acc::unmap_data(c.data());
  acc::unmap_data(e.data());
  acc::free(d);
}

/// `T3`: the block is written through a deviceptr region first; mapped, c then holds that
/// (c += a + b gives twice the sum).
void map_written() {
  auto a = vv::random_array("a", n, 87), b = vv::random_array("b", n, 88);
  std::vector<double> c(n, 0.0);
  auto* d = static_cast<double*>(acc::malloc(n * sizeof(double)));
  REQUIRE(d);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::deviceptr(d, n)};
    acc::view<double> dv(d, n);
    acc::parallel_loop(n, ACC_LAMBDA(int x) { dv[x] = a[x] + b[x]; });
  }
  acc::map_data(c.data(), d, n * sizeof(double));
  acc::view<double> cv(c.data(), n);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::present(cv)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { cv[x] += a[x] + b[x]; });
  }
  acc::update_self(c.data(), n);
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], 2 * (a[x] + b[x]), 2));
  acc::unmap_data(c.data());
  acc::free(d);
}

}  // namespace

TEST_CASE("vv acc_map_data", "[vv][runtime][data]") {
  map_one();
  map_two();
  map_written();
}

TEST_CASE("vv acc_unmap_data", "[vv][runtime][data]") {
  map_one();
  map_two();
  map_written();
  // After unmap_data the host data is no longer present.
  std::vector<double> c(n);
  auto* d = static_cast<double*>(acc::malloc(n * sizeof(double)));
  acc::map_data(c.data(), d, n * sizeof(double));
  REQUIRE(acc::is_present(c.data(), n));
  acc::unmap_data(c.data());
  REQUIRE_FALSE(acc::is_present(c.data(), n));
  acc::free(d);
}

TEST_CASE("vv acc_memcpy_d2d", "[vv][runtime][data]") {
  // a on device 0, b on device 1 (the suite needs two GPUs; with one device of the current
  // type both are device 0): a doubled there, copied into b's device copy, doubled again on
  // b's device: b == 4 * a's starting values.
  const auto t = acc::get_device_type();
  const int before = acc::get_device_num(t);
  const int second = acc::get_num_devices(t) > 1 ? 1 : 0;
  auto a = vv::random_array("a", n, 89), b = vv::filled("b", n, 0), c = vv::filled("c", n, 0);
  acc::set_device_num(0, t);
  acc::enter_data(acc::create(a));
  acc::set_device_num(second, t);
  acc::enter_data(acc::create(b));
  for (int x = 0; x < n; ++x) {
    b[x] = a[x];
    c[x] = 4 * a[x];
  }
  acc::set_device_num(0, t);
  acc::update_device(a);
  acc::set_device_num(second, t);
  acc::update_device(b);
  acc::set_device_num(0, t);
  double* a_dev = acc::deviceptr(a);
  {
    acc::data region{acc::present(a)};
    acc::parallel_loop(n, ACC_LAMBDA(int i) { a[i] *= 2; });
    acc::set_device_num(second, t);
    double* b_dev = acc::deviceptr(b);
    acc::set_device_num(0, t);
    acc::memcpy_d2d(b_dev, a_dev, n * sizeof(double), second, 0);
  }
  acc::set_device_num(second, t);
  acc::parallel_loop(n, ACC_LAMBDA(int i) { b[i] *= 2; });
  acc::update_self(b);
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(b[x], c[x]));
  acc::exit_data(acc::delete_(b));
  acc::set_device_num(0, t);
  acc::exit_data(acc::delete_(a));
  acc::set_device_num(before, t);
}
