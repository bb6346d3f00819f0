// V&V init*, shutdown*, set* (directives) and acc_init, acc_init_device, acc_shutdown,
// acc_shutdown_device (routines). A directive is the acc function of its name with its
// clauses: `#pragma acc init device_type(t) device_num(n) if(c)` is
// acc::init(t, acc::device_num(n), acc::if_(c)); likewise acc::shutdown and acc::set.
// `device_type(multicore)` is acc::device_type::multicore (the host device), `default` is
// acc::device_type::default_. Most suite tests only check that the directive is accepted; each
// case here also runs a construct afterwards, so that the device is seen to work after it.
#include "construct_cases.hpp"

using vv::n;

namespace {

/// a = 2a through a `parallel loop copy(a)`: the device still computes.
void doubles_after() {
  auto a = vv::random_array("a", n, 91);
  std::vector<double> a0(a.data(), a.data() + n);
  {
    acc::data region{acc::copy(a)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { a[x] *= 2; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(a[x] == 2 * a0[x]);
}

/// Puts the thread's device type and number back when a case ends.
struct device_restore {
  acc::device_type type = acc::get_device_type();
  int num = acc::get_device_num(acc::get_device_type());
  ~device_restore() {
    acc::set_device_type(type);
    acc::set_device_num(num, type);
    acc::set_default_async(acc::async_default);
  }
};

int current_num() { return acc::get_device_num(acc::get_device_type()); }

bool has_gpu() { return acc::get_num_devices(acc::device_type::nvidia) > 0; }

}  // namespace

// ---- routines -------------------------------------------------------------------------------

TEST_CASE("vv acc_init", "[vv][runtime][init]") {
  // T1: acc_init(acc_get_device_type()); T2: then a construct.
  acc::init(acc::get_device_type());
  acc::init(acc::get_device_type());
  doubles_after();
}

TEST_CASE("vv acc_init_device", "[vv][runtime][init]") {
  acc::init_device(0, acc::get_device_type());
  doubles_after();
}

TEST_CASE("vv acc_shutdown", "[vv][runtime][shutdown]") {
  // T2: a construct's copy-back is complete and kept across the shutdown after it.
  auto a = vv::random_array("a", n, 92);
  std::vector<double> a0(a.data(), a.data() + n);
  {
    acc::data region{acc::copy(a)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { a[x] = a[x] * 2; });
  }
  acc::shutdown(acc::get_device_type());
  for (int x = 0; x < n; ++x) REQUIRE(a[x] == a0[x] * 2);
  doubles_after();
}

TEST_CASE("vv acc_shutdown_device", "[vv][runtime][shutdown]") {
  auto a = vv::random_array("a", n, 93);
  std::vector<double> a0(a.data(), a.data() + n);
  {
    acc::data region{acc::copy(a)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { a[x] = a[x] * 2; });
  }
  acc::shutdown_device(0, acc::get_device_type());
  for (int x = 0; x < n; ++x) REQUIRE(a[x] == a0[x] * 2);
  doubles_after();
}

// ---- init -----------------------------------------------------------------------------------

TEST_CASE("vv init", "[vv][init]") {
  acc::init();
  doubles_after();
}

TEST_CASE("vv init_device_num", "[vv][init]") {
  acc::init(acc::device_num(current_num()));
  doubles_after();
}

TEST_CASE("vv init_device_type", "[vv][init]") {
  acc::init(acc::device_type::host);
  acc::init(acc::device_type::multicore);
  acc::init(acc::device_type::default_);
  doubles_after();
}

TEST_CASE("vv init_device_type_num", "[vv][init]") {
  // The suite passes the current type's number to host / multicore / default; the host has
  // only device 0, so there the host's own number is what names it.
  const int num = current_num();
  acc::init(acc::device_type::host, acc::device_num(acc::get_device_num(acc::device_type::host)));
  acc::init(acc::device_type::multicore, acc::device_num(acc::get_device_num(acc::device_type::multicore)));
  acc::init(acc::device_type::default_, acc::device_num(acc::get_device_type() == acc::device_type::host ? 0 : num));
  doubles_after();
}

TEST_CASE("vv init_device_type_num_nvidia", "[vv][init]") {
  // Without a GPU, constructs for nvidia run on the host: init has nothing to prepare.
  acc::init(acc::device_type::nvidia, acc::device_num(acc::get_device_num(acc::device_type::nvidia)));
  doubles_after();
}

TEST_CASE("vv init_device_type_nvidia", "[vv][init]") {
  acc::init(acc::device_type::nvidia);
  doubles_after();
}

TEST_CASE("vv init_if", "[vv][init]") {
  // The suite's `if(device_num == device_num)` and `if(device_num != device_num)`.
  const int device_num = current_num(), again = current_num();
  acc::init(acc::if_(device_num == again));
  acc::init(acc::if_(device_num != again));
  // A false if does nothing, not even check the device it would name.
  acc::init(acc::device_type::host, acc::device_num(5), acc::if_(false));
  doubles_after();
}

// ---- shutdown -------------------------------------------------------------------------------

TEST_CASE("vv shutdown", "[vv][shutdown]") {
  acc::shutdown();
  doubles_after();
}

TEST_CASE("vv shutdown_device_num", "[vv][shutdown]") {
  acc::shutdown(acc::device_num(current_num()));
  doubles_after();
}

TEST_CASE("vv shutdown_device_type", "[vv][shutdown]") {
  acc::shutdown(acc::device_type::host);
  acc::shutdown(acc::device_type::multicore);
  acc::shutdown(acc::device_type::default_);
  doubles_after();
}

TEST_CASE("vv shutdown_device_type_num", "[vv][shutdown]") {
  const int num = current_num();
  acc::shutdown(acc::device_type::host, acc::device_num(acc::get_device_num(acc::device_type::host)));
  acc::shutdown(acc::device_type::multicore, acc::device_num(acc::get_device_num(acc::device_type::multicore)));
  acc::shutdown(acc::device_type::default_,
                acc::device_num(acc::get_device_type() == acc::device_type::host ? 0 : num));
  doubles_after();
}

TEST_CASE("vv shutdown_device_type_num_nvidia", "[vv][shutdown]") {
  acc::shutdown(acc::device_type::nvidia, acc::device_num(acc::get_device_num(acc::device_type::nvidia)));
  doubles_after();
}

TEST_CASE("vv shutdown_device_type_nvidia", "[vv][shutdown]") {
  acc::shutdown(acc::device_type::nvidia);
  doubles_after();
}

TEST_CASE("vv shutdown_if", "[vv][shutdown]") {
  const int device_num = current_num(), again = current_num();
  acc::shutdown(acc::if_(device_num == again));
  acc::shutdown(acc::if_(device_num != again));
  doubles_after();
}

// ---- set ------------------------------------------------------------------------------------

TEST_CASE("vv set_device_num", "[vv][set]") {
  // Data entered on each device in turn (set device_num(x)), incremented there, copied out.
  device_restore restore;
  const auto t = acc::get_device_type();
  const int count = acc::get_num_devices(t);
  auto a = vv::filled("a", n, 0);
  std::vector<std::vector<double>> host_copy(count);
  for (int x = 0; x < count; ++x) {
    auto r = vv::random_array("r", n, 94 + x);
    for (int y = 0; y < n; ++y) a[y] = r[y];
    host_copy[x].assign(a.data(), a.data() + n);
    acc::set(acc::device_num(x));
    acc::enter_data(acc::copyin(a));
  }
  for (int x = 0; x < count; ++x) {
    acc::set(acc::device_num(x));
    acc::data region{acc::present(a)};
    acc::parallel_loop(n, ACC_LAMBDA(int y) { a[y] = a[y] + 1; });
  }
  for (int x = 0; x < count; ++x) {
    acc::set(acc::device_num(x));
    acc::exit_data(acc::copyout(a));
    for (int y = 0; y < n; ++y) REQUIRE(vv::same(a[y], host_copy[x][y] + 1));
  }
}

TEST_CASE("vv set_device_type", "[vv][set]") {
  // The suite checks that the type is unchanged, which holds only where constructs already
  // run on the type named; acc checks what OpenACC 3.3 §2.14.3 says: the type becomes the one named.
  device_restore restore;
  acc::set(acc::device_type::host);
  REQUIRE(acc::get_device_type() == acc::device_type::host);
  acc::set(acc::device_type::multicore);
  REQUIRE(acc::get_device_type() == acc::device_type::host);
  acc::set(acc::device_type::default_);
  REQUIRE(acc::get_device_type() == (has_gpu() ? acc::device_type::nvidia : acc::device_type::host));
  doubles_after();
}

TEST_CASE("vv set_device_type_num", "[vv][set]") {
  device_restore restore;
  acc::set(acc::device_type::host, acc::device_num(0));
  REQUIRE(acc::get_device_type() == acc::device_type::host);
  acc::set(acc::device_type::multicore, acc::device_num(0));
  REQUIRE(acc::get_device_type() == acc::device_type::host);
  acc::set(acc::device_type::default_, acc::device_num(0));
  REQUIRE(acc::get_device_num(acc::get_device_type()) == 0);
  doubles_after();
}

TEST_CASE("vv set_device_type_num_nvidia", "[vv][set]") {
  device_restore restore;
  const int num = acc::get_device_num(acc::device_type::nvidia);
  if (has_gpu()) {
    acc::set(acc::device_type::nvidia, acc::device_num(num));
    REQUIRE(acc::get_device_type() == acc::device_type::nvidia);
    REQUIRE(acc::get_device_num(acc::device_type::nvidia) == num);
  } else {
    // No GPU: there is no nvidia device to make current.
    REQUIRE_THROWS_AS(acc::set(acc::device_type::nvidia, acc::device_num(num)), acc::error);
  }
  doubles_after();
}

TEST_CASE("vv set_device_type_nvidia", "[vv][set]") {
  device_restore restore;
  if (has_gpu()) {
    acc::set(acc::device_type::nvidia);
    REQUIRE(acc::get_device_type() == acc::device_type::nvidia);
  } else {
    REQUIRE_THROWS_AS(acc::set(acc::device_type::nvidia), acc::error);
  }
  doubles_after();
}

TEST_CASE("vv set_if", "[vv][set][async]") {
  device_restore restore;
  const auto device_type = acc::get_device_type();
  acc::set_default_async(3);
  acc::set(acc::if_(acc::get_device_type() == device_type), acc::default_async(acc::async_default));
  REQUIRE(acc::get_default_async() == 0);
  acc::set_default_async(3);
  acc::set(acc::if_(acc::get_device_type() != device_type), acc::default_async(acc::async_default));
  REQUIRE(acc::get_default_async() == 3);
}
