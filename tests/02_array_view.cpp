// Level 2: acc::array and acc::view: shapes, layout, sharing, sections, and what constructs capture.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cstddef>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "support/buffer.hpp"
#include "support/device_memory.hpp"

namespace {

template <class T>
void fill_random(T* p, std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<long long> d(-1000, 1000);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(d(gen));
}

// Compute constructs live in plain functions: nvcc rejects extended lambdas inside lambdas.
template <class Y, class X>
void axpy(Y y, X x, long long a, long n) {
  acc::parallel_loop(n, ACC_LAMBDA(long i) { y(i) = a * x(i) + y[i]; });
}

template <class Out, class In>
void affine_2d(Out out, In in, int ni, int nj) {
  acc::parallel_loop(acc::collapse(ni, nj), ACC_LAMBDA(int i, int j) { out(i, j) = 2 * in(i, j) + i - 3 * j; });
}

template <class V>
void index_3d(V v, int ni, int nj, int nk) {
  acc::parallel_loop(acc::collapse(ni, nj, nk), ACC_LAMBDA(int i, int j, int k) { v(i, j, k) += i * 10000 + j * 100 + k; });
}

struct fields {
  acc::array<long long> a;
  acc::view<const long long> b;
};

void sum_fields(fields f, long n) {
  acc::parallel_loop(n, ACC_LAMBDA(long i) { f.a(i) += f.b(i); });
}

// Writes through a view that aliases part of `a` while reading `a`: one device copy, or the
// copies back would overwrite each other.
void shift_through_view(acc::array<int> a, acc::view<int> tail, int n) {
  acc::parallel_loop(n, ACC_LAMBDA(int i) { tail(i) = a(i) + 1; });
}

// Loops (sync, async, with a reduction) and a gang region over present arrays, each copying its
// body as it maps the captures.
void touch_present(acc::array<double> a, acc::array<double, 2> m, fields f, long n, int q) {
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(long i) { a(i) += 1; });
  acc::parallel_loop(n, acc::async(q), acc::default_present, ACC_LAMBDA(long i) { a(i) += m(i % 3, i % 5); });
  acc::wait(q);
  double total = 0;
  acc::parallel_loop(n, acc::default_present, acc::reduction(acc::plus, total),
                     ACC_LAMBDA(long i, double& t) { t += a(i); });
  acc::parallel(acc::num_gangs(3), acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, n, [&](long i) { f.a(i) += static_cast<long long>(total) % 7; });
  });
  sum_fields(f, n);
}

}  // namespace

TEST_CASE("arrays have their extents, zeroed elements and a label", "[02][array]") {
  acc::array<int> a(7);
  REQUIRE(a.size() == 7);
  REQUIRE(a.extent(0) == 7);
  REQUIRE(std::string(a.label()).empty());
  for (std::size_t i = 0; i < a.size(); ++i) REQUIRE(a(i) == 0);

  acc::array<double, 2> m("m", 3, 5);
  REQUIRE(m.size() == 15);
  REQUIRE(m.extent(0) == 3);
  REQUIRE(m.extent(1) == 5);
  REQUIRE(std::string(m.label()) == "m");

  acc::array<float, 3> c(2, 3, 4);
  REQUIRE(c.size() == 24);
  REQUIRE(c.extent(2) == 4);
  static_assert(acc::array<float, 3>::rank() == 3);

  acc::array<double> empty, zero(0);
  REQUIRE(empty.empty());
  REQUIRE(zero.size() == 0);
  REQUIRE(zero.begin() == zero.end());
}

TEST_CASE("indices are row-major, the last one fastest", "[02][array]") {
  acc::array<int, 2> m(4, 6);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) REQUIRE(&m(i, j) == m.data() + i * 6 + j);
  acc::array<int, 3> c(2, 3, 5);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 5; ++k) REQUIRE(&c(i, j, k) == c.data() + (i * 3 + j) * 5 + k);
  acc::array<int> v(9);
  REQUIRE(&v[4] == &v(4));
}

TEST_CASE("copies of an array share its elements, and the last one frees them", "[02][array]") {
  acc::array<int> b;
  {
    acc::array<int> a("shared", 5);
    b = a;
    b(1) = 42;
    REQUIRE(a(1) == 42);
    acc::array<int> moved(std::move(a));
    REQUIRE(moved(1) == 42);
    REQUIRE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from arrays are empty
  }
  REQUIRE(b(1) == 42);  // still owned by b
  REQUIRE(std::string(b.label()) == "shared");
  acc::array<int> c(3);
  swap(b, c);
  REQUIRE(c(1) == 42);
  REQUIRE(b.size() == 3);
}

TEST_CASE("views index the memory they are given", "[02][view]") {
  std::vector<double> mem(12, 0.0);
  acc::view<double> v("v", mem.data(), 12);
  v(3) = 1.5;
  REQUIRE(mem[3] == 1.5);
  acc::view<double, 2> m(mem.data(), 3, 4);
  m(2, 1) = 7;
  REQUIRE(mem[9] == 7);
  acc::view<const double, 2> cm = m;
  REQUIRE(cm(2, 1) == 7);
  acc::array<double> a(4);
  acc::view<const double> ca = a;
  REQUIRE(ca.data() == a.data());
  REQUIRE(ca.size() == 4);
}

TEST_CASE("a construct writes captured arrays as the sequential loop would", "[02][array][loop]") {
  const long n = GENERATE(0L, 1L, 2L, 31L, 257L, 1009L, 65537L);
  acc::array<long long> x("x", n), y("y", n);
  fill_random(x.data(), x.size(), 1u + static_cast<unsigned>(n));
  fill_random(y.data(), y.size(), 2u);
  std::vector<long long> expect(y.begin(), y.end());
  for (long i = 0; i < n; ++i) expect[i] += 3 * x(i);

  axpy(y, acc::view<const long long>(x), 3, n);
  REQUIRE(std::vector<long long>(y.begin(), y.end()) == expect);
  if (n > 0) REQUIRE_FALSE(acc::is_present(y));  // implicit data lasts for the construct only
}

TEST_CASE("rank-2 and rank-3 arrays and views in collapsed loops", "[02][array][loop]") {
  const auto [ni, nj] = GENERATE(table<int, int>({{1, 1}, {3, 257}, {33, 31}, {100, 1000}}));
  acc::array<long long, 2> in("in", ni, nj), out("out", ni, nj);
  fill_random(in.data(), in.size(), 7u);
  affine_2d(out, acc::view<const long long, 2>(in), ni, nj);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) REQUIRE(out(i, j) == 2 * in(i, j) + i - 3 * j);

  std::vector<long long> mem(std::size_t(ni) * 3 * 7, 1);
  acc::view<long long, 3> v("v", mem.data(), ni, 3, 7);
  index_3d(v, ni, 3, 7);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 7; ++k) REQUIRE(mem[(std::size_t(i) * 3 + j) * 7 + k] == 1 + i * 10000 + j * 100 + k);
}

TEST_CASE("arrays inside captured structs are found as well", "[02][array][loop]") {
  const long n = 1000;
  fields f{acc::array<long long>("a", n), acc::view<const long long>()};
  std::vector<long long> b(n);
  fill_random(b.data(), b.size(), 3u);
  f.b = acc::view<const long long>("b", b.data(), n);
  sum_fields(f, n);
  for (long i = 0; i < n; ++i) REQUIRE(f.a(i) == b[i]);
}

TEST_CASE("a view into a captured array shares its device copy", "[02][view][loop]") {
  acc::array<int> a("a", 20);
  for (int i = 0; i < 20; ++i) a(i) = i;
  shift_through_view(a, acc::view<int>("tail", a.data() + 10, 10), 10);
  for (int i = 0; i < 10; ++i) REQUIRE(a(i) == i);
  for (int i = 0; i < 10; ++i) REQUIRE(a(10 + i) == i + 1);
}

TEST_CASE("sections must lie inside their array, and name it when they do not", "[02][section]") {
  acc::array<double> a("sec", 10);
  auto s = acc::section(a, 2, 5);
  REQUIRE(s.data() == a.data() + 2);
  REQUIRE(s.size() == 5);
  REQUIRE(acc::section(a, 10, 0).size() == 0);
  REQUIRE_THROWS_AS(acc::section(a, 8, 3), acc::bad_clause);
  REQUIRE_THROWS_WITH(acc::section(a, 8, 3), Catch::Contains("acc::section at 02_array_view.cpp:") &&
                                                 Catch::Contains("[8:3] is outside 'sec'") &&
                                                 Catch::Contains("extent is 10"));
  REQUIRE_THROWS_AS(acc::section(a, 11, 0), acc::bad_clause);

  acc::array<int, 2> m(4, 6);
  auto rows = acc::section(m, 1, 2);  // rows 1 and 2: 12 contiguous elements
  REQUIRE(rows.data() == &m(1, 0));
  REQUIRE(rows.size() == 12);
  REQUIRE_THROWS_WITH(acc::section(m, 3, 2), Catch::Contains("4 rows"));
}

TEST_CASE("constructs over arrays leave no device memory behind", "[02][array][leak]") {
  auto scenario = [] {
    acc::array<long long> x("x", 4099), y("y", 4099);
    axpy(y, acc::view<const long long>(x), 2, 4099);
  };
  REQUIRE(acc_test::leaked_by(scenario) == 0);
}

TEST_CASE("a construct's copies of its captured arrays neither keep nor free their elements", "[02][array][loop]") {
  // The construct's own copy of a body borrows the arrays it captures (detail::copy_array_owner):
  // counted, the elements would outlive the program's handles (present, never freed); released
  // without being counted, they would be freed under them (no longer present).
  const long n = 997;
  const double* a_host = nullptr;
  const long long* fa_host = nullptr;
  {
    acc::array<double> a("a", n);
    acc::array<double, 2> m("m", 3, 5);
    fields f{acc::array<long long>("fa", n), acc::view<const long long>()};
    std::vector<long long> b(n);
    fill_random(a.data(), a.size(), 11u);
    fill_random(m.data(), m.size(), 12u);
    fill_random(f.a.data(), f.a.size(), 13u);
    fill_random(b.data(), b.size(), 14u);
    f.b = acc::view<const long long>("b", b.data(), n);
    std::vector<double> ra(a.data(), a.data() + n);
    std::vector<long long> rfa(f.a.data(), f.a.data() + n);
    acc::enter_data(acc::copyin(a), acc::copyin(m), acc::copyin(f.a), acc::copyin(f.b));
    a_host = a.data();
    fa_host = f.a.data();
    for (int round = 0; round < 3; ++round) {
      touch_present(a, m, f, n, 1);
      double total = 0;
      for (long i = 0; i < n; ++i) {
        ra[i] += 1 + m(i % 3, i % 5);
        total += ra[i];
      }
      for (long i = 0; i < n; ++i) rfa[i] += static_cast<long long>(total) % 7 + b[i];
      REQUIRE(acc::is_present(a));
      REQUIRE(acc::is_present(m));
      REQUIRE(acc::is_present(f.a));
    }
    acc::update_self(a);
    acc::update_self(f.a);
    for (long i = 0; i < n; ++i) REQUIRE(a(i) == ra[i]);
    for (long i = 0; i < n; ++i) REQUIRE(f.a(i) == rfa[i]);
    acc::exit_data(acc::delete_(f.b));
  }  // the last handles of a, m and f.a: their elements and present entries go
  REQUIRE_FALSE(acc::is_present(a_host, n));
  REQUIRE_FALSE(acc::is_present(fa_host, n));
}

TEST_CASE("an array whose last handle goes while a construct copies its body is freed after the copy", "[02][array]") {
  // A body whose copy constructor copies an array it made itself hands the construct's copy a
  // borrowed handle to storage whose last owner then goes: the capture scope frees it at its end.
  const std::size_t n = 7;
  std::optional<acc::array<double>> made(std::in_place, "made", n);
  const double* p = made->data();
  acc::enter_data(acc::copyin(*made));
  acc::array<double> borrowed;
  {
    acc::detail::capture_scope scope;  // as a construct opens while it copies its body
    borrowed = *made;
    made.reset();
    REQUIRE(acc::is_present(p, n));  // not freed yet: the borrowed handle still points at it
    REQUIRE(borrowed.data() == p);
  }
  REQUIRE_FALSE(acc::is_present(p, n));
}
