// Level 17: the remaining OpenACC runtime routines and the init / shutdown / set directives:
// the default async queue, wait_any, wait_all_async, map_data / unmap_data, memcpy_d2d.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

std::vector<double> random_values(int n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-10.0, 10.0);
  std::vector<double> v(n);
  for (auto& x : v) x = u(gen);
  return v;
}

/// Restores the thread's default async queue when a test ends, passed or not.
struct default_async_guard {
  int saved = acc::get_default_async();
  ~default_async_guard() { acc::set_default_async(saved); }
};

}  // namespace

TEST_CASE("the default async queue is 0, per thread, and async() follows set_default_async", "[17][async]") {
  default_async_guard guard;
  acc::set_default_async(acc::async_default);
  REQUIRE(acc::get_default_async() == 0);
  const int n = GENERATE(1, 997, 1 << 17);
  const int q = GENERATE(0, 5, 12);
  acc::set_default_async(q);
  REQUIRE(acc::get_default_async() == q);
  int other = -1;
  std::thread([&] { other = acc::get_default_async(); }).join();
  REQUIRE(other == 0);

  auto in = random_values(n, 7u + n);
  acc::array<double> a(n), b(n);
  for (int i = 0; i < n; ++i) a[i] = in[i];
  {
    acc::data region{acc::copyin(a), acc::copyout(b)};
    // Two steps on the default queue: the second reads the first's result, so both must land
    // on one queue, the one acc::wait(q) completes.
    acc::parallel_loop(n, acc::async(), ACC_LAMBDA(int i) { b[i] = a[i] * 2; });
    acc::parallel_loop(n, acc::async(acc::async_noval), ACC_LAMBDA(int i) { b[i] = b[i] + i; });
    acc::wait(q);
    REQUIRE(acc::async_test(acc::async_noval));
  }
  for (int i = 0; i < n; ++i) REQUIRE(b[i] == in[i] * 2 + i);

  acc::set_default_async(acc::async_default);
  REQUIRE(acc::get_default_async() == 0);
  REQUIRE_THROWS_AS(acc::set_default_async(-7), acc::bad_clause);
  REQUIRE_THROWS_AS(acc::set_default_async(acc::async_sync), acc::bad_clause);
  REQUIRE(acc::get_default_async() == 0);
}

TEST_CASE("wait_any returns a finished queue's index and -1 when none is listed", "[17][async]") {
  const int none[3] = {acc::async_sync, acc::async_sync, acc::async_sync};
  REQUIRE(acc::wait_any(3, none) == -1);
  REQUIRE(acc::wait_any(0, none) == -1);
  const int bad[2] = {1, -9};
  REQUIRE_THROWS_AS(acc::wait_any(2, bad), acc::bad_clause);

  const int n = GENERATE(3, 1023, 1 << 16);
  const int k = 4;
  std::vector<acc::array<double>> v;
  for (int q = 0; q < k; ++q) v.emplace_back(n);
  for (int q = 0; q < k; ++q) acc::enter_data(acc::create(v[q]));
  int queues[k + 1];
  for (int q = 0; q < k; ++q) {
    acc::array<double> a = v[q];
    const int reps = 1 + q * 50;  // unbalanced work
    acc::parallel_loop(n, acc::async(20 + q), ACC_LAMBDA(int i) {
      double s = 0;
      for (int r = 0; r < reps; ++r) s += (i + r) % 5;
      a[i] = s;
    });
    queues[q] = 20 + q;
  }
  queues[k] = acc::async_sync;
  // Each finished queue is taken out of the list, so every one is reported exactly once.
  std::vector<int> seen(k, 0);
  int next;
  while ((next = acc::wait_any(k + 1, queues)) >= 0) {
    REQUIRE(next < k);
    REQUIRE(acc::async_test(queues[next]));
    ++seen[next];
    queues[next] = acc::async_sync;
  }
  for (int q = 0; q < k; ++q) {
    REQUIRE(seen[q] == 1);
    acc::exit_data(acc::copyout(v[q]));
    const int reps = 1 + q * 50;
    for (int i = 0; i < n; i += 1 + n / 50) {
      double s = 0;
      for (int r = 0; r < reps; ++r) s += (i + r) % 5;
      REQUIRE(v[q][i] == s);
    }
  }
}

TEST_CASE("wait_all_async makes one queue wait for every other queue", "[17][async]") {
  const int n = GENERATE(1, 4099, 1 << 17);
  auto x = random_values(n, 3u + n), y = random_values(n, 5u + n);
  acc::array<double> a(n), b(n), c(n), d(n), s(n);
  for (int i = 0; i < n; ++i) a[i] = x[i], b[i] = y[i];
  {
    // c and d start defined (zeros, copied in): a third queue that ran before the other two
    // would compute zeros and fail the check below, instead of reading undefined memory.
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c), acc::copyin(d), acc::copyout(s)};
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int i) { c[i] = a[i] + b[i]; });
    acc::parallel_loop(n, acc::async(2), ACC_LAMBDA(int i) { d[i] = a[i] * b[i]; });
    acc::wait_all_async(3);
    acc::parallel_loop(n, acc::async(3), ACC_LAMBDA(int i) { s[i] = c[i] - d[i]; });
    acc::wait(3);
  }
  for (int i = 0; i < n; ++i) REQUIRE(s[i] == (x[i] + y[i]) - x[i] * y[i]);
  REQUIRE_THROWS_AS(acc::wait_all_async(-5), acc::bad_clause);
}

TEST_CASE("map_data makes program-owned device memory the present copy of a host range", "[17][data]") {
  const int n = GENERATE(1, 333, 1 << 16);
  const std::size_t bytes = n * sizeof(double);
  auto init = random_values(n, 11u + n);
  std::vector<double> h(n, 0.0), back(n, 0.0);
  auto* dev = static_cast<double*>(acc::malloc(bytes));
  REQUIRE(dev != nullptr);
  acc::memcpy_to_device(dev, init.data(), bytes);

  acc::map_data(h.data(), dev, bytes);
  REQUIRE(acc::is_present(h.data(), n));
  if (acc::get_device_type() == acc::device_type::nvidia) REQUIRE(acc::deviceptr(h.data()) == dev);
  acc::view<double> v(h.data(), n);
  {
    acc::data region{acc::present(v)};
    acc::parallel_loop(n, ACC_LAMBDA(int i) { v[i] = v[i] * 3 + i; });
    // While a region uses the mapping it cannot end.
    REQUIRE_THROWS_AS(acc::unmap_data(h.data()), acc::bad_clause);
  }
  acc::update_self(h.data(), n);
  // A GPU may fuse the multiply and the add: one rounding fewer than the host's.
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == Approx(init[i] * 3 + i).epsilon(1e-15).margin(1e-13));

  // exit_data leaves a mapping alone; mapping present data again is an error.
  acc::exit_data(acc::delete_(h.data(), n), acc::finalize);
  REQUIRE(acc::is_present(h.data(), n));
  REQUIRE_THROWS_AS(acc::map_data(h.data(), dev, bytes), acc::bad_clause);

  acc::unmap_data(h.data());
  REQUIRE_FALSE(acc::is_present(h.data(), n));
  REQUIRE_THROWS_AS(acc::unmap_data(h.data()), acc::not_present_error);
  // The device memory is still the program's and holds the construct's results, the very
  // values update_self brought back.
  acc::memcpy_from_device(back.data(), dev, bytes);
  for (int i = 0; i < n; ++i) REQUIRE(back[i] == h[i]);
  acc::free(dev);
}

TEST_CASE("memcpy routines and hostptr on mapped device memory see what constructs wrote", "[17][data]") {
  // On a GPU the program's memory is the device copy; on the host device the host range is,
  // and the routines given an address in the program's memory must reach it there too.
  const int n = GENERATE(1, 257);
  const std::size_t bytes = n * sizeof(double);
  auto init = random_values(n, 5u + n);
  std::vector<double> h(n, 0.0), out(n, -1.0), five(n, 5.0);
  auto* dev = static_cast<double*>(acc::malloc(bytes));
  REQUIRE(dev != nullptr);
  acc::memcpy_to_device(dev, init.data(), bytes);
  acc::map_data(h.data(), dev, bytes);
  REQUIRE(acc::hostptr(dev) == h.data());
  REQUIRE(acc::hostptr(dev + (n - 1)) == h.data() + (n - 1));
  acc::view<double> v(h.data(), n);
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { v[i] += 1; });
  acc::memcpy_from_device(out.data(), dev, bytes);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == init[i] + 1);
  // A part of the range, from and to the device copy.
  acc::memcpy_to_device(dev + n / 2, five.data(), (n - n / 2) * sizeof(double));
  acc::update_self(h.data(), n);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == (i < n / 2 ? init[i] + 1 : 5.0));
  acc::memcpy_device(dev, dev + n / 2, sizeof(double));  // the first element takes a 5
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { v[i] *= 2; });
  acc::memcpy_from_device(out.data(), dev, bytes);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == (i == 0 || i >= n / 2 ? 10.0 : 2 * (init[i] + 1)));
  acc::unmap_data(h.data());
  acc::memcpy_from_device(out.data(), dev, bytes);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == (i == 0 || i >= n / 2 ? 10.0 : 2 * (init[i] + 1)));
  acc::free(dev);
}

TEST_CASE("free of device memory still mapped by map_data is a bad_clause", "[17][data]") {
  const int n = GENERATE(1, 211);
  const std::size_t bytes = n * sizeof(double);
  auto init = random_values(n, 11u + n);
  std::vector<double> h(n, 0.0), out(n, -1.0);
  auto* dev = static_cast<double*>(acc::malloc(bytes));
  REQUIRE(dev != nullptr);
  acc::memcpy_to_device(dev, init.data(), bytes);
  acc::map_data(h.data(), dev, bytes);
  const int line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(acc::free(dev + (n - 1)), Catch::Contains("still mapped") && Catch::Contains("unmap_data") &&
                                                    Catch::Contains(":" + std::to_string(line)));
  // A block of which only a later part is mapped is refused too.
  auto* block = static_cast<double*>(acc::malloc(bytes + 2 * sizeof(double)));
  std::vector<double> h2(n, 0.0);
  acc::map_data(h2.data(), block + 2, bytes);
  REQUIRE_THROWS_WITH(acc::free(block), Catch::Contains("still mapped"));
  acc::unmap_data(h2.data());
  acc::free(block);
  // Nothing was freed: the mapping still works and unmaps to the same memory.
  acc::view<double> v(h.data(), n);
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { v[i] = 2 * v[i]; });
  acc::unmap_data(h.data());
  acc::memcpy_from_device(out.data(), dev, bytes);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == 2 * init[i]);
  acc::free(dev);
}

TEST_CASE("free of a block freed already, or not from acc::malloc, is a bad_clause on the host device",
          "[17][host]") {
  void* p = acc::malloc(GENERATE(std::size_t(1), std::size_t(4099)));
  REQUIRE(p != nullptr);
  acc::free(p);
  const int line = __LINE__ + 1;
  REQUIRE_THROWS_WITH(acc::free(p), Catch::Contains("not a block of acc::malloc") &&
                                        Catch::Contains("17_runtime_routines.cpp:" + std::to_string(line)));
  double local = 0;
  REQUIRE_THROWS_AS(acc::free(&local), acc::bad_clause);
  acc::free(nullptr);  // does nothing
}

TEST_CASE("map_data of two halves of one allocation", "[17][data]") {
  const int n = GENERATE(2, 501);
  auto* dev = static_cast<double*>(acc::malloc(2 * n * sizeof(double)));
  std::vector<double> lo(n), hi(n);
  acc::map_data(lo.data(), dev, n * sizeof(double));
  acc::map_data(hi.data(), dev + n, n * sizeof(double));
  acc::view<double> l(lo.data(), n), u(hi.data(), n);
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) {
    l[i] = i;
    u[i] = -2.0 * i;
  });
  acc::update_self(lo.data(), n);
  acc::update_self(hi.data(), n);
  std::vector<double> all(2 * n);
  acc::unmap_data(lo.data());
  acc::unmap_data(hi.data());
  acc::memcpy_from_device(all.data(), dev, all.size() * sizeof(double));
  for (int i = 0; i < n; ++i) {
    REQUIRE(lo[i] == i);
    REQUIRE(hi[i] == -2.0 * i);
    REQUIRE(all[i] == i);
    REQUIRE(all[n + i] == -2.0 * i);
  }
  acc::free(dev);
}

TEST_CASE("memcpy_d2d copies between devices of the current type, at an offset", "[17][data]") {
  const auto t = acc::get_device_type();
  const int last = acc::get_num_devices(t) - 1;
  const int n = GENERATE(1, 1001);
  auto init = random_values(n + 7, 13u + n);
  std::vector<double> src(n + 7), dst(n, 0.0);
  const int before = acc::get_device_num(t);
  acc::enter_data(acc::copyin(init.data(), init.size()));  // on device `before`
  acc::set_device_num(last, t);
  acc::enter_data(acc::create(dst.data(), dst.size()));
  acc::memcpy_d2d(acc::deviceptr(dst.data()), nullptr, 0, last, before);  // zero bytes: nothing
  acc::set_device_num(before, t);
  const double* from = acc::deviceptr(init.data()) + 7;
  acc::set_device_num(last, t);
  double* to = acc::deviceptr(dst.data());
  acc::memcpy_d2d(to, from, n * sizeof(double), last, before);
  acc::update_self(dst.data(), dst.size());
  acc::exit_data(acc::delete_(dst.data(), dst.size()));
  acc::set_device_num(before, t);
  acc::exit_data(acc::delete_(init.data(), init.size()));
  for (int i = 0; i < n; ++i) REQUIRE(dst[i] == init[i + 7]);
  REQUIRE_THROWS_AS(acc::memcpy_d2d(to, from, 8, last + 1, before), acc::bad_clause);
  REQUIRE_THROWS_AS(acc::memcpy_d2d(to, from, 8, 0, -1), acc::bad_clause);
}

TEST_CASE("init, shutdown and set with their clauses", "[17][runtime]") {
  default_async_guard guard;
  const auto t = acc::get_device_type();
  const int num = acc::get_device_num(t);
  acc::init();
  acc::init(t);
  acc::init(t, acc::device_num(num), acc::if_(true));
  acc::init_device(num, t);
  acc::init(acc::device_type::multicore);
  REQUIRE_THROWS_AS(acc::init(acc::device_type::host, acc::device_num(1)), acc::bad_clause);
  REQUIRE_NOTHROW(acc::init(acc::device_type::host, acc::device_num(1), acc::if_(false)));
  REQUIRE_THROWS_AS(acc::init_device(acc::get_num_devices(t), t), acc::bad_clause);

  // Data present across a shutdown stays present and correct; the device is usable after it.
  const int n = 777;
  auto in = random_values(n, 17);
  acc::array<double> a(n);
  for (int i = 0; i < n; ++i) a[i] = in[i];
  acc::enter_data(acc::copyin(a));
  acc::parallel_loop(n, acc::async(4), ACC_LAMBDA(int i) { a[i] += 1; });
  acc::shutdown(t, acc::device_num(num));
  REQUIRE(acc::async_test(4));
  acc::shutdown();
  acc::shutdown_device(num, t);
  REQUIRE(acc::is_present(a));
  acc::parallel_loop(n, ACC_LAMBDA(int i) { a[i] *= 2; });
  acc::exit_data(acc::copyout(a));
  for (int i = 0; i < n; ++i) REQUIRE(a[i] == (in[i] + 1) * 2);

  acc::set(acc::default_async(6));
  REQUIRE(acc::get_default_async() == 6);
  acc::set(acc::default_async(9), acc::if_(false));
  REQUIRE(acc::get_default_async() == 6);
  acc::set(acc::default_async(acc::async_default));
  REQUIRE(acc::get_default_async() == 0);
  acc::set(acc::device_type::host);
  REQUIRE(acc::get_device_type() == acc::device_type::host);
  acc::set(t, acc::device_num(num));
  REQUIRE(acc::get_device_type() == t);
  REQUIRE(acc::get_device_num(t) == num);
  REQUIRE_THROWS_AS(acc::set(acc::device_num(acc::get_num_devices(t))), acc::bad_clause);
}

TEST_CASE("init, shutdown, set and the device routines name the user's line and themselves", "[17][runtime]") {
  default_async_guard guard;
  const auto host = acc::device_type::host;
  const auto none = acc::device_type::none;
  const auto at = [](const char* routine) { return Catch::Contains(std::string("acc::") + routine + " at 17_runtime_routines.cpp:"); };
  // The device_type first, another clause first, no device_type at all.
  REQUIRE_THROWS_WITH(acc::init(host, acc::device_num(2)), at("init") && Catch::Contains("only device 0, not 2"));
  REQUIRE_THROWS_WITH(acc::init(acc::device_num(2), host), at("init") && Catch::Contains("only device 0, not 2"));
  REQUIRE_THROWS_WITH(acc::init(none), at("init") && Catch::Contains("device_type::none"));
  REQUIRE_THROWS_WITH(acc::shutdown(host, acc::device_num(3)), at("shutdown") && Catch::Contains("not 3"));
  REQUIRE_THROWS_WITH(acc::shutdown(none, acc::if_(true)), at("shutdown") && Catch::Contains("device_type::none"));
  REQUIRE_THROWS_WITH(acc::set(host, acc::device_num(2)), at("set") && Catch::Contains("only device 0, not 2"));
  REQUIRE_THROWS_WITH(acc::set(acc::default_async(-7)), at("set") && Catch::Contains("-7 cannot be the default"));
  REQUIRE_THROWS_WITH(acc::set(none), at("set") && Catch::Contains("device_type::none"));
  REQUIRE_THROWS_WITH(acc::set_device_num(2, host), at("set_device_num") && Catch::Contains("not 2"));
  REQUIRE_THROWS_WITH(acc::set_device_type(none), at("set_device_type"));
  REQUIRE_THROWS_WITH(acc::get_num_devices(none), at("get_num_devices"));
  REQUIRE_THROWS_WITH(acc::get_device_num(none), at("get_device_num"));
  REQUIRE_THROWS_WITH(acc::get_property(0, none, acc::device_property::memory), at("get_property"));
  REQUIRE_THROWS_WITH(acc::set_default_async(-9), at("set_default_async"));
  if (acc::get_num_devices(acc::device_type::nvidia) == 0)
    REQUIRE_THROWS_WITH(acc::set(acc::device_type::nvidia), at("set") && Catch::Contains("no NVIDIA GPU"));
  REQUIRE(acc::get_default_async() == 0);
}

TEST_CASE("no negative queue but async_default can be the default async queue", "[17][async]") {
  default_async_guard guard;
  acc::set_default_async(3);
  // acc::async_noval names the default queue itself; it cannot become it.
  for (const int q : {acc::async_noval, acc::async_sync, -4, -1000})
    REQUIRE_THROWS_WITH(acc::set_default_async(q), Catch::Contains(std::to_string(q) + " cannot be the default async queue"));
  REQUIRE(acc::get_default_async() == 3);
  acc::set_default_async(acc::async_default);
  REQUIRE(acc::get_default_async() == 0);
}
