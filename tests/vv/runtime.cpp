// V&V acc_*: the OpenACC runtime routines acc has. acc_copyin / acc_create / acc_copyout /
// acc_delete are acc::enter_data / acc::exit_data with one clause (acc::finalize for the
// _finalize forms, acc::async(q) for the _async forms); the rest map one to one (api.md).
#include "construct_cases.hpp"

using vv::n;

namespace {
/// c = a + b over present a, b (the suites' `parallel present(a, b)` with c copied).
void add_present(acc::array<double> a, acc::array<double> b, acc::array<double> c) {
  acc::data region{acc::present(a), acc::present(b), acc::copy(c)};
  acc::parallel_loop(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
}
}  // namespace

TEST_CASE("vv acc_copyin", "[vv][runtime][data]") {
  auto a = vv::random_array("a", n, 1), b = vv::random_array("b", n, 2), c = vv::filled("c", n, 0);
  acc::enter_data(acc::copyin(a));
  acc::enter_data(acc::copyin(b));
  add_present(a, b, c);
  acc::exit_data(acc::copyout(a));
  acc::exit_data(acc::copyout(b));
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
  REQUIRE_FALSE(acc::is_present(a));
  // T3 (reference counting): a region's copyin of present data copies nothing.
  if (!vv::separate_memory()) return;
  std::vector<double> a0(a.data(), a.data() + n), b0(b.data(), b.data() + n);
  acc::enter_data(acc::copyin(a));
  acc::enter_data(acc::copyin(b));
  for (int x = 0; x < n; ++x) a[x] = b[x] = 0;
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(c)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
  }
  acc::exit_data(acc::copyout(a));
  acc::exit_data(acc::copyout(b));
  for (int x = 0; x < n; ++x) {
    REQUIRE(a[x] == a0[x]);
    REQUIRE(b[x] == b0[x]);
    REQUIRE(vv::same(c[x], a[x] + b[x]));
  }
}

TEST_CASE("vv acc_copyin_async", "[vv][runtime][data][async]") {
  auto a = vv::random_array("a", n, 3), b = vv::random_array("b", n, 4), c = vv::filled("c", n, 0);
  acc::enter_data(acc::copyin(a), acc::async(1));
  acc::enter_data(acc::copyin(b), acc::async(2));
  acc::wait(1, 2);
  add_present(a, b, c);
  acc::exit_data(acc::delete_(a), acc::delete_(b));
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

TEST_CASE("vv acc_create", "[vv][runtime][data]") {
  auto a = vv::random_array("a", n, 5), b = vv::random_array("b", n, 6), c = vv::filled("c", n, 0);
  acc::enter_data(acc::create(c));
  REQUIRE(acc::is_present(c));
  {
    acc::data region{acc::copyin(a), acc::copyin(b)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
  }
  acc::exit_data(acc::copyout(c));
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

TEST_CASE("vv acc_create_async", "[vv][runtime][data][async]") {
  auto a = vv::random_array("a", n, 7), b = vv::random_array("b", n, 8), c = vv::filled("c", n, 0);
  acc::enter_data(acc::create(c), acc::async(1));
  {
    acc::data region{acc::copyin(a), acc::copyin(b)};
    acc::wait(1);
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::wait(1);
  }
  acc::exit_data(acc::copyout(c), acc::async(1));
  acc::wait(1);
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

namespace {
/// Enter a twice (dynamic count 2); the plain exit leaves it present, the finalize exit does not.
template <class... Q>
void finalize_case(bool copy_out, Q... q) {
  auto a = vv::random_array("a", n, 9), b = vv::random_array("b", n, 10), c = vv::filled("c", n, 0);
  acc::enter_data(acc::copyin(c));
  acc::enter_data(acc::copyin(c));
  {
    acc::data region{acc::copyin(a), acc::copyin(b)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
  }
  if (copy_out)
    acc::exit_data(acc::copyout(c), acc::finalize, q...);
  else {
    acc::update_self(c);
    acc::exit_data(acc::delete_(c), acc::finalize, q...);
  }
  acc::wait();
  REQUIRE_FALSE(acc::is_present(c));
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

template <class... Q>
void exit_case(bool copy_out, Q... q) {
  auto a = vv::random_array("a", n, 11), b = vv::random_array("b", n, 12), c = vv::filled("c", n, 0);
  acc::enter_data(acc::copyin(c));
  {
    acc::data region{acc::copyin(a), acc::copyin(b)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
  }
  if (copy_out) {
    acc::exit_data(acc::copyout(c), q...);
  } else {
    acc::update_self(c);
    acc::exit_data(acc::delete_(c), q...);
  }
  acc::wait();
  REQUIRE_FALSE(acc::is_present(c));
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}
}  // namespace

TEST_CASE("vv acc_copyout", "[vv][runtime][data]") { exit_case(true); }
TEST_CASE("vv acc_copyout_async", "[vv][runtime][data][async]") { exit_case(true, acc::async(1)); }
TEST_CASE("vv acc_copyout_finalize", "[vv][runtime][data]") { finalize_case(true); }
TEST_CASE("vv acc_copyout_finalize_async", "[vv][runtime][data][async]") { finalize_case(true, acc::async(1)); }
TEST_CASE("vv acc_delete", "[vv][runtime][data]") { exit_case(false); }
TEST_CASE("vv acc_delete_async", "[vv][runtime][data][async]") { exit_case(false, acc::async(1)); }
TEST_CASE("vv acc_delete_finalize", "[vv][runtime][data]") { finalize_case(false); }
TEST_CASE("vv acc_delete_finalize_async", "[vv][runtime][data][async]") { finalize_case(false, acc::async(1)); }

TEST_CASE("vv acc_deviceptr", "[vv][runtime][data]") {
  // acc_deviceptr of present data is not null, and is null (an error in acc) for absent data.
  auto a = vv::random_array("a", n, 13);
  acc::enter_data(acc::copyin(a));
  double* d = acc::deviceptr(a);
  REQUIRE(d != nullptr);
  if (!vv::separate_memory()) REQUIRE(d == a.data());
  acc::exit_data(acc::delete_(a));
  REQUIRE_THROWS_AS(acc::deviceptr(a), acc::not_present_error);
}

TEST_CASE("vv acc_is_present", "[vv][runtime][data]") {
  auto a = vv::random_array("a", n, 14);
  REQUIRE_FALSE(acc::is_present(a));
  {
    acc::data region{acc::copyin(a)};
    REQUIRE(acc::is_present(a));
    REQUIRE(acc::is_present(a.data(), n));
    REQUIRE(acc::is_present(a.data() + 1, n - 1));
  }
  REQUIRE_FALSE(acc::is_present(a.data(), n));
}

TEST_CASE("vv acc_get_device_type", "[vv][runtime]") {
  const auto t = acc::get_device_type();
  REQUIRE((t == acc::device_type::host || t == acc::device_type::nvidia));
}

TEST_CASE("vv acc_get_num_devices", "[vv][runtime]") {
  REQUIRE(acc::get_num_devices(acc::device_type::host) >= 1);
  REQUIRE(acc::get_num_devices(acc::get_device_type()) >= 1);
}

TEST_CASE("vv acc_get_device_num", "[vv][runtime]") {
  // Setting each device number in turn makes it the current one.
  const auto t = acc::get_device_type();
  const int before = acc::get_device_num(t);
  for (int x = 0; x < acc::get_num_devices(t); ++x) {
    acc::set_device_num(x, t);
    REQUIRE(acc::get_device_num(t) == x);
  }
  acc::set_device_num(before, t);
}

TEST_CASE("vv acc_set_device_num", "[vv][runtime]") {
  // Data made present on each device in turn, a construct on it, results back.
  const auto t = acc::get_device_type();
  const int before = acc::get_device_num(t);
  for (int d = 0; d < acc::get_num_devices(t); ++d) {
    acc::set_device_num(d, t);
    auto a = vv::random_array("a", n, 15 + d), b = vv::filled("b", n, 0);
    {
      acc::data region{acc::copyin(a), acc::copyout(b)};
      acc::parallel_loop(n, ACC_LAMBDA(int x) { b[x] = a[x]; });
    }
    for (int x = 0; x < n; ++x) REQUIRE(a[x] == b[x]);
  }
  acc::set_device_num(before, t);
}

TEST_CASE("vv acc_set_device_type", "[vv][runtime]") {
  const auto before = acc::get_device_type();
  acc::set_device_type(acc::device_type::host);
  REQUIRE(acc::get_device_type() == acc::device_type::host);
  acc::set_device_type(before);
  REQUIRE(acc::get_device_type() == before);
}

TEST_CASE("vv acc_update_device", "[vv][runtime][data]") {
  auto a = vv::random_array("a", n, 20), b = vv::random_array("b", n, 21), c = vv::filled("c", n, 0);
  acc::enter_data(acc::create(a), acc::create(b));
  acc::update_device(a);
  acc::update_device(b);
  add_present(a, b, c);
  acc::exit_data(acc::delete_(a), acc::delete_(b));
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

TEST_CASE("vv acc_update_device_async", "[vv][runtime][data][async]") {
  auto a = vv::random_array("a", n, 22), b = vv::random_array("b", n, 23), c = vv::filled("c", n, 0);
  acc::enter_data(acc::create(a), acc::create(b));
  acc::update_device(a, acc::async(1));
  acc::update_device(b, acc::async(2));
  acc::wait(1, 2);
  add_present(a, b, c);
  acc::exit_data(acc::delete_(a), acc::delete_(b));
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
}

TEST_CASE("vv acc_update_self", "[vv][runtime][data]") {
  auto a = vv::random_array("a", n, 24), b = vv::random_array("b", n, 25), c = vv::filled("c", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::create(c)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::update_self(c);
    for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
  }
}

TEST_CASE("vv acc_update_self_async", "[vv][runtime][data][async]") {
  auto a = vv::random_array("a", n, 26), b = vv::random_array("b", n, 27), c = vv::filled("c", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::create(c)};
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::update_self(c, acc::async(1));
    acc::wait(1);
    for (int x = 0; x < n; ++x) REQUIRE(vv::same(c[x], a[x] + b[x]));
  }
}

namespace {
/// Two queues each computing half: c = a + b on queue 1, f = d + e on queue 2, and
/// g = c + f on queue 3 after both, ordered by `how`.
enum class ordering { wait_each, wait_all, wait_async };
void two_queues(ordering how) {
  auto a = vv::random_array("a", n, 28), b = vv::random_array("b", n, 29), d = vv::random_array("d", n, 30),
       e = vv::random_array("e", n, 31);
  auto c = vv::filled("c", n, 0), f = vv::filled("f", n, 0), g = vv::filled("g", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(d), acc::copyin(e), acc::create(c),
                     acc::create(f), acc::copyout(g)};
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::parallel_loop(n, acc::async(2), ACC_LAMBDA(int x) { f[x] = d[x] + e[x]; });
    if (how == ordering::wait_each) {
      acc::wait(1);
      acc::wait(2);
    } else if (how == ordering::wait_all) {
      acc::wait_all();
    } else {
      acc::wait_async(1, 3);
      acc::wait_async(2, 3);
    }
    acc::parallel_loop(n, acc::async(3), ACC_LAMBDA(int x) { g[x] = c[x] + f[x]; });
    if (how == ordering::wait_all) acc::wait_all();
    else acc::wait(3);
  }
  for (int x = 0; x < n; ++x) REQUIRE(vv::same(g[x], a[x] + b[x] + d[x] + e[x], 3));
}
}  // namespace

TEST_CASE("vv acc_wait", "[vv][runtime][async]") {
  two_queues(ordering::wait_each);
}
TEST_CASE("vv acc_wait_all", "[vv][runtime][async]") {
  two_queues(ordering::wait_all);
}
TEST_CASE("vv acc_wait_async", "[vv][runtime][async]") {
  two_queues(ordering::wait_async);
}

TEST_CASE("vv acc_async_test", "[vv][runtime][async]") {
  // async_test is true once the queue's work is done; after wait it must be.
  auto a = vv::random_array("a", n, 32), b = vv::filled("b", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copy(b)};
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int x) { b[x] = a[x] * 2; });
    while (!acc::async_test(1)) {
    }
    REQUIRE(acc::async_test(1));
  }
  for (int x = 0; x < n; ++x) REQUIRE(b[x] == a[x] * 2);
}
