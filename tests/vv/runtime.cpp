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

// ---- Device memory the program manages (acc::malloc, acc::memcpy_*) ---------------------------

namespace {
/// Device memory from acc::malloc, viewed as doubles in constructs through a deviceptr region.
struct device_block {
  double* p;
  explicit device_block(int count) : p(static_cast<double*>(acc::malloc(count * sizeof(double)))) { REQUIRE(p); }
  ~device_block() { acc::free(p); }
};

std::vector<double> random_values(int count, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<double> v(count);
  for (double& x : v) x = vv::uniform(g, 10);
  return v;
}

std::size_t free_memory() {
  const auto t = acc::get_device_type();
  return acc::get_property(acc::get_device_num(t), t, acc::device_property::free_memory);
}
}  // namespace

TEST_CASE("vv acc_malloc", "[vv][runtime][data]") {
  // The suite's check, where the device has memory of its own (host free memory moves with
  // everything else the machine does). Other processes on the device (ctest -j) move its free
  // memory too, up as well as down: the allocation must show in one of several tries. The
  // driver hands small blocks out of 2 MiB pages, so in a process whose earlier allocations left
  // room in a page (all cases in one process) a few blocks of n ints show nothing: the tries
  // cover more than a page. The blocks are kept until the end, so each try takes new memory.
  bool taken = false;
  std::vector<int*> blocks;
  const int tries = int((std::size_t(4) << 20) / (n * sizeof(int)));
  for (int attempt = 0; attempt < tries && !taken; ++attempt) {
    const std::size_t before = free_memory();
    blocks.push_back(static_cast<int*>(acc::malloc(n * sizeof(int))));
    REQUIRE(blocks.back() != nullptr);
    const std::size_t after = free_memory();
    taken = !vv::separate_memory() || after + n * sizeof(int) <= before;
  }
  for (int* a : blocks) acc::free(a);
  REQUIRE(taken);
}

TEST_CASE("vv acc_free", "[vv][runtime][data]") {
  // A block large enough that the device's free memory must show its release (the allocator
  // keeps small blocks' pages, so the suite's n ints need not show at all).
  // Other processes on the device (ctest -j) move its free memory too: the release must show
  // in one of a few tries.
  const std::size_t bytes = std::size_t(256) << 20;
  bool released = false;
  for (int attempt = 0; attempt < 5 && !released; ++attempt) {
    int* a = static_cast<int*>(acc::malloc(bytes));
    REQUIRE(a != nullptr);
    const std::size_t before = free_memory();
    acc::free(a);
    const std::size_t after = free_memory();
    released = !vv::separate_memory() || after >= before + bytes / 2;
  }
  REQUIRE(released);
  acc::free(nullptr);  // does nothing
}

TEST_CASE("vv acc_memcpy_to_device", "[vv][runtime][data]") {
  // Three host arrays copied into one block of device memory; the construct adds the first two
  // into the third through a deviceptr region; memcpy_from_device brings it back.
  auto a = vv::random_array("a", n, 41), b = vv::random_array("b", n, 42);
  std::vector<double> c(n, 1.0), out(3 * n);
  device_block dev(3 * n);
  acc::memcpy_to_device(dev.p, a.data(), n * sizeof(double));
  acc::memcpy_to_device(dev.p + n, b.data(), n * sizeof(double));
  acc::memcpy_to_device(dev.p + 2 * n, c.data(), n * sizeof(double));
  {
    acc::data region{acc::deviceptr(dev.p, 3 * n)};
    acc::view<double> d(dev.p, 3 * n);
    acc::parallel_loop(n, ACC_LAMBDA(int x) { d[2 * n + x] += d[x] + d[n + x]; });
  }
  acc::memcpy_from_device(out.data(), dev.p, 3 * n * sizeof(double));
  for (int x = 0; x < n; ++x) {
    REQUIRE(out[x] == a[x]);
    REQUIRE(out[n + x] == b[x]);
    REQUIRE(vv::same(out[2 * n + x], 1 + a[x] + b[x]));
  }
}

namespace {
/// The _async forms: each third of the block is copied in on its own queue, squared there and
/// copied out on that queue; the host waits for each queue before it reads.
void memcpy_async_case() {
  constexpr int parts = 3;
  std::vector<std::vector<double>> in(parts), out(parts, std::vector<double>(n, 0.0));
  for (int q = 0; q < parts; ++q) in[q] = random_values(n, 60 + q);
  device_block dev(parts * n);
  for (int q = 0; q < parts; ++q) {
    double* part = dev.p + q * n;
    acc::memcpy_to_device(part, in[q].data(), n * sizeof(double), q + 1);
    acc::data region{acc::deviceptr(part, n)};
    acc::view<double> d(part, n);
    acc::parallel_loop(n, acc::async(q + 1), ACC_LAMBDA(int x) { d[x] = d[x] * d[x]; });
    acc::memcpy_from_device(out[q].data(), part, n * sizeof(double), q + 1);
  }
  for (int q = 0; q < parts; ++q) {
    acc::wait(q + 1);
    for (int x = 0; x < n; ++x) REQUIRE(vv::same(out[q][x], in[q][x] * in[q][x]));
  }
}
}  // namespace

TEST_CASE("vv acc_memcpy_to_device_async", "[vv][runtime][data][async]") { memcpy_async_case(); }
TEST_CASE("vv acc_memcpy_from_device", "[vv][runtime][data]") {
  auto a = vv::random_array("a", n, 43);
  std::vector<double> back(n, 0.0), expect(n);
  for (int x = 0; x < n; ++x) expect[x] = 2 * a[x];  // the device copy after the loop
  acc::enter_data(acc::copyin(a));
  {
    acc::data region{acc::present(a)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { a[x] = 2 * a[x]; });
  }
  acc::memcpy_from_device(back.data(), acc::deviceptr(a), n * sizeof(double));
  acc::exit_data(acc::delete_(a));
  for (int x = 0; x < n; ++x) REQUIRE(back[x] == expect[x]);
}
TEST_CASE("vv acc_memcpy_from_device_async", "[vv][runtime][data][async]") { memcpy_async_case(); }

TEST_CASE("vv acc_memcpy_device", "[vv][runtime][data]") {
  // Three parts of one present block copied device to device into present a, b, c.
  std::vector<double> host(3 * n);
  auto h = random_values(2 * n, 44);
  for (int x = 0; x < 2 * n; ++x) host[x] = h[x];
  for (int x = 0; x < n; ++x) host[2 * n + x] = 1;
  auto a = vv::filled("a", n, 0), b = vv::filled("b", n, 0), c = vv::filled("c", n, 0);
  acc::enter_data(acc::copyin(host.data(), host.size()));
  acc::enter_data(acc::create(a), acc::create(b), acc::create(c));
  const double* dev = acc::deviceptr(host.data());
  acc::memcpy_device(acc::deviceptr(a), dev, n * sizeof(double));
  acc::memcpy_device(acc::deviceptr(b), dev + n, n * sizeof(double));
  acc::memcpy_device(acc::deviceptr(c), dev + 2 * n, n * sizeof(double));
  {
    acc::data region{acc::present(a), acc::present(b), acc::present(c)};
    acc::parallel_loop(n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
  }
  acc::exit_data(acc::copyout(a), acc::copyout(b), acc::copyout(c));
  acc::exit_data(acc::delete_(host.data(), host.size()));
  for (int x = 0; x < n; ++x) {
    REQUIRE(a[x] == host[x]);
    REQUIRE(b[x] == host[n + x]);
    REQUIRE(vv::same(c[x], 1 + a[x] + b[x]));
  }
}

TEST_CASE("vv acc_hostptr", "[vv][runtime][data]") {
  auto a = vv::filled("a", n, 0);
  acc::enter_data(acc::create(a));
  double* dev = acc::deviceptr(a);
  REQUIRE(acc::hostptr(dev) == a.data());
  REQUIRE(acc::hostptr(dev + n / 2) == a.data() + n / 2);  // inside the range, too
  acc::exit_data(acc::delete_(a));
  if (vv::separate_memory()) REQUIRE(acc::hostptr(dev) == nullptr);  // no longer present
}

TEST_CASE("vv acc_on_device", "[vv][runtime]") {
  const acc::device_type t = acc::get_device_type();
  auto err = vv::filled("err", 1, 0);
  {
    acc::data region{acc::copy(err)};
    acc::serial(ACC_LAMBDA() {
      if (!acc::on_device(t)) err[0] += 1;
    });
  }
  REQUIRE(err[0] == 0);
  REQUIRE(acc::on_device(acc::device_type::host));  // outside a construct: the host
}

TEST_CASE("vv acc_get_property", "[vv][runtime]") {
  const acc::device_type t = acc::get_device_type();
  const int d = acc::get_device_num(t);
  const std::size_t total = acc::get_property(d, t, acc::device_property::memory);
  const std::size_t free = acc::get_property(d, t, acc::device_property::free_memory);
  REQUIRE(total > 0);
  REQUIRE(free <= total);
  REQUIRE_FALSE(acc::get_property_string(d, t, acc::device_property::name).empty());
  REQUIRE_FALSE(acc::get_property_string(d, t, acc::device_property::vendor).empty());
  REQUIRE_FALSE(acc::get_property_string(d, t, acc::device_property::driver).empty());
  REQUIRE(acc::get_property_string(d, t, acc::device_property::memory).empty());  // not text
}

TEST_CASE("vv acc_async_test_all", "[vv][runtime][async]") {
  // Ten queues, each computing e = a + b + d in two constructs over present data; the host
  // polls acc::async_test_all until every queue is done.
  constexpr int queues = 10;
  std::vector<acc::array<double>> a, b, d, e;
  for (int q = 0; q < queues; ++q) {
    a.push_back(vv::random_array("a", n, 50 + q));
    b.push_back(vv::random_array("b", n, 70 + q));
    d.push_back(vv::random_array("d", n, 90 + q));
    e.push_back(vv::filled("e", n, 0));
  }
  std::vector<acc::array<double>> c;
  for (int q = 0; q < queues; ++q) c.push_back(vv::filled("c", n, 0));
  for (int q = 0; q < queues; ++q) acc::enter_data(acc::create(a[q]), acc::create(b[q]), acc::create(c[q]),
                                                   acc::create(d[q]), acc::create(e[q]));
  for (int q = 0; q < queues; ++q) {
    auto aq = a[q], bq = b[q], cq = c[q], dq = d[q], eq = e[q];
    acc::update_device(aq, bq, dq, acc::async(q));
    acc::parallel_loop(n, acc::async(q), ACC_LAMBDA(int x) { cq[x] = aq[x] + bq[x]; });
    acc::parallel_loop(n, acc::async(q), ACC_LAMBDA(int x) { eq[x] = cq[x] + dq[x]; });
    acc::update_self(eq, acc::async(q));
  }
  while (!acc::async_test_all()) {
  }
  for (int q = 0; q < queues; ++q)
    for (int x = 0; x < n; ++x) REQUIRE(vv::same(e[q][x], a[q][x] + b[q][x] + d[q][x]));
  for (int q = 0; q < queues; ++q) acc::exit_data(acc::delete_(a[q]), acc::delete_(b[q]), acc::delete_(c[q]),
                                                  acc::delete_(d[q]), acc::delete_(e[q]));
}
