// OpenACC V&V data tests (Tests/copy*, data_*, enter_data_*, exit_data*, reference_count_zero,
// host_data) in acc: data clauses on a compute construct become an acc::data region around it.
#include "vv_support.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

namespace {

struct abc {
  acc::array<double> a, b, c;
  std::vector<double> av, bv;
  explicit abc(double c0 = 0.0) : a("a", vv::n), b("b", vv::n), c("c", vv::n) {
    av = vv::random_vector();
    bv = vv::random_vector();
    for (int x = 0; x < vv::n; ++x) {
      a[x] = av[x];
      b[x] = bv[x];
      c[x] = c0;
    }
  }
  /// c = a + b on the device (what most of these tests compute).
  void add() const {
    auto a_ = a, b_ = b, c_ = c;
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c_[x] = a_[x] + b_[x]; });
  }
  void require_sum(double extra = 0.0) const {
    for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(c[x], av[x] + bv[x] + extra));
  }
};

}  // namespace

TEST_CASE("vv copy_copyout", "[vv][data]") {
  SECTION("scalar reduction, copyout(test) copy(test)") {
    double test = 0;
    acc::parallel_loop(vv::n, acc::reduction(acc::plus, test), ACC_LAMBDA(int, double& t) { t += 1; });
    REQUIRE(vv::close(test, vv::n));
  }
  SECTION("array in copyout and copy of one construct: copy wins") {
    acc::array<double> test("test", vv::n);
    for (int x = 0; x < vv::n; ++x) test[x] = 1.0;
    {
      acc::data region{acc::copyout(test), acc::copy(test)};
      acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { test[x] += 1.0; });
    }
    for (int x = 0; x < vv::n; ++x) REQUIRE(test[x] == 2.0);
  }
  SECTION("copy then copyout") {
    acc::array<double> test("test", vv::n);
    for (int x = 0; x < vv::n; ++x) test[x] = 1.0;
    {
      acc::data region{acc::copy(test), acc::copyout(test)};
      acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { test[x] += 1.0; });
    }
    for (int x = 0; x < vv::n; ++x) REQUIRE(test[x] == 2.0);
  }
}

TEST_CASE("vv copyin_copyout", "[vv][data]") {
  acc::array<double> test("test", vv::n);
  for (int x = 0; x < vv::n; ++x) test[x] = 1.0;
  {
    acc::data region{acc::copyin(test), acc::copyout(test)};
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { test[x] += 1.0; });
  }
  for (int x = 0; x < vv::n; ++x) REQUIRE(test[x] == 2.0);
}

TEST_CASE("vv data_async", "[vv][data]") {
  // OpenACC 3.2's async on a data construct: the region's copies are queued. The suite's
  // constructs inside the region carry no async and rely on the region's queue for their order;
  // here they are queued on it, which is what the suite expects of them.
  SECTION("T1: two regions data copy(a, b, c) async(1), then wait(1)") {
    abc d;
    auto a = d.a, b = d.b, c = d.c;
    for (int round = 0; round < 2; ++round) {
      acc::data region{acc::copy(a), acc::copy(b), acc::copy(c), acc::async(1)};
      acc::parallel_loop(vv::n, acc::async(1), ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
    }
    acc::wait(1);
    for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(c[x], 2 * (d.av[x] + d.bv[x])));
  }
  SECTION("T2: data async(0), parallel loop async(1) wait(0), wait(1) async(0), then wait(0)") {
    abc d;
    auto a = d.a, b = d.b, c = d.c;
    {
      acc::data region{acc::copy(a), acc::copy(b), acc::copy(c), acc::async(0)};
      acc::wait_async(0, 1);
      acc::parallel_loop(vv::n, acc::async(1), ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
      acc::wait_async(1, 0);
    }
    acc::wait(0);
    d.require_sum();
  }
}

TEST_CASE("vv data_wait", "[vv][data]") {
  // data ... async(0) as in data_async T2, then data copy(a, b, c) wait(0): a wait clause on a
  // region that is not async waits on the host before its copies (acc::wait(0)).
  abc d;
  auto a = d.a, b = d.b, c = d.c;
  {
    acc::data region{acc::copy(a), acc::copy(b), acc::copy(c), acc::async(0)};
    acc::wait_async(0, 1);
    acc::parallel_loop(vv::n, acc::async(1), ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::wait_async(1, 0);
  }
  acc::wait(0);
  {
    acc::data region{acc::copy(a), acc::copy(b), acc::copy(c)};
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] += c[x]; });
  }
  for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(c[x], 2 * (d.av[x] + d.bv[x])));
}

TEST_CASE("vv data_copy_no_lower_bound", "[vv][data]") {
  abc d(1.0);
  {
    acc::data region{acc::copyin(d.a), acc::copyin(d.b), acc::copy(acc::section(d.c, 0, vv::n))};
    auto a = d.a, b = d.b, c = d.c;
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
  }
  d.require_sum(1.0);
}

TEST_CASE("vv data_copyin_no_lower_bound", "[vv][data]") {
  abc d;
  {
    acc::data region{acc::copyin(acc::section(d.a, 0, vv::n)), acc::copyin(acc::section(d.b, 0, vv::n)),
                     acc::copyout(d.c)};
    d.add();
  }
  d.require_sum();
}

TEST_CASE("vv data_copyout_no_lower_bound", "[vv][data]") {
  abc d;
  {
    acc::data region{acc::copyin(d.a), acc::copyin(d.b), acc::copyout(acc::section(d.c, 0, vv::n))};
    d.add();
  }
  d.require_sum();
}

TEST_CASE("vv data_copyout_reference_counts", "[vv][data]") {
  SECTION("copyout nested in copyin of the same data does not copy out") {
    abc d;
    {
      acc::data outer{acc::copyin(d.c)};
      {
        acc::data inner{acc::copyin(d.a), acc::copyin(d.b), acc::copyout(d.c)};
        auto a = d.a, b = d.b, c = d.c;
        acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
      }
      if (vv::separate_memory())
        for (int x = 0; x < vv::n; ++x) REQUIRE(d.c[x] == 0.0);
    }
    // Without separate memory the loop wrote the host's c, which no data clause touches.
    if (vv::separate_memory())
      for (int x = 0; x < vv::n; ++x) REQUIRE(d.c[x] == 0.0);
    else
      d.require_sum();
  }
  SECTION("enter data copyin, region copyout, exit data copyout") {
    abc d;
    acc::enter_data(acc::copyin(d.c));
    {
      acc::data region{acc::copyin(d.a), acc::copyin(d.b), acc::copyout(d.c)};
      auto a = d.a, b = d.b, c = d.c;
      acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
    }
    if (vv::separate_memory())
      for (int x = 0; x < vv::n; ++x) REQUIRE(d.c[x] == 0.0);
    acc::exit_data(acc::copyout(d.c));
    d.require_sum();
  }
  SECTION("enter data copyin, region copyout, exit data delete") {
    abc d;
    acc::enter_data(acc::copyin(d.c));
    {
      acc::data region{acc::copyin(d.a), acc::copyin(d.b), acc::copyout(d.c)};
      auto a = d.a, b = d.b, c = d.c;
      acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
    }
    acc::exit_data(acc::delete_(d.c));
    if (vv::separate_memory())
      for (int x = 0; x < vv::n; ++x) REQUIRE(d.c[x] == 0.0);
    REQUIRE_FALSE(acc::is_present(d.c));
  }
}

TEST_CASE("vv data_create", "[vv][data]") {
  // create(b); copyin(a): b = a on the device; copyout(c): c = b. present_or_create and
  // pcreate (the suite's T2, T3) are OpenACC spellings of create.
  abc d;
  {
    acc::data created{acc::create(d.b)};
    auto a = d.a, b = d.b, c = d.c;
    {
      acc::data in{acc::copyin(d.a)};
      acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { b[x] = a[x]; });
    }
    {
      acc::data out{acc::copyout(d.c)};
      acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] = b[x]; });
    }
  }
  for (int x = 0; x < vv::n; ++x) REQUIRE(d.c[x] == d.av[x]);
}

TEST_CASE("vv data_copyout_zero", "[vv][data]") {
  // copyout(zero: b) on a data construct, through the pointer form: the device copy starts
  // zeroed, so b += a leaves a. On the host device b is its own copy and keeps its ones.
  std::vector<double> a = vv::random_vector(), b(vv::n, 1.0);
  {
    acc::data region{acc::copyin(a.data(), a.size()), acc::copyout(b.data(), b.size(), acc::zero)};
    acc::view<double> va(a.data(), vv::n), vb(b.data(), vv::n);
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { vb[x] += va[x]; });
  }
  const double kept = vv::separate_memory() ? 0.0 : 1.0;
  for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(b[x], a[x] + kept));
}

TEST_CASE("vv data_create_zero", "[vv][data]") {
  // create(zero: b) on a data construct: zeroed scratch, read back with update_self. The suite
  // adds copyout(b) to the same construct; in acc one range takes one clause per region, so
  // the copy back is an update inside it.
  abc d;
  for (int x = 0; x < vv::n; ++x) d.b[x] = 1;
  {
    acc::data region{acc::copyin(d.a), acc::create(d.b, acc::zero)};
    auto a = d.a, b = d.b;
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { b[x] += a[x]; });
    acc::update_self(d.b);
  }
  const double kept = vv::separate_memory() ? 0.0 : 1.0;
  for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(d.b[x], d.av[x] + kept));
}

TEST_CASE("vv data_create_no_lower_bound", "[vv][data]") {
  abc d;
  acc::array<double> dd = vv::filled("d", vv::random_vector()), e("e", vv::n);
  {
    acc::data region{acc::copyin(d.a), acc::copyin(d.b), acc::copyin(dd), acc::create(acc::section(d.c, 0, vv::n)),
                     acc::copyout(e)};
    auto a = d.a, b = d.b, c = d.c;
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { e[x] = c[x] + dd[x]; });
  }
  for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(e[x], d.av[x] + d.bv[x] + dd[x]));
}

TEST_CASE("vv data_present_no_lower_bound", "[vv][data]") {
  abc d;
  acc::enter_data(acc::copyin(d.c));
  {
    acc::data region{acc::copyin(d.a), acc::copyin(d.b), acc::present(acc::section(d.c, 0, vv::n))};
    d.add();
  }
  acc::exit_data(acc::copyout(d.c));
  d.require_sum();
}

TEST_CASE("vv data_with_changing_subscript", "[vv][data]") {
  // The section's length is read when the region starts; changing the variable later does not
  // change what is copied out.
  abc d;
  int length = vv::n;
  {
    acc::data region{acc::copyin(acc::section(d.a, 0, length)), acc::copyin(acc::section(d.b, 0, length)),
                     acc::copyout(acc::section(d.c, 0, length))};
    d.add();
    length = 1;
  }
  d.require_sum();
}

namespace {
struct point {
  int a, b, c;
};
}  // namespace

TEST_CASE("vv data_with_structs", "[vv][data]") {
  acc::array<point> p("points", vv::n);
  for (int x = 0; x < vv::n; ++x) p[x] = point{static_cast<int>(vv::uniform(100)), static_cast<int>(vv::uniform(100)), 0};
  std::vector<point> before(p.data(), p.data() + vv::n);
  {
    acc::data region{acc::copy(p)};
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { p[x].c = p[x].a + p[x].b; });
  }
  for (int x = 0; x < vv::n; ++x) {
    REQUIRE(p[x].a == before[x].a);
    REQUIRE(p[x].c == before[x].a + before[x].b);
  }
}

TEST_CASE("vv enter_data_copyin_no_lower_bound", "[vv][data]") {
  abc d;
  acc::enter_data(acc::copyin(acc::section(d.a, 0, vv::n)), acc::copyin(acc::section(d.b, 0, vv::n)), acc::create(d.c));
  {
    acc::data region{acc::present(d.a), acc::present(d.b), acc::present(d.c)};
    d.add();
  }
  acc::exit_data(acc::copyout(d.c), acc::delete_(d.a), acc::delete_(d.b));
  d.require_sum();
  REQUIRE_FALSE(acc::is_present(d.a));
}

TEST_CASE("vv enter_data_create", "[vv][data]") {
  abc d;
  acc::enter_data(acc::create(d.b));
  auto a = d.a, b = d.b, c = d.c;
  {
    acc::data in{acc::copyin(d.a)};
    acc::parallel_loop(vv::n, acc::default_present, ACC_LAMBDA(int x) { b[x] = a[x]; });
  }
  {
    acc::data out{acc::copyout(d.c)};
    acc::parallel_loop(vv::n, acc::default_present, ACC_LAMBDA(int x) { c[x] = b[x]; });
  }
  acc::exit_data(acc::delete_(d.b));
  for (int x = 0; x < vv::n; ++x) REQUIRE(d.c[x] == d.av[x]);
  REQUIRE_FALSE(acc::is_present(d.b));
}

TEST_CASE("vv enter_data_create_no_lower_bound", "[vv][data]") {
  abc d;
  acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::create(acc::section(d.c, 0, vv::n)));
  {
    acc::data region{acc::present(d.a), acc::present(d.b), acc::present(d.c)};
    d.add();
  }
  acc::exit_data(acc::delete_(d.a), acc::delete_(d.b), acc::copyout(d.c));
  d.require_sum();
}

TEST_CASE("vv enter_exit_data_if", "[vv][data]") {
  const bool dev = vv::separate_memory(), host = !dev;
  SECTION("enter copyin if(dev); region create; exit delete if(dev)") {
    abc d;
    acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::if_(dev));
    {
      acc::data region{acc::create(d.a), acc::create(d.b), acc::copyout(d.c)};
      d.add();
    }
    acc::exit_data(acc::delete_(d.a), acc::delete_(d.b), acc::if_(dev));
    d.require_sum();
  }
  SECTION("enter create if(host): nothing; region copyin") {
    abc d;
    acc::enter_data(acc::create(d.a), acc::create(d.b), acc::if_(host));
    {
      acc::data region{acc::copyin(d.a), acc::copyin(d.b), acc::copyout(d.c)};
      d.add();
    }
    acc::exit_data(acc::delete_(d.a), acc::delete_(d.b), acc::if_(host));
    d.require_sum();
  }
  SECTION("if(false) enters nothing") {
    abc d;
    acc::enter_data(acc::copyin(d.a), acc::if_(false));
    REQUIRE_FALSE(acc::is_present(d.a));
    acc::enter_data(acc::copyin(d.a), acc::if_(true));
    REQUIRE(acc::is_present(d.a));
    acc::exit_data(acc::delete_(d.a), acc::if_(false));
    REQUIRE(acc::is_present(d.a));
    acc::exit_data(acc::delete_(d.a), acc::if_(true));
    REQUIRE_FALSE(acc::is_present(d.a));
  }
}

TEST_CASE("vv exit_data", "[vv][data]") {
  SECTION("exit data delete: the host keeps its values") {
    abc d;
    acc::enter_data(acc::copyin(d.a));
    auto a = d.a;
    acc::parallel_loop(vv::n, acc::default_present, ACC_LAMBDA(int x) { a[x] = 0.0; });
    acc::exit_data(acc::delete_(d.a));
    if (vv::separate_memory())
      for (int x = 0; x < vv::n; ++x) REQUIRE(d.a[x] == d.av[x]);
    REQUIRE_FALSE(acc::is_present(d.a));
  }
  SECTION("exit data copyout") {
    abc d;
    acc::enter_data(acc::copyin(d.a));
    auto a = d.a;
    acc::parallel_loop(vv::n, acc::default_present, ACC_LAMBDA(int x) { a[x] = 2 * a[x]; });
    acc::exit_data(acc::copyout(d.a));
    for (int x = 0; x < vv::n; ++x) REQUIRE(d.a[x] == 2 * d.av[x]);
  }
}

TEST_CASE("vv exit_data_copyout_no_lower_bound", "[vv][data]") {
  abc d;
  acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::create(d.c));
  d.add();
  acc::exit_data(acc::delete_(d.a), acc::delete_(d.b), acc::copyout(acc::section(d.c, 0, vv::n)));
  d.require_sum();
}

TEST_CASE("vv exit_data_delete_no_lower_bound", "[vv][data]") {
  abc d;
  acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::create(d.c));
  d.add();
  acc::exit_data(acc::delete_(acc::section(d.a, 0, vv::n)), acc::delete_(acc::section(d.b, 0, vv::n)),
                 acc::copyout(d.c));
  d.require_sum();
  REQUIRE_FALSE(acc::is_present(d.a));
  REQUIRE_FALSE(acc::is_present(d.b));
}

TEST_CASE("vv exit_data_copyout_reference_counts", "[vv][data]") {
  SECTION("region copyin inside enter data: exit copyout gets the result") {
    abc d;
    acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::copyin(d.c));
    {
      acc::data region{acc::copyin(d.c)};
      auto a = d.a, b = d.b, c = d.c;
      acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
    }
    if (vv::separate_memory())
      for (int x = 0; x < vv::n; ++x) REQUIRE(d.c[x] == 0.0);
    acc::exit_data(acc::copyout(d.c), acc::delete_(d.a), acc::delete_(d.b));
    d.require_sum();
  }
  SECTION("enter twice, delete once, then copyout") {
    abc d;
    acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::copyin(d.c));
    acc::enter_data(acc::create(d.c));
    auto a = d.a, b = d.b, c = d.c;
    acc::parallel_loop(vv::n, acc::default_present, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
    acc::exit_data(acc::delete_(d.c));
    REQUIRE(acc::is_present(d.c));
    acc::exit_data(acc::delete_(d.a), acc::delete_(d.b), acc::copyout(d.c));
    d.require_sum();
    REQUIRE_FALSE(acc::is_present(d.c));
  }
}

TEST_CASE("vv exit_data_finalize", "[vv][data]") {
  SECTION("copyout without finalize drops one reference") {
    abc d;
    acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::copyin(d.c));
    acc::enter_data(acc::create(d.a), acc::create(d.b), acc::create(d.c));
    d.add();
    acc::exit_data(acc::copyout(d.a), acc::copyout(d.b), acc::copyout(d.c));
    REQUIRE(acc::is_present(d.c));
    if (vv::separate_memory())
      for (int x = 0; x < vv::n; ++x) REQUIRE(d.c[x] == 0.0);
    acc::exit_data(acc::copyout(d.c), acc::delete_(d.a), acc::delete_(d.b));
    d.require_sum();
  }
  SECTION("finalize drops every reference") {
    abc d;
    acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::copyin(d.c));
    acc::enter_data(acc::copyin(d.a), acc::copyin(d.b), acc::copyin(d.c));
    d.add();
    acc::exit_data(acc::delete_(d.a), acc::delete_(d.b), acc::copyout(d.c), acc::finalize);
    d.require_sum();
    REQUIRE_FALSE(acc::is_present(d.a));
    REQUIRE_FALSE(acc::is_present(d.c));
  }
}

TEST_CASE("vv reference_count_zero", "[vv][data]") {
  // exit data copyout of data no longer present does nothing (OpenACC 3.3 §2.7.1).
  abc d;
  {
    acc::data region{acc::copy(d.a), acc::copy(d.b), acc::copy(d.c)};
    d.add();
  }
  acc::exit_data(acc::copyout(d.c));
  d.require_sum();
}

TEST_CASE("vv host_data", "[vv][data]") {
  // host_data use_device(a): device addresses of elements above 5, kept in an array that a
  // compute construct dereferences.
  acc::array<double> a = vv::filled("a", vv::random_vector());
  std::vector<double> av(a.data(), a.data() + vv::n);
  acc::array<std::uintptr_t> points("a_points", vv::n);
  acc::enter_data(acc::copyin(a));
  double* dev = acc::deviceptr(a);
  int high = 0;
  for (int x = 0; x < vv::n; ++x)
    if (av[x] > 5) points[high++] = reinterpret_cast<std::uintptr_t>(dev + x);
  for (int x = high; x < vv::n; ++x) points[x] = 0;
  acc::enter_data(acc::copyin(points));
  acc::parallel_loop(vv::n, acc::default_present, ACC_LAMBDA(int x) {
    if (points[x] != 0) *reinterpret_cast<double*>(points[x]) -= 5;
  });
  acc::exit_data(acc::delete_(points), acc::copyout(a));
  for (int x = 0; x < vv::n; ++x) REQUIRE(a[x] == (av[x] > 5 ? av[x] - 5 : av[x]));
}
