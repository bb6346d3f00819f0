// Level 3: the data environment: clauses, regions, enter/exit data, reference counts, updates,
// sections, implicit data and default_present. On the host device the data is the device copy,
// so "the host still has the old values" is checked only on GPUs; presence is checked everywhere.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

#include "support/buffer.hpp"
#include "support/device_memory.hpp"

using acc_test::gpu_run;

namespace {

template <class A>
void fill_random(A& a, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<long long> d(-1000, 1000);
  for (auto& e : a) e = d(gen);
}

// Compute constructs live in plain functions: nvcc rejects extended lambdas inside lambdas.
template <class A>
void add(A a, long long v) {
  acc::parallel_loop(a.size(), ACC_LAMBDA(std::size_t i) { a(i) += v; });
}

template <class A>
void add_present(A a, long long v) {
  acc::parallel_loop(a.size(), acc::default_present, ACC_LAMBDA(std::size_t i) { a(i) += v; });
}

template <class A>
void scale_async(A a, long long f, long long v, int q) {
  acc::parallel_loop(a.size(), acc::async(q), ACC_LAMBDA(std::size_t i) { a(i) = a(i) * f + v; });
}

template <class A>
std::vector<long long> plus(const A& a, long long v) {
  std::vector<long long> r(a.begin(), a.end());
  for (auto& e : r) e += v;
  return r;
}

template <class A>
std::vector<long long> values(const A& a) {
  return std::vector<long long>(a.begin(), a.end());
}

}  // namespace

TEST_CASE("enter_data and exit_data make data present and absent", "[03][data]") {
  const long n = GENERATE(1L, 1009L);
  acc::array<long long> a("a", n);
  fill_random(a, 1u);
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE_THROWS_AS(acc::deviceptr(a), acc::not_present_error);
  acc::enter_data(acc::copyin(a));
  REQUIRE(acc::is_present(a));
  REQUIRE(acc::is_present(a.data(), a.size()));
  REQUIRE(acc::deviceptr(a) != nullptr);
  REQUIRE(acc::deviceptr(a.data() + (n - 1)) == acc::deviceptr(a) + (n - 1));
  REQUIRE_THROWS_AS(acc::deviceptr(a.data() + n), acc::not_present_error);  // one past the end is not present
  if (!gpu_run()) REQUIRE(acc::deviceptr(a) == a.data());
  acc::exit_data(acc::delete_(a));
  REQUIRE_FALSE(acc::is_present(a));
}

TEST_CASE("a data region copies in, keeps data on the device, and copies out at its end", "[03][data]") {
  acc::array<long long> a("a", 777);
  fill_random(a, 2u);
  const auto start = values(a);
  {
    acc::data region{acc::copy(a)};
    REQUIRE(acc::is_present(a));
    add_present(a, 5);
    add(a, 1);  // present: no implicit copy, the device copy is updated
    if (gpu_run()) REQUIRE(values(a) == start);
  }
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE(values(a) == plus(start, 6));
}

TEST_CASE("nested regions and enter/exit data count references (OpenACC 3.3 2.6.7)", "[03][data][refcount]") {
  acc::array<long long> a("a", 513);
  fill_random(a, 3u);
  const auto start = values(a);

  SECTION("an inner copy of present data neither copies in nor out") {
    acc::data outer{acc::copy(a)};
    {
      acc::data inner{acc::copy(a)};
      add_present(a, 1);
    }
    REQUIRE(acc::is_present(a));
    if (gpu_run()) REQUIRE(values(a) == start);
  }
  SECTION("data entered dynamically outlives the region, and copyout happens at count zero") {
    {
      acc::data region{acc::copy(a)};
      acc::enter_data(acc::copyin(a));  // present: dynamic count 1, no copy
      add_present(a, 2);
    }  // structured count 0, dynamic 1: no copy out
    REQUIRE(acc::is_present(a));
    if (gpu_run()) REQUIRE(values(a) == start);
    acc::exit_data(acc::copyout(a));
    REQUIRE_FALSE(acc::is_present(a));
    REQUIRE(values(a) == plus(start, 2));
  }
  SECTION("copyout waits for the last dynamic reference") {
    acc::enter_data(acc::copyin(a));
    acc::enter_data(acc::create(a));
    add_present(a, 3);
    acc::exit_data(acc::copyout(a));
    REQUIRE(acc::is_present(a));
    if (gpu_run()) REQUIRE(values(a) == start);
    acc::exit_data(acc::copyout(a));
    REQUIRE_FALSE(acc::is_present(a));
    REQUIRE(values(a) == plus(start, 3));
  }
  SECTION("finalize drops every dynamic reference at once") {
    acc::enter_data(acc::copyin(a));
    acc::enter_data(acc::copyin(a));
    acc::enter_data(acc::copyin(a));
    add_present(a, 4);
    acc::exit_data(acc::copyout(a), acc::finalize);
    REQUIRE_FALSE(acc::is_present(a));
    REQUIRE(values(a) == plus(start, 4));
  }
  SECTION("exit_data inside a region leaves the region's reference") {
    acc::data region{acc::copy(a)};
    acc::exit_data(acc::delete_(a), acc::finalize);  // dynamic count is 0: nothing happens
    REQUIRE(acc::is_present(a));
    add_present(a, 1);
  }
  SECTION("create then copyout returns the device values") {
    acc::array<long long> b("b", 513);
    acc::enter_data(acc::create(b));
    acc::parallel_loop(513, acc::default_present, ACC_LAMBDA(int i) { b(i) = 7 * i; });
    acc::exit_data(acc::copyout(b));
    for (int i = 0; i < 513; ++i) REQUIRE(b(i) == 7 * i);
  }
  REQUIRE_FALSE(acc::is_present(a));
}

TEST_CASE("copyin and create are not copied back, copyout is not copied in", "[03][data]") {
  acc::array<long long> a("a", 300), b("b", 300);
  fill_random(a, 4u);
  fill_random(b, 5u);
  const auto sa = values(a), sb = values(b);
  {
    acc::data region{acc::copyin(a), acc::copyout(b)};
    add_present(a, 1);
    acc::parallel_loop(300, acc::default_present, ACC_LAMBDA(int i) { b(i) = i; });
  }
  if (gpu_run()) REQUIRE(values(a) == sa);  // copyin: device changes stay on the device
  for (int i = 0; i < 300; ++i) REQUIRE(b(i) == i);
}

TEST_CASE("updates move data between present copies, sections only their part", "[03][update]") {
  const long n = GENERATE(2L, 97L, 65537L);
  acc::array<long long> a("a", n);
  fill_random(a, 6u);
  const auto start = values(a);
  acc::enter_data(acc::copyin(a));
  add_present(a, 10);
  const long lo = n / 3, len = n / 2;
  acc::update_self(acc::section(a, lo, len));
  for (long i = 0; i < n; ++i) {
    const bool inside = i >= lo && i < lo + len;
    REQUIRE(a(i) == (inside || !gpu_run() ? start[i] + 10 : start[i]));
  }
  for (auto& e : a) e = 1;
  acc::update_device(a);
  add_present(a, 1);
  acc::update_host(a);
  for (long i = 0; i < n; ++i) REQUIRE(a(i) == 2);
  acc::exit_data(acc::delete_(a));
}

TEST_CASE("async updates and constructs on one queue run in order", "[03][update][async]") {
  const int q = GENERATE(1, acc::async_noval);
  acc::array<long long> a("a", 100003);
  fill_random(a, 7u);
  auto expect = values(a);
  acc::enter_data(acc::create(a));
  acc::update_device(a, acc::async(q));
  for (int step = 0; step < 5; ++step) scale_async(a, 3, step, q);
  acc::update_self(a, acc::async(q));
  acc::wait(q);
  for (auto& e : expect)
    for (int step = 0; step < 5; ++step) e = e * 3 + step;
  REQUIRE(values(a) == expect);
  acc::exit_data(acc::delete_(a), acc::async(q));
  acc::wait(q);
  REQUIRE_FALSE(acc::is_present(a));
}

TEST_CASE("sections enter part of an array and map into present data", "[03][section]") {
  acc::array<long long> a("a", 100);
  fill_random(a, 8u);
  acc::enter_data(acc::copyin(acc::section(a, 10, 20)));
  REQUIRE(acc::is_present(acc::section(a, 10, 20)));
  REQUIRE(acc::is_present(acc::section(a, 15, 5)));
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE_FALSE(acc::is_present(acc::section(a, 25, 10)));
  REQUIRE(acc::deviceptr(acc::section(a, 15, 5)) == acc::deviceptr(acc::section(a, 10, 20)) + 5);
  // The whole array is only partly present: an error, not a second copy.
  REQUIRE_THROWS_AS(acc::enter_data(acc::copyin(a)), acc::not_present_error);
  // Both ranges are named 'a': the message tells them apart by their bytes.
  REQUIRE_THROWS_WITH(acc::enter_data(acc::copyin(a)), Catch::Contains("'a' (800 bytes at 0x") &&
                                                           Catch::Contains("is only partly present") &&
                                                           Catch::Contains("overlaps the present 'a' (160 bytes at 0x"));
  acc::exit_data(acc::delete_(acc::section(a, 10, 20)));
  REQUIRE_FALSE(acc::is_present(acc::section(a, 10, 20)));

  acc::data region{acc::copy(a)};
  acc::data inner{acc::present(acc::section(a, 50, 50))};  // a section of present data
  REQUIRE(acc::deviceptr(acc::section(a, 50, 1)) == acc::deviceptr(a) + 50);
}

TEST_CASE("exit_data of a section inside present data gives back the whole range's reference", "[03][section]") {
  // The counts belong to the present range (OpenACC 3.3 §2.6.7): the last reference given back
  // through a section frees the whole device copy; copyout copies out the section alone.
  const long n = GENERATE(1L, 13L, 1009L);
  const long lo = n / 3, len = std::max(1L, n / 4);
  acc::array<long long> a("a", n);
  for (long i = 0; i < n; ++i) a[i] = i;
  acc::enter_data(acc::copyin(a));
  acc::enter_data(acc::copyin(a));
  acc::parallel_loop(n, ACC_LAMBDA(long i) { a[i] = -i - 1; });
  if (gpu_run())
    for (long i = 0; i < n; ++i) a[i] = 7;  // the host's copy, which only the section's copyout overwrites
  acc::exit_data(acc::delete_(acc::section(a, lo, len)));
  REQUIRE(acc::is_present(a));  // one dynamic reference left
  acc::exit_data(acc::copyout(acc::section(a, lo, len)));
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE_FALSE(acc::is_present(acc::section(a, lo, len)));
  for (long i = 0; i < n; ++i) {
    const bool in_section = i >= lo && i < lo + len;
    REQUIRE(a[i] == (in_section || !gpu_run() ? -i - 1 : 7));
  }
}

TEST_CASE("sections with a range per dimension: data clauses take contiguous ones", "[03][section]") {
  // Random extents and random contiguous sections of a rank-3 array: k leading dimensions of
  // one index, then one partial dimension, then whole dimensions (row-major contiguity).
  std::mt19937 gen(GENERATE(21u, 22u, 23u));
  const auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(gen); };
  const long n0 = pick(1, 9), n1 = pick(1, 11), n2 = pick(1, 7);
  acc::array<long long, 3> a("a3", n0, n1, n2);
  fill_random(a, 9u);
  const auto start = values(a);
  acc::enter_data(acc::copyin(a));
  add_present(acc::view<long long>(a.data(), a.size()), 5);  // the same memory, flat
  for (int round = 0; round < 20; ++round) {
    const long ext[3] = {n0, n1, n2};
    const int partial = static_cast<int>(pick(0, 2));
    long lo[3], len[3];
    for (int d = 0; d < 3; ++d) {
      if (d < partial) {
        lo[d] = pick(0, ext[d] - 1), len[d] = 1;
      } else if (d == partial) {
        lo[d] = pick(0, ext[d]), len[d] = pick(0, ext[d] - lo[d]);
      } else {
        lo[d] = 0, len[d] = ext[d];
      }
    }
    const auto s = acc::section(a, acc::fixed(lo[0], len[0]), acc::fixed(lo[1], len[1]), acc::fixed(lo[2], len[2]));
    REQUIRE(s.size() == static_cast<std::size_t>(len[0] * len[1] * len[2]));
    if (s.size() != 0) REQUIRE(s.data() == &a(lo[0], lo[1], lo[2]));
    REQUIRE(acc::is_present(s));
    acc::update_self(s);
    for (long i = 0; i < n0; ++i)
      for (long j = 0; j < n1; ++j)
        for (long k = 0; k < n2; ++k) {
          const bool inside = i >= lo[0] && i < lo[0] + len[0] && j >= lo[1] && j < lo[1] + len[1] &&
                              k >= lo[2] && k < lo[2] + len[2];
          const std::size_t at = static_cast<std::size_t>((i * n1 + j) * n2 + k);
          if (inside || !gpu_run()) REQUIRE(a(i, j, k) == start[at] + 5);
        }
  }
  acc::exit_data(acc::delete_(a));

  // A section of a present section maps into its device copy.
  acc::data region{acc::copyin(acc::section(a, acc::fixed(n0 - 1, 1), acc::fixed(0, n1), acc::fixed(0, n2)))};
  REQUIRE(acc::deviceptr(acc::section(a, acc::fixed(n0 - 1, 1), acc::fixed(n1 - 1, 1), acc::fixed(0, n2))) ==
          acc::deviceptr(acc::section(a, n0 - 1, 1)) + (n1 - 1) * n2);
}

TEST_CASE("sections that are not contiguous or leave their array are errors at the clause", "[03][section][errors]") {
  acc::array<float, 2> m("m", 6, 5);
  // Two rows' first two columns: a rectangle, but not one range of memory.
  const auto corner = acc::section(m, acc::fixed(0, 2), acc::fixed(0, 2));
  REQUIRE_THROWS_AS(acc::enter_data(acc::copyin(corner)), acc::bad_clause);
  REQUIRE_THROWS_WITH(acc::enter_data(acc::copyin(corner)),
                      Catch::Contains("acc::copyin at 03_data_clauses.cpp:") &&
                          Catch::Contains("[0:2][0:2] of 'm' (extents 6 x 5) is not contiguous"));
  REQUIRE_THROWS_WITH(acc::update_self(corner), Catch::Contains("acc::update_self at 03_data_clauses.cpp:"));
  REQUIRE_THROWS_WITH(acc::update_device(corner, m), Catch::Contains("acc::update_device at 03_data_clauses.cpp:"));
  REQUIRE_THROWS_WITH(acc::is_present(corner), Catch::Contains("not contiguous"));
  REQUIRE_THROWS_WITH(acc::enter_data(acc::create(acc::section(m, acc::fixed(5, 1), acc::fixed(3, 3)))),
                      Catch::Contains("acc::create at 03_data_clauses.cpp:") &&
                          Catch::Contains("[5:1][3:3] is outside 'm', whose extent in dimension 1 is 5"));
  REQUIRE_THROWS_AS(acc::enter_data(acc::copyin(acc::section(m, acc::fixed(-1, 2), acc::fixed(0, 5)))),
                    acc::bad_clause);
  REQUIRE_FALSE(acc::is_present(m));
  // Edge cases that are contiguous: one element, one whole row, nothing.
  REQUIRE(acc::section(m, acc::fixed(3, 1), acc::fixed(4, 1)).size() == 1);
  acc::enter_data(acc::copyin(acc::section(m, acc::fixed(2, 1), acc::fixed(0, 5))),
                  acc::copyin(acc::section(m, acc::fixed(4, 0), acc::fixed(1, 2))));
  REQUIRE(acc::is_present(acc::section(m, 2, 1)));
  acc::exit_data(acc::delete_(acc::section(m, 2, 1)));
  REQUIRE_FALSE(acc::is_present(acc::section(m, 2, 1)));
}

TEST_CASE("pointer-and-count clauses, and views over the same memory", "[03][data]") {
  std::vector<long long> mem(4096);
  fill_random(mem, 9u);
  const auto start = mem;
  {
    acc::data region{acc::copy(mem.data(), mem.size())};
    REQUIRE(acc::is_present(mem.data(), mem.size()));
    add_present(acc::view<long long>("mem", mem.data(), mem.size()), 3);
  }
  for (std::size_t i = 0; i < mem.size(); ++i) REQUIRE(mem[i] == start[i] + 3);
}

TEST_CASE("deviceptr ranges are used as device memory", "[03][data]") {
  acc::array<long long> a("a", 1000);
  acc::enter_data(acc::create(a));
  long long* d = acc::deviceptr(a);
  {
    acc::data region{acc::deviceptr(d, 1000)};
    acc::parallel_loop(1000, acc::default_present,
                       ACC_LAMBDA(int i) { acc::view<long long>(d, 1000)(i) = i - 500; });
    add_present(acc::view<long long>(d, 1000), 1);
  }
  acc::exit_data(acc::copyout(a));
  for (int i = 0; i < 1000; ++i) REQUIRE(a(i) == i - 499);
}

TEST_CASE("implicit data is a copy for the construct, default_present requires presence", "[03][implicit]") {
  acc::array<long long> a("temperature", 1234);
  fill_random(a, 10u);
  const auto start = values(a);
  add(a, 2);  // not present: copied in and out by the construct
  REQUIRE(values(a) == plus(start, 2));
  REQUIRE_FALSE(acc::is_present(a));

  REQUIRE_THROWS_AS(add_present(a, 1), acc::not_present_error);
  REQUIRE_THROWS_WITH(add_present(a, 1), Catch::Contains("acc::parallel_loop at 03_data_clauses.cpp:") &&
                                             Catch::Contains("'temperature' is not present") &&
                                             Catch::Contains("default_present"));
  REQUIRE(values(a) == plus(start, 2));  // the failed construct ran nothing
  // A construct with no iterations still checks.
  acc::array<long long> e("empty_loop", 4);
  REQUIRE_THROWS_AS(acc::parallel_loop(0, acc::default_present, ACC_LAMBDA(int i) { e(i) = 1; }),
                    acc::not_present_error);
  // if_(false) runs on the host, where everything is accessible.
  acc::parallel_loop(1, acc::if_(false), acc::default_present, ACC_LAMBDA(int i) { e(i) = 1; });
  REQUIRE(e(0) == 1);
}

// OpenACC 3.3 §2.5.1: `parallel loop copyin(a) copyout(b) copy(c) create(t)`.
template <class A, class B>
void construct_data_loop(A a, B b, A c, A t) {
  acc::parallel_loop(a.size(), acc::copyin(a), acc::copyout(b), acc::copy(c), acc::create(t),
                     ACC_LAMBDA(std::size_t i) {
                       t(i) = 2 * a(i);
                       b(i) = t(i) + 1;
                       c(i) += a(i);
                       a(i) = -1;  // copyin: stays on the device
                     });
}

template <class A>
long long construct_data_sum(A a, int q) {
  long long s = 0;
  acc::parallel_loop(a.size(), acc::async(q), acc::copyin(a), acc::reduction(acc::plus, s),
                     ACC_LAMBDA(std::size_t i, long long& t) { t += a(i); });
  return s;
}

template <class A>
long long construct_data_reduce(A a) {
  return acc::parallel_reduce(a.size(), acc::vector_length(64), acc::copyin(a), acc::maximum,
                              ACC_LAMBDA(std::size_t i) { return a(i); }, -5000LL);
}

template <class A>
void construct_data_region(A a, A b, int gangs) {
  acc::parallel(acc::copy(a), acc::num_gangs(gangs), acc::copyin(b), ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang_vector, a.size(), [&](std::size_t i) { a(i) = 3 * a(i) - b(i); });
  });
}

template <class A>
void construct_data_serial(A a, int q) {
  acc::serial(acc::copy(a), acc::async(q), ACC_LAMBDA() {
    for (std::size_t i = 1; i < a.size(); ++i) a(i) += a(i - 1);
  });
}

template <class A, class B>
void construct_data_tiles(A a, B b) {
  acc::tile_loop(a.size(), acc::copyin(a), acc::tile_size(64), acc::copyout(b),
                 ACC_LAMBDA(std::size_t i) { b(i) = a(i) * a(i); });
}

template <class A>
void construct_data_present(A a) {
  acc::parallel_loop(a.size(), acc::present(a), ACC_LAMBDA(std::size_t i) { a(i) += 1; });
}

template <class A>
void construct_data_present_if(A a, bool on) {
  acc::serial(acc::if_(on), acc::present(a), ACC_LAMBDA() {
    if (a.size()) a(0) = 42;
  });
}

TEST_CASE("compute constructs take data clauses: a data region around the construct (OpenACC 3.3 2.5.1)",
          "[03][data][construct]") {
  const std::size_t n = GENERATE(std::size_t(0), std::size_t(1), std::size_t(257), std::size_t(4099));
  INFO("n = " << n);
  acc::array<long long> a("a", n), b("b", n), c("c", n), t("t", n);
  fill_random(a, 11u);
  fill_random(b, 12u);
  fill_random(c, 13u);
  const auto sa = values(a), sc = values(c);
  // An empty array is always present (is_present), so absence is asked of the others.
  const auto absent = [n](const acc::array<long long>& x) { return n == 0 || !acc::is_present(x); };

  construct_data_loop(a, b, c, t);
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(b(i) == 2 * sa[i] + 1);
    REQUIRE(c(i) == sc[i] + sa[i]);
  }
  if (gpu_run()) REQUIRE(values(a) == sa);  // copyin is not copied back
  for (auto* x : {&a, &b, &c, &t}) REQUIRE(absent(*x));

  fill_random(a, 14u);
  long long sum = 0, most = -5000;
  for (long long v : values(a)) {
    sum += v;
    most = std::max(most, v);
  }
  REQUIRE(construct_data_sum(a, 3) == sum);
  REQUIRE(construct_data_reduce(a) == most);
  REQUIRE(absent(a));

  // parallel: copy is copied back, copyin read; serial on a queue: its copy-out is queued there.
  fill_random(b, 15u);
  const auto sa2 = values(a), sb = values(b);
  construct_data_region(a, b, 3);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(a(i) == 3 * sa2[i] - sb[i]);
  construct_data_serial(b, 2);
  acc::wait(2);
  long long running = 0;
  for (std::size_t i = 0; i < n; ++i) REQUIRE(b(i) == (running += sb[i]));
  REQUIRE(absent(b));
  construct_data_tiles(a, b);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(b(i) == a(i) * a(i));
  REQUIRE(absent(a));
  REQUIRE(absent(b));

  // Inside a data region the construct's clauses only count references: the region's copy is
  // used and stays.
  {
    acc::data region{acc::copy(c)};
    const auto sc2 = values(c);
    construct_data_present(c);
    construct_data_loop(a, b, c, t);  // copy(c) of present data: no copy in or out here
    REQUIRE(acc::is_present(c));
    if (gpu_run()) REQUIRE(values(c) == sc2);
  }
  REQUIRE(absent(c));
}

TEST_CASE("a compute construct's present clause of absent data is an error at its call site", "[03][errors][construct]") {
  acc::array<long long> a("salinity", 33);
  fill_random(a, 16u);
  const auto sa = values(a);
  REQUIRE_THROWS_AS(construct_data_present(a), acc::not_present_error);
  REQUIRE_THROWS_WITH(construct_data_present(a), Catch::Contains("acc::parallel_loop at 03_data_clauses.cpp:") &&
                                                     Catch::Contains("'salinity' is not present"));
  REQUIRE_THROWS_WITH(construct_data_present_if(a, true), Catch::Contains("acc::serial at 03_data_clauses.cpp:") &&
                                                              Catch::Contains("'salinity' is not present"));
  REQUIRE(values(a) == sa);  // nothing ran
  // if_(false): no data action, the construct runs on the host over the host data.
  construct_data_present_if(a, false);
  REQUIRE(a(0) == 42);
  REQUIRE_FALSE(acc::is_present(a));
}

TEST_CASE("errors: present and update of absent data, with label and call site", "[03][errors]") {
  acc::array<long long> a("pressure", 64);
  REQUIRE_THROWS_AS(acc::data(acc::present(a)), acc::not_present_error);
  REQUIRE_THROWS_WITH(acc::data(acc::present(a)),
                      Catch::Contains("acc::data at 03_data_clauses.cpp:") && Catch::Contains("'pressure' is not present"));
  REQUIRE_THROWS_AS(acc::update_device(a), acc::not_present_error);
  REQUIRE_THROWS_WITH(acc::update_self(a), Catch::Contains("acc::update_self at") && Catch::Contains("'pressure'"));
  REQUIRE_THROWS_AS(acc::update_device(a, acc::async(-9)), acc::bad_clause);
  acc::view<long long> unnamed(a.data(), 64);
  REQUIRE_THROWS_WITH(acc::update_device(unnamed), Catch::Contains("512 bytes at 0x"));
  REQUIRE_THROWS_WITH(acc::deviceptr(a.data() + 3), Catch::Contains("acc::deviceptr at 03_data_clauses.cpp:") &&
                                                        Catch::Contains("the address 0x") &&
                                                        Catch::Contains("is not present"));
}

TEST_CASE("exit_data of absent data does nothing, of a range straddling present data it throws", "[03][errors]") {
  // OpenACC 3.3 §2.7.1: a data clause on exit data for data that is not present is no action.
  std::mt19937 rng(1403);
  std::uniform_int_distribution<long long> dist(-1000, 1000);
  acc::array<long long> a("pressure", 97);
  std::vector<long long> start(97);
  for (long long& x : start) x = dist(rng);
  for (int i = 0; i < 97; ++i) a[i] = start[i];
  acc::exit_data(acc::copyout(a));
  acc::exit_data(acc::delete_(a), acc::finalize);
  acc::exit_data(acc::copyout(a.data() + 13, 40), acc::async(2));
  acc::wait(2);
  REQUIRE_FALSE(acc::is_present(a));
  for (int i = 0; i < 97; ++i) REQUIRE(a[i] == start[i]);
  {
    acc::data region{acc::copy(a)};
    auto a_ = a;
    acc::parallel_loop(97, ACC_LAMBDA(int i) { a_(i) = 2 * a_(i) + 1; });
  }
  acc::exit_data(acc::copyout(a));  // the region's data is gone: nothing to copy out
  for (int i = 0; i < 97; ++i) REQUIRE(a[i] == 2 * start[i] + 1);
  // A range that overlaps present data without lying inside it is still a mistake.
  acc::enter_data(acc::copyin(a.data(), 50));
  REQUIRE_THROWS_AS(acc::exit_data(acc::copyout(a.data() + 40, 20)), acc::not_present_error);
  REQUIRE(acc::is_present(a.data(), 50));
  acc::exit_data(acc::delete_(a.data(), 50));
  REQUIRE_FALSE(acc::is_present(a.data(), 50));
}

TEST_CASE("a region that fails on entry leaves nothing behind", "[03][errors][leak]") {
  acc::array<long long> a("a", 1000), b("b", 1000);
  REQUIRE_THROWS_AS(acc::data(acc::copyin(a), acc::present(b)), acc::not_present_error);
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE_THROWS_AS(acc::enter_data(acc::copyin(a), acc::copyin(acc::section(b, 0, 10)),
                                    acc::copyin(b)),
                    acc::not_present_error);  // b is partly present
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE_FALSE(acc::is_present(acc::section(b, 0, 10)));
}

// The host device allocates nothing.
TEST_CASE("an allocation that does not fit reports requested and free bytes", "[03][errors][gpu]") {
  const std::size_t huge = std::size_t(1) << 50;
  auto* fake = reinterpret_cast<char*>(std::uintptr_t(1) << 20);  // create never reads host memory
  REQUIRE_THROWS_AS(acc::enter_data(acc::create(fake, huge)), acc::device_error);
  REQUIRE_THROWS_WITH(acc::enter_data(acc::create(fake, huge)),
                      Catch::Contains("cannot allocate " + std::to_string(huge) + " bytes") &&
                          Catch::Contains("bytes are free"));
  REQUIRE_FALSE(acc::is_present(fake, 1));
}

namespace {
void data_scenario() {
  acc::array<long long> a("a", 1 << 16), b("b", 1 << 16);
  {
    acc::data region{acc::copy(a), acc::create(b)};
    add_present(a, 1);
    acc::enter_data(acc::copyin(a));
    acc::update_self(acc::section(a, 0, 100));
  }
  acc::exit_data(acc::copyout(a));
  add(b, 1);
  acc::enter_data(acc::copyin(b));  // scale_async reads b: initialised, not create
  scale_async(b, 2, 1, 3);
  acc::exit_data(acc::delete_(b), acc::async(3));
  try {
    acc::data failing{acc::copy(a), acc::present(b)};
  } catch (const acc::not_present_error&) {
  }
}
}  // namespace

TEST_CASE("device memory in use returns to its starting value", "[03][leak]") {
  REQUIRE(acc_test::leaked_by(data_scenario) == 0);
}

TEST_CASE("a negative device_num on a data construct or update is bad_clause and enters nothing", "[03][data][errors]") {
  const long n = GENERATE(1L, 1009L);
  acc::array<long long> a("a", n);
  REQUIRE_THROWS_WITH(acc::data(acc::copyin(a), acc::device_num(-2)), Catch::Contains("device_num(-2) is negative"));
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE_THROWS_AS(acc::enter_data(acc::copyin(a), acc::device_num(-4)), acc::bad_clause);
  REQUIRE_FALSE(acc::is_present(a));
  acc::enter_data(acc::copyin(a));
  REQUIRE_THROWS_AS(acc::update_device(a, acc::device_num(-2)), acc::bad_clause);
  REQUIRE_THROWS_AS(acc::exit_data(acc::delete_(a), acc::device_num(-2)), acc::bad_clause);
  REQUIRE(acc::is_present(a));  // the exit with the bad clause gave nothing back
  acc::exit_data(acc::delete_(a));
  REQUIRE_FALSE(acc::is_present(a));
}
