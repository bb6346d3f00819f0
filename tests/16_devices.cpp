// Level 16: several devices in one process: device_num on data clauses and updates,
// update_peer, and parallel_loop split by acc::devices / acc::all_devices with per-device
// data. Every case runs with whatever devices there are: one GPU, several, or none (then every
// device is the host).
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace {

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& x : v) x = u(gen);
  return v;
}

// y = 2 x + i over [0, n) on the devices of `d`, each holding only its part of x and y.
void scaled_on_parts(const acc::devices_t& d, acc::array<double>& x, acc::array<double>& y, long n) {
  const std::vector<int> devs = acc::devices_of(d);
  const int parts = int(devs.size());
  for (int k = 0; k < parts; ++k) {
    const auto r = acc::device_part(n, k, parts);
    acc::enter_data(acc::copyin(acc::section(x, r.lo, r.hi - r.lo)), acc::create(acc::section(y, r.lo, r.hi - r.lo)),
                    acc::device_num(devs[k]));
  }
  acc::view<const double> xv = x;
  acc::view<double> yv = y;
  acc::parallel_loop(n, d, ACC_LAMBDA(long i) { yv[i] = 2.0 * xv[i] + double(i); });
  for (int k = 0; k < parts; ++k) {
    const auto r = acc::device_part(n, k, parts);
    acc::exit_data(acc::delete_(acc::section(x, r.lo, r.hi - r.lo)), acc::copyout(acc::section(y, r.lo, r.hi - r.lo)),
                   acc::device_num(devs[k]));
  }
}

}  // namespace

TEST_CASE("device_num on a data region, a construct and an update picks that device", "[16][devices]") {
  const long n = GENERATE(1L, 1000L, 4097L);
  const std::vector<double> init = random_values(std::size_t(n), 7);
  for (int d : acc::devices_of(acc::all_devices)) {
    acc::array<double> a("a", n);
    for (long i = 0; i < n; ++i) a[i] = init[std::size_t(i)];
    {
      acc::data region{acc::copyin(a), acc::device_num(d)};
      acc::parallel_loop(n, acc::device_num(d), acc::default_present, ACC_LAMBDA(long i) { a[i] = 3.0 * a[i]; });
      acc::update_self(a, acc::device_num(d));
    }
    for (long i = 0; i < n; ++i) REQUIRE(a[i] == 3.0 * init[std::size_t(i)]);
  }
}

TEST_CASE("enter_data and exit_data with device_num count references on that device", "[16][devices]") {
  const std::vector<int> devs = acc::devices_of(acc::all_devices);
  const int last = devs.back();
  acc::array<int> a("a", 300);
  for (int i = 0; i < 300; ++i) a[i] = i;
  acc::enter_data(acc::copyin(a), acc::device_num(last));
  acc::parallel_loop(300, acc::device_num(last), acc::default_present, ACC_LAMBDA(int i) { a[i] += 1; });
  acc::exit_data(acc::copyout(a), acc::device_num(last));
  for (int i = 0; i < 300; ++i) REQUIRE(a[i] == i + 1);
}

TEST_CASE("device_num of a device that does not exist is a bad_clause", "[16][devices][gpu]") {
  acc::array<double> a("a", 8);
  const int missing = acc::get_num_devices(acc::device_type::nvidia);
  REQUIRE_THROWS_AS(acc::enter_data(acc::copyin(a), acc::device_num(missing)), acc::bad_clause);
  REQUIRE_THROWS_AS(acc::update_peer(a, 0, missing), acc::bad_clause);
  REQUIRE_THROWS_AS(acc::parallel_loop(8, acc::devices(0, missing), ACC_LAMBDA(int) {}), acc::bad_clause);
  REQUIRE_THROWS_AS(acc::parallel_loop(8, acc::devices(0, 0), ACC_LAMBDA(int) {}), acc::bad_clause);
}

TEST_CASE("devices naming a device twice is a bad_clause on every backend", "[16][devices]") {
  // Where constructs run on the host the list is not used, but the program would fail on a GPU.
  acc::array<int> ran("ran", 8);
  for (int i = 0; i < 8; ++i) ran[i] = 0;
  REQUIRE_THROWS_WITH(acc::parallel_loop(8, acc::devices(0, 0), ACC_LAMBDA(int i) { ran[i] = 1; }),
                      Catch::Contains("device 0 is named twice"));
  REQUIRE_THROWS_WITH(acc::parallel_loop(8, acc::devices(1, 0, 1), acc::if_(false), ACC_LAMBDA(int i) { ran[i] = 1; }),
                      Catch::Contains("device 1 is named twice"));
  for (int i = 0; i < 8; ++i) CHECK(ran[i] == 0);
}

TEST_CASE("update_peer copies a present range from one device's copy to another's", "[16][devices]") {
  const std::vector<int> devs = acc::devices_of(acc::all_devices);
  const int from = devs.front(), to = devs.back();
  const long n = GENERATE(5L, 1023L);
  acc::array<double> a("a", n);
  for (long i = 0; i < n; ++i) a[i] = double(i);
  acc::enter_data(acc::copyin(a), acc::device_num(from));
  if (to != from) acc::enter_data(acc::copyin(a), acc::device_num(to));
  acc::parallel_loop(n, acc::device_num(from), acc::default_present, ACC_LAMBDA(long i) { a[i] = -a[i]; });
  SECTION("the whole array") {
    acc::update_peer(a, from, to);
    acc::update_self(a, acc::device_num(to));
    for (long i = 0; i < n; ++i) REQUIRE(a[i] == -double(i));
  }
  SECTION("a section, queued") {
    const long lo = n / 3, len = n - n / 3 - 1;
    acc::update_peer(acc::section(a, lo, len), from, to, acc::async(2));
    acc::set_device_num(to, acc::get_device_type());
    acc::wait(2);
    acc::set_device_num(-1, acc::get_device_type());
    acc::update_self(a, acc::device_num(to));
    // On distinct devices only the section moved; with one copy (one device, the host) all did.
    for (long i = 0; i < n; ++i) {
      const bool moved = (i >= lo && i < lo + len) || from == to;
      REQUIRE(a[i] == (moved ? -double(i) : double(i)));
    }
  }
  acc::exit_data(acc::delete_(a), acc::device_num(from));
  if (to != from) acc::exit_data(acc::delete_(a), acc::device_num(to));
}

TEST_CASE("update_peer of data absent on a device is not_present_error", "[16][devices]") {
  acc::array<double> a("a", 16);
  REQUIRE_THROWS_AS(acc::update_peer(a, 0, 0), acc::not_present_error);
}

TEST_CASE("device_part splits a loop into contiguous parts that cover it once", "[16][devices]") {
  const long n = GENERATE(0L, 1L, 7L, 1000L);
  const int parts = GENERATE(1, 2, 3, 16);
  long next = 5;
  for (int k = 0; k < parts; ++k) {
    const auto r = acc::device_part(acc::range(5L, 5L + n), k, parts);
    REQUIRE(r.lo == next);
    REQUIRE(r.hi >= r.lo);
    REQUIRE(r.hi - r.lo <= n / parts + 1);
    next = r.hi;
  }
  REQUIRE(next == 5 + n);
}

TEST_CASE("parallel_loop with devices runs every iteration once on per-device data", "[16][devices]") {
  const long n = GENERATE(1L, 2L, 1000L, 65537L);
  const std::vector<double> init = random_values(std::size_t(n), 11);
  acc::array<double> x("x", n), y("y", n);
  for (long i = 0; i < n; ++i) x[i] = init[std::size_t(i)];
  const auto check = [&] {
    for (long i = 0; i < n; ++i) REQUIRE(y[i] == 2.0 * init[std::size_t(i)] + double(i));
  };
  SECTION("all_devices") {
    scaled_on_parts(acc::all_devices, x, y, n);
    check();
  }
  SECTION("a list of device 0") {
    scaled_on_parts(acc::devices(0), x, y, n);
    check();
  }
}

TEST_CASE("a devices-split stencil reads the halo each device holds, and update_peer refreshes it",
          "[16][devices]") {
  // Rows [1, ni - 1) of out from rows i - 1 .. i + 1 of in: each device holds its rows of out
  // and its rows of in plus one halo row on each side.
  const int ni = GENERATE(3, 10, 129), nj = GENERATE(1, 33);
  const std::vector<int> devs = acc::devices_of(acc::all_devices);
  const int parts = int(devs.size());
  acc::array<double, 2> in("in", ni, nj), out("out", ni, nj);
  const std::vector<double> init = random_values(std::size_t(ni) * nj, 3);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      in(i, j) = init[std::size_t(i) * nj + j];
      out(i, j) = 0.0;
    }
  const auto rows = acc::range(1, ni - 1);
  for (int k = 0; k < parts; ++k) {
    const auto r = acc::device_part(rows, k, parts);
    if (r.lo == r.hi) continue;
    acc::enter_data(acc::copyin(acc::section(in, r.lo - 1, r.hi - r.lo + 2)),
                    acc::create(acc::section(out, r.lo, r.hi - r.lo)), acc::device_num(devs[k]));
  }
  acc::view<const double, 2> iv = in;
  acc::view<double, 2> ov = out;
  const auto stencil = [&] {
    acc::parallel_loop(acc::collapse(rows, nj), acc::all_devices,
                       ACC_LAMBDA(int i, int j) { ov(i, j) = iv(i - 1, j) + iv(i + 1, j) + 0.5 * iv(i, j); });
  };
  stencil();
  // Second sweep reads out as its input: each device's edge rows go to its neighbours' halos.
  for (int k = 0; k < parts; ++k) {
    const auto r = acc::device_part(rows, k, parts);
    if (r.lo == r.hi) continue;
    acc::update_self(acc::section(out, r.lo, r.hi - r.lo), acc::device_num(devs[k]));
    acc::exit_data(acc::delete_(acc::section(in, r.lo - 1, r.hi - r.lo + 2)),
                   acc::delete_(acc::section(out, r.lo, r.hi - r.lo)), acc::device_num(devs[k]));
  }
  for (int i = 1; i < ni - 1; ++i)
    for (int j = 0; j < nj; ++j) {
      const double want = init[std::size_t(i - 1) * nj + j] + init[std::size_t(i + 1) * nj + j] +
                           0.5 * init[std::size_t(i) * nj + j];
      REQUIRE(out(i, j) == want);
    }
}

TEST_CASE("update_peer moves halo rows between the devices of a split loop", "[16][devices]") {
  // A 1-D chain: device k owns [r.lo, r.hi) plus one halo cell each side; after each step the
  // edge cells go to the neighbours with update_peer, never through the host.
  const long n = GENERATE(4L, 1000L);
  const int steps = 3;
  const std::vector<int> devs = acc::devices_of(acc::all_devices);
  const int parts = int(devs.size());
  acc::array<double> a("a", n + 2), b("b", n + 2);  // cells 1..n, fixed cells 0 and n + 1
  std::vector<double> ra(std::size_t(n) + 2), rb;
  const std::vector<double> init = random_values(std::size_t(n) + 2, 5);
  for (long i = 0; i < n + 2; ++i) a[i] = b[i] = ra[std::size_t(i)] = init[std::size_t(i)];
  rb = ra;
  const auto cells = acc::range(1L, n + 1);
  for (int k = 0; k < parts; ++k) {
    const auto r = acc::device_part(cells, k, parts);
    acc::enter_data(acc::copyin(acc::section(a, r.lo - 1, r.hi - r.lo + 2)),
                    acc::copyin(acc::section(b, r.lo - 1, r.hi - r.lo + 2)), acc::device_num(devs[k]));
  }
  for (int s = 0; s < steps; ++s) {
    acc::view<const double> av = a;
    acc::view<double> bv = b;
    acc::parallel_loop(cells, acc::all_devices, ACC_LAMBDA(long i) { bv[i] = 0.5 * av[i] + 0.25 * (av[i - 1] + av[i + 1]); });
    for (int k = 0; k + 1 < parts; ++k) {
      const auto left = acc::device_part(cells, k, parts), right = acc::device_part(cells, k + 1, parts);
      if (left.lo == left.hi || right.lo == right.hi) continue;
      acc::update_peer(acc::section(b, left.hi - 1, 1), devs[k], devs[k + 1]);
      acc::update_peer(acc::section(b, right.lo, 1), devs[k + 1], devs[k]);
    }
    swap(a, b);
    for (long i = 1; i <= n; ++i)
      rb[std::size_t(i)] = 0.5 * ra[std::size_t(i)] + 0.25 * (ra[std::size_t(i - 1)] + ra[std::size_t(i + 1)]);
    std::swap(ra, rb);
  }
  for (int k = 0; k < parts; ++k) {
    const auto r = acc::device_part(cells, k, parts);
    acc::update_self(acc::section(a, r.lo, r.hi - r.lo), acc::device_num(devs[k]));
    acc::exit_data(acc::delete_(acc::section(a, r.lo - 1, r.hi - r.lo + 2)),
                   acc::delete_(acc::section(b, r.lo - 1, r.hi - r.lo + 2)), acc::device_num(devs[k]));
  }
  for (long i = 1; i <= n; ++i) REQUIRE(a[i] == ra[std::size_t(i)]);
}

TEST_CASE("update_peer with a negative device is a bad_clause on every backend", "[16][devices]") {
  acc::array<int> a("a", 8);
  acc::enter_data(acc::copyin(a));
  for (const int bad : {-1, -2}) {
    REQUIRE_THROWS_WITH(acc::update_peer(a, bad, 0), Catch::Contains("device " + std::to_string(bad) + " is negative"));
    REQUIRE_THROWS_AS(acc::update_peer(a, 0, bad), acc::bad_clause);
    REQUIRE_THROWS_AS(acc::update_peer(a, bad, 0, acc::async(1)), acc::bad_clause);
  }
  acc::update_peer(a, 0, 0);  // a present range, one device: nothing to move
  acc::exit_data(acc::delete_(a));
  REQUIRE_FALSE(acc::is_present(a));
}
