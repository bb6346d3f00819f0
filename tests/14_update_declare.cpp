// Level 14: updates by pointer and by list, wait() with no queue, ACC_DECLARE globals,
// deviceptr (host_data use_device), and extents given by namespace-scope constants.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include "support/buffer.hpp"

#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using acc_test::buffer;
using acc_test::gpu_run;

namespace {

// Namespace-scope constants used as extents inside and outside compute constructs: nvcc
// rejects binding them to a reference in device code, so every extent is taken by value.
constexpr int BS = 16;
constexpr long NB = 5;

}  // namespace

ACC_DECLARE(double, declared_scale);
ACC_DECLARE(long long, declared_count);
ACC_DECLARE_ARRAY(int, declared_table, 64);
// Used by one test only, so that nothing but that test's first construct has touched it.
ACC_DECLARE_ARRAY(int, declared_untouched, 37);

TEST_CASE("update_device and update_self take a pointer and a count", "[14][update]") {
  const std::size_t n = GENERATE(1u, 1000u);
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 1.0);
  acc::enter_data(acc::copyin(v.data(), n));
  for (auto& x : v) x *= 2;  // host only, until update_device
  acc::update_device(v.data(), n);
  acc::view<double> dv(v.data(), n);
  acc::parallel_loop(n, ACC_LAMBDA(std::size_t i) { dv[i] += 1; });
  acc::update_self(v.data() + n / 2, n - n / 2, acc::async(2));  // only the upper half
  acc::wait(2);
  for (std::size_t i = n / 2; i < n; ++i) REQUIRE(v[i] == 2.0 * (i + 1) + 1);
  if (gpu_run())
    for (std::size_t i = 0; i < n / 2; ++i) REQUIRE(v[i] == 2.0 * (i + 1));
  acc::update_self(v.data(), n);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i] == 2.0 * (i + 1) + 1);
  acc::exit_data(acc::delete_(v.data(), n));
  REQUIRE_THROWS_AS(acc::update_self(v.data(), n), acc::not_present_error);
}

TEST_CASE("update by pointer checks the count and names the call", "[14][update]") {
  std::vector<double> v(16, 1.0);
  acc::data region{acc::copyin(v.data(), v.size())};
  const int negative = -1;
  const long line = __LINE__ + 2;
  try {
    acc::update_self(v.data() + 4, negative);
    FAIL("no error");
  } catch (const acc::bad_clause& e) {
    const std::string what = e.what();
    CHECK(what.find("acc::update_self at 14_update_declare.cpp:" + std::to_string(line)) != std::string::npos);
    CHECK(what.find("count -1 is negative") != std::string::npos);
  }
  REQUIRE_THROWS_AS(acc::update_device(v.data() + 4, negative), acc::bad_clause);
  REQUIRE_THROWS_AS(acc::update_device(v.data() + 4, -3LL, acc::async(1)), acc::bad_clause);
  // A count whose byte length wraps around the address space, not a 16-byte update.
  REQUIRE_THROWS_AS(acc::update_self(v.data(), SIZE_MAX / sizeof(double) + 3), acc::bad_clause);
  // update_host is update_self under its older name, in every form.
  v[3] = 7.0;
  acc::update_device(v.data() + 3, 1);
  acc::view<double> dv(v.data(), v.size());
  acc::parallel_loop(16, acc::default_present, ACC_LAMBDA(int i) { dv[i] += i; });
  acc::update_host(v.data(), 8);
  acc::update_host(v.data() + 8, 8u, acc::async(3));
  acc::wait(3);
  for (int i = 0; i < 16; ++i) REQUIRE(v[i] == (i == 3 ? 7.0 : 1.0) + i);
  acc::parallel_loop(16, acc::default_present, ACC_LAMBDA(int i) { dv[i] *= 2; });
  acc::update_host(acc::section(v.data(), 8), acc::section(v.data() + 8, 8));
  for (int i = 0; i < 16; ++i) REQUIRE(v[i] == 2 * ((i == 3 ? 7.0 : 1.0) + i));
}

TEST_CASE("is_present(p, 0) asks whether the address is in present data", "[14][update]") {
  std::vector<int> v(10), never(10);
  REQUIRE_FALSE(acc::is_present(v.data() + 5, 0));
  {
    acc::data region{acc::copyin(v.data(), v.size())};
    REQUIRE(acc::is_present(v.data(), 0));
    REQUIRE(acc::is_present(v.data() + 9, 0));
    REQUIRE_FALSE(acc::is_present(never.data(), 0));
    REQUIRE(acc::is_present(acc::section(never.data(), 0)));  // all of an empty section is present
    REQUIRE_FALSE(acc::is_present(static_cast<int*>(nullptr), 0));
  }
  REQUIRE_FALSE(acc::is_present(v.data(), 0));
  REQUIRE(acc::is_present(&declared_table[3], 0));
}

TEST_CASE("update lists update every item, with async for the whole list", "[14][update]") {
  const int n = GENERATE(1, 777);
  acc::array<float> a("a", n), b("b", n);
  std::vector<float> c(n);
  for (int i = 0; i < n; ++i) a[i] = float(i), b[i] = float(2 * i), c[i] = float(3 * i);
  acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(c.data(), c.size())};
  for (int i = 0; i < n; ++i) a[i] += 1, b[i] += 1, c[i] += 1;
  acc::update_device(a, b, acc::section(c.data(), c.size()), acc::async(1));
  acc::wait();
  float* pc = acc::deviceptr(c.data());
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) {
    a[i] *= 10;
    b[i] *= 10;
  });
  // The device copy of c, through its device address (host_data use_device).
  acc::view<float> dc(pc, n);
  acc::data dev{acc::deviceptr(pc, n)};
  acc::parallel_loop(n, ACC_LAMBDA(int i) { dc[i] *= 10; });
  acc::update_self(a, acc::section(b, 0, n), acc::section(c.data(), c.size()));
  for (int i = 0; i < n; ++i) {
    REQUIRE(a[i] == 10.0f * (i + 1));
    REQUIRE(b[i] == 10.0f * (2 * i + 1));
    REQUIRE(c[i] == 10.0f * (3 * i + 1));
  }
  // if_(false) makes the whole list do nothing.
  for (int i = 0; i < n; ++i) a[i] = -1;
  acc::update_self(a, b, acc::if_(false));
  REQUIRE(a[0] == -1.0f);
}

TEST_CASE("updates with if_present leave data that is not present alone", "[14][update]") {
  const int n = GENERATE(1, 13, 1000);
  acc::array<double> a("a", n), b("b", n), c("c", n);
  for (int i = 0; i < n; ++i) a[i] = i, b[i] = -i, c[i] = 0.5 * i;
  acc::data region{acc::copyin(a)};
  for (int i = 0; i < n; ++i) a[i] += 1, b[i] += 1;
  acc::update_device(a, b, acc::if_present);  // b is not present: skipped, as OpenACC's update if_present
  acc::update_device(b, acc::if_present, acc::async(2));
  acc::wait(2);
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { a[i] *= 2; });
  acc::update_self(b, a, acc::if_present);
  for (int i = 0; i < n; ++i) {
    REQUIRE(a[i] == 2.0 * (i + 1));
    REQUIRE(b[i] == 1.0 - i);  // the host's own values
  }
  // Without if_present the absent item is still an error; partly present data is one either way.
  REQUIRE_THROWS_AS(acc::update_self(a, b), acc::not_present_error);
  acc::enter_data(acc::copyin(acc::section(c, 0, (n + 1) / 2)));
  if (n > 1)
    REQUIRE_THROWS_WITH(acc::update_self(c, acc::if_present), Catch::Contains("is only partly present"));
  acc::update_self(acc::section(c, 0, (n + 1) / 2), acc::if_present);
  acc::exit_data(acc::delete_(acc::section(c, 0, (n + 1) / 2)));
  // host_data use_device(x) if_present: the device address of present data, else the host's.
  REQUIRE(acc::deviceptr(b, acc::if_present) == b.data());
  REQUIRE(acc::deviceptr(a, acc::if_present) == acc::deviceptr(a));
}

TEST_CASE("an update list names the caller's line in its errors", "[14][update]") {
  acc::array<int> present_one("present_one", 8), absent_one("absent_one", 8);
  acc::data region{acc::copyin(present_one)};
  const int line = __LINE__ + 2;
  try {
    acc::update_device(present_one, absent_one);
    FAIL("no error");
  } catch (const acc::not_present_error& e) {
    const std::string what = e.what();
    CHECK(what.find("acc::update_device at 14_update_declare.cpp:" + std::to_string(line)) != std::string::npos);
    CHECK(what.find("'absent_one'") != std::string::npos);
  }
}

TEST_CASE("wait() with no queue waits for every queue", "[14][async]") {
  const int n = 1 << 16;
  buffer<long long> x(n, 0), y(n, 0), z(n, 0);
  long long *px = x.data(), *py = y.data(), *pz = z.data();
  for (int step = 0; step < 5; ++step) {
    acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int i) { px[i] = px[i] * 2 + i; });
    acc::parallel_loop(n, acc::async(7), ACC_LAMBDA(int i) { py[i] = py[i] * 3 + i; });
    acc::parallel_loop(n, acc::async(), ACC_LAMBDA(int i) { pz[i] += i; });
  }
  acc::wait();
  REQUIRE(acc::async_test(1));
  REQUIRE(acc::async_test(7));
  REQUIRE(acc::async_test(acc::async_noval));
  for (int i = 0; i < n; i += 97) {
    long long ex = 0, ey = 0;
    for (int step = 0; step < 5; ++step) ex = ex * 2 + i, ey = ey * 3 + i;
    REQUIRE(x[i] == ex);
    REQUIRE(y[i] == ey);
    REQUIRE(z[i] == 5LL * i);
  }
}

TEST_CASE("ACC_DECLARE variables are used by name on the host and in compute constructs", "[14][declare]") {
  REQUIRE(acc::is_present(declared_scale));
  REQUIRE(acc::is_present(declared_table));
  const int n = GENERATE(1, 64);
  buffer<double> y(n, 0.0);
  double* py = y.data();
  declared_scale = 2.5;
  declared_count = 0;
  for (int i = 0; i < 64; ++i) declared_table[i] = -1;
  acc::update_device(declared_scale);
  acc::update_device(declared_count, declared_table);
  acc::parallel_loop(n, ACC_LAMBDA(int i) {
    py[i] = declared_scale * i;
    declared_table[i] = 3 * i;
    acc::atomic_update(declared_count, acc::plus, 1LL);
  });
  for (int i = 0; i < n; ++i) REQUIRE(y[i] == 2.5 * i);
  if (gpu_run()) {
    // Two copies until update_self: the host's are still the old values.
    REQUIRE(declared_table[0] == -1);
    REQUIRE(declared_count == 0);
  }
  acc::update_self(declared_table);
  acc::update_self(declared_count);
  for (int i = 0; i < 64; ++i) REQUIRE(declared_table[i] == (i < n ? 3 * i : -1));
  REQUIRE(declared_count == n);

  // A part of a declared array by pointer and count.
  declared_table[5] = 500;
  declared_table[6] = 600;
  acc::update_device(&declared_table[5], 2);
  buffer<int> seen(2, 0);
  int* ps = seen.data();
  acc::parallel_loop(2, ACC_LAMBDA(int i) { ps[i] = declared_table[5 + i]; });
  REQUIRE(seen[0] == 500);
  REQUIRE(seen[1] == 600);

  if (gpu_run()) {
    // A host write without update_device is not seen by the device.
    declared_scale = 100;
    acc::parallel_loop(1, ACC_LAMBDA(int) { py[0] = declared_scale; });
    REQUIRE(y[0] == 2.5);
  }
  REQUIRE(acc::deviceptr(declared_table) != nullptr);
  REQUIRE(acc::deviceptr(declared_scale) != nullptr);
  if (!gpu_run()) REQUIRE(acc::deviceptr(declared_scale) == &declared_scale);
}

TEST_CASE("a view over an ACC_DECLARE array is present in its first construct", "[14][declare]") {
  // OpenACC 3.3 §2.13: declare create data is present for the whole program, whether or not
  // anything used it before; the view reaches the same copy as the array's name does.
  constexpr int n = 37;
  acc::view<int> t("t", declared_untouched, n);
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { t[i] = 3 * i + 1; });
  acc::array<int> seen("seen", n);
  acc::parallel_loop(n, ACC_LAMBDA(int i) { seen[i] = declared_untouched[i]; });
  for (int i = 0; i < n; ++i) REQUIRE(seen[i] == 3 * i + 1);
  acc::update_self(declared_untouched);
  for (int i = 0; i < n; ++i) REQUIRE(declared_untouched[i] == 3 * i + 1);
}

TEST_CASE("deviceptr of data that is not present names it and the call site", "[14][deviceptr]") {
  acc::array<double> lost("lost", 10);
  const int line = __LINE__ + 2;
  try {
    (void)acc::deviceptr(lost);
    FAIL("no error");
  } catch (const acc::not_present_error& e) {
    const std::string what = e.what();
    CHECK(what.find("acc::deviceptr at 14_update_declare.cpp:" + std::to_string(line)) != std::string::npos);
    CHECK(what.find("'lost'") != std::string::npos);
  }
  std::vector<int> raw(4);
  REQUIRE_THROWS_AS(acc::deviceptr(raw.data()), acc::not_present_error);
  acc::data region{acc::copyin(raw.data(), raw.size())};
  REQUIRE(acc::deviceptr(raw.data() + 3) == acc::deviceptr(raw.data()) + 3);
}

TEST_CASE("extents given by namespace-scope constants work in every construct", "[14][extent]") {
  buffer<long long> out(NB * BS * BS, 0);
  long long* po = out.data();
  acc::parallel_loop(acc::collapse(NB, BS, BS), ACC_LAMBDA(long i, long j, long k) {
    po[(i * BS + j) * BS + k] = i * 10000 + j * 100 + k;
  });
  acc::parallel(acc::num_gangs(3), ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, NB, [&](long i) {
      const long long row = acc::loop_reduce(g, acc::vector, BS, acc::plus, [&](int j) { return po[(i * BS + j) * BS]; });
      acc::loop(g, acc::worker_vector, acc::range(0, BS), [&](int j) { po[(i * BS + j) * BS + 1] += row; });
    });
  });
  const long long total = acc::parallel_reduce(BS, acc::plus, ACC_LAMBDA(int j) { return po[j * BS]; });
  long long expect_total = 0;
  for (long i = 0; i < NB; ++i)
    for (int j = 0; j < BS; ++j) {
      long long row = 0;
      for (int jj = 0; jj < BS; ++jj) row += i * 10000 + jj * 100;
      for (int k = 0; k < BS; ++k) {
        const long long base = i * 10000 + j * 100 + k;
        REQUIRE(out[(i * BS + j) * BS + k] == (k == 1 ? base + row : base));
      }
      if (i == 0) expect_total += j * 100;
    }
  REQUIRE(total == expect_total);
}

TEST_CASE("an update with if_(false) does nothing, even for data that is not present", "[14][update]") {
  const int n = GENERATE(1, 777);
  acc::array<float> a("a", n), b("b", n);
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE_NOTHROW(acc::update_self(a, acc::if_(false)));
  REQUIRE_NOTHROW(acc::update_device(a, b, acc::if_(false)));
  // The same updates with if_(true) are errors: the data is not present.
  REQUIRE_THROWS_AS(acc::update_self(a, acc::if_(true)), acc::not_present_error);
  REQUIRE_THROWS_AS(acc::update_device(a, b, acc::if_(true)), acc::not_present_error);
}
