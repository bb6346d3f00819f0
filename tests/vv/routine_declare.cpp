// OpenACC V&V `routine` and `declare` tests (Tests/routine_*.cpp, Tests/declare_*.cpp) in acc:
// ACC_ROUTINE functions, taking the gang where they contain loops of a level; ACC_DECLARE
// globals; a `declare` in a function is an acc::data region spanning the function.
#include "vv_support.hpp"

#include <catch2/catch.hpp>

namespace {

constexpr int rows = 256;  // a[rows][rows], as the suite's a[n][n]

struct matrix_case {
  acc::array<double, 2> a{"a", rows, rows};
  acc::array<double> b{"b", rows};
  std::vector<double> want;
  matrix_case() : want(rows, 0.0) {
    for (int x = 0; x < rows; ++x) {
      b[x] = 0.0;
      for (int y = 0; y < rows; ++y) {
        a(x, y) = vv::uniform();
        want[x] += a(x, y);
      }
    }
  }
  void check() const {
    for (int x = 0; x < rows; ++x) REQUIRE(vv::close(b[x], want[x]));
  }
};

// `routine seq`: a sequential loop, callable from any loop.
ACC_ROUTINE double row_sum_seq(const acc::array<double, 2>& a, int x) {
  double s = 0;
  for (int y = 0; y < rows; ++y) s += a(x, y);
  return s;
}

// `routine vector`: a vector loop with a reduction, called once per gang.
ACC_ROUTINE double row_sum_vector(const acc::gang_t& g, const acc::array<double, 2>& a, int x) {
  return acc::loop_reduce(g, acc::vector, rows, acc::plus, [&](int y) { return a(x, y); });
}

// `routine worker`: a worker loop with a reduction.
ACC_ROUTINE double row_sum_worker(const acc::gang_t& g, const acc::array<double, 2>& a, int x) {
  return acc::loop_reduce(g, acc::worker, rows, acc::plus, [&](int y) { return a(x, y); });
}

// `routine gang`: the gang loop is inside, called gang-redundantly from the region.
ACC_ROUTINE void row_sums_gang(const acc::gang_t& g, const acc::array<double, 2>& a, const acc::array<double>& b) {
  acc::loop(g, acc::gang, rows, [&](int x) {
    const double s = acc::loop_reduce(g, acc::worker_vector, rows, acc::plus, [&](int y) { return a(x, y); });
    acc::single(g, acc::per_gang, [&] { b[x] += s; });
  });
}

}  // namespace

TEST_CASE("vv routine_seq", "[vv][routine]") {
  matrix_case m;
  auto a = m.a;
  auto b = m.b;
  {
    acc::data region{acc::copyin(m.a), acc::copy(m.b)};
    acc::parallel_loop(rows, ACC_LAMBDA(int x) { b[x] += row_sum_seq(a, x); });
  }
  m.check();
}

TEST_CASE("vv routine_vector", "[vv][routine]") {
  matrix_case m;
  auto a = m.a;
  auto b = m.b;
  {
    acc::data region{acc::copyin(m.a), acc::copy(m.b)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, acc::gang, rows, [&](int x) {
        const double s = row_sum_vector(g, a, x);
        acc::single(g, acc::per_gang, [&] { b[x] += s; });
      });
    });
  }
  m.check();
}

TEST_CASE("vv routine_worker", "[vv][routine]") {
  matrix_case m;
  auto a = m.a;
  auto b = m.b;
  {
    acc::data region{acc::copyin(m.a), acc::copy(m.b)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, acc::gang, rows, [&](int x) {
        const double s = row_sum_worker(g, a, x);
        acc::single(g, acc::per_gang, [&] { b[x] += s; });
      });
    });
  }
  m.check();
}

TEST_CASE("vv routine_gang", "[vv][routine]") {
  matrix_case m;
  auto a = m.a;
  auto b = m.b;
  {
    acc::data region{acc::copyin(m.a), acc::copy(m.b)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) { row_sums_gang(g, a, b); });
  }
  m.check();
}

TEST_CASE("vv routine_nohost", "[vv][routine]") {
  // `routine worker nohost`: acc compiles every routine for the host too; the worker routine
  // gives the same sums.
  matrix_case m;
  auto a = m.a;
  auto b = m.b;
  {
    acc::data region{acc::copyin(m.a), acc::copyout(m.b)};
    acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
      acc::loop(g, acc::gang, rows, [&](int x) {
        const double s = row_sum_worker(g, a, x);
        acc::single(g, acc::per_gang, [&] { b[x] = s; });
      });
    });
  }
  m.check();
}

// ---- declare ----

ACC_DECLARE_ARRAY(double, vv_fixed_size_array, 10);
ACC_DECLARE(double, vv_scalar);
ACC_DECLARE_ARRAY(double, vv_created, 1024);
ACC_DECLARE_ARRAY(double, vv_resident, 10);

TEST_CASE("vv declare_copyin", "[vv][declare]") {
  // declare copyin of a global: its value reaches the device once (acc::update_device).
  auto a = vv::filled("a", vv::random_vector());
  acc::array<double> b("b", vv::n);
  for (int x = 0; x < 10; ++x) vv_fixed_size_array[x] = x * x;
  vv_scalar = 10;
  acc::update_device(vv_fixed_size_array);
  acc::update_device(vv_scalar);
  REQUIRE(acc::is_present(vv_fixed_size_array));
  {
    acc::data region{acc::copyin(a), acc::copyout(b)};
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { b[x] = a[x] + vv_fixed_size_array[x % 10] + vv_scalar; });
  }
  for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(b[x], a[x] + (x % 10) * (x % 10) + 10));
}

TEST_CASE("vv declare_create", "[vv][declare]") {
  // declare create(a[0:n]): the device copy is written by constructs, read back by update host.
  auto c = vv::filled("c", vv::random_vector());
  std::vector<double> cv(c.data(), c.data() + vv::n);
  for (int x = 0; x < vv::n; ++x) vv_created[x] = 1.0;
  acc::update_device(vv_created);
  {
    acc::data region{acc::copy(c)};
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) {
      c[x] += vv_created[x];
      vv_created[x] = 2.0 * x;
    });
  }
  if (vv::separate_memory()) REQUIRE(vv_created[3] == 1.0);
  acc::update_self(vv_created);
  for (int x = 0; x < vv::n; ++x) {
    REQUIRE(c[x] == cv[x] + 1.0);
    REQUIRE(vv_created[x] == 2.0 * x);
  }
}

TEST_CASE("vv declare_device_resident", "[vv][declare]") {
  // device_resident: written and read only by compute constructs.
  auto a = vv::filled("a", vv::random_vector());
  acc::array<double> b("b", vv::n);
  acc::parallel_loop(10, ACC_LAMBDA(int x) { vv_resident[x] = 1.0 + x; });
  {
    acc::data region{acc::copyin(a), acc::copyout(b)};
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { b[x] = a[x] + vv_resident[x % 10]; });
  }
  for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(b[x], a[x] + 1.0 + x % 10));
}

namespace {

// A function whose `declare <clause>(c[0:len])` is a data region for the whole call; a and b
// are present from the caller's region.
enum class scope_clause { copy, copyin, copyout, create, present };

template <scope_clause K>
void scoped_row(const acc::array<double>& a, const acc::array<double>& b, const acc::array<double>& c,
                const acc::array<double>& d, int x, int len) {
  auto cs = acc::section(c, x * len, len);
  auto region = [&] {
    if constexpr (K == scope_clause::copy) return acc::data{acc::copy(cs)};
    else if constexpr (K == scope_clause::copyin) return acc::data{acc::copyin(cs)};
    else if constexpr (K == scope_clause::copyout) return acc::data{acc::copyout(cs)};
    else if constexpr (K == scope_clause::create) return acc::data{acc::create(cs)};
    else return acc::data{acc::present(cs)};
  };
  auto r = region();
  const int base = x * len;
  acc::view<double> crow(c.data() + base, len);  // the construct uses only the declared row
  acc::parallel_loop(len, acc::default_present, ACC_LAMBDA(int y) {
    crow[y] = a[base + y] + b[base + y];
    d[base + y] = crow[y] * 2;
  });
}

template <scope_clause K>
void run_function_scope() {
  const int len = rows;
  auto a = vv::filled("a", vv::random_vector(rows * len));
  auto b = vv::filled("b", vv::random_vector(rows * len));
  acc::array<double> c("c", rows * len), d("d", rows * len);
  for (int i = 0; i < rows * len; ++i) c[i] = d[i] = 0.0;
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(d)};
    for (int x = 0; x < rows; ++x) {
      if constexpr (K == scope_clause::present) {
        acc::data row{acc::copy(acc::section(c, x * len, len))};
        scoped_row<K>(a, b, c, d, x, len);
      } else {
        scoped_row<K>(a, b, c, d, x, len);
      }
      // The function's region ended: c's row is no longer present.
      REQUIRE_FALSE(acc::is_present(acc::section(c, x * len, len)));
    }
  }
  for (int i = 0; i < rows * len; ++i) {
    REQUIRE(vv::close(d[i], 2 * (a[i] + b[i])));
    if (K == scope_clause::copy || K == scope_clause::copyout || K == scope_clause::present)
      REQUIRE(vv::close(c[i], a[i] + b[i]));
    else if (vv::separate_memory())
      REQUIRE(c[i] == 0.0);
  }
}

}  // namespace

TEST_CASE("vv declare_function_scope_copy", "[vv][declare]") { run_function_scope<scope_clause::copy>(); }
TEST_CASE("vv declare_function_scope_copyin", "[vv][declare]") { run_function_scope<scope_clause::copyin>(); }
TEST_CASE("vv declare_function_scope_copyout", "[vv][declare]") { run_function_scope<scope_clause::copyout>(); }
TEST_CASE("vv declare_function_scope_create", "[vv][declare]") { run_function_scope<scope_clause::create>(); }
TEST_CASE("vv declare_function_scope_present", "[vv][declare]") { run_function_scope<scope_clause::present>(); }

TEST_CASE("vv declare_function_scope_deviceptr", "[vv][declare]") {
  // The caller copies c in (acc_copyin) and passes the device address; the function declares
  // it deviceptr and uses it in a construct.
  auto a = vv::filled("a", vv::random_vector());
  auto b = vv::filled("b", vv::random_vector());
  acc::array<double> c("c", vv::n);
  for (int x = 0; x < vv::n; ++x) c[x] = 1.0;
  acc::enter_data(acc::copyin(c));
  double* dev_c = acc::deviceptr(c);
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::deviceptr(dev_c, vv::n)};
    acc::view<double> cv(dev_c, vv::n);
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { cv[x] += a[x] + b[x]; });
  }
  acc::exit_data(acc::copyout(c));
  for (int x = 0; x < vv::n; ++x) REQUIRE(vv::close(c[x], 1.0 + a[x] + b[x]));
}
