// Level 13: misuse named where it is made. Negative extents and clause counts whose bytes
// wrap are acc::bad_clause naming the array, the extent and the caller's line, and leave
// nothing behind; bodies may take indices wider than the extent's (a narrower one is a
// compile error: tests/compile_fail/*_index_*.cpp).
#include <acc/parallel.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/buffer.hpp"

using acc_test::buffer;

namespace {

/// The message of the acc::bad_clause f throws ("" and a failed check when it throws none).
template <class F>
std::string bad_clause_of(F&& f) {
  try {
    f();
  } catch (const acc::bad_clause& e) {
    return e.what();
  }
  FAIL_CHECK("no acc::bad_clause");
  return "";
}

std::string at_line(const char* construct, int line) {
  return std::string("acc::") + construct + " at 13_misuse.cpp:" + std::to_string(line) + ":";
}

}  // namespace

TEST_CASE("a negative array extent is bad_clause naming the array, the extent and the line", "[13][extent][errors]") {
  int line = __LINE__ + 1;
  std::string what = bad_clause_of([] { acc::array<char> a(-1); });
  CHECK_THAT(what, Catch::Contains(at_line("array", line)) && Catch::Contains("extent -1 of dimension 0") &&
                       Catch::Contains("negative"));
  line = __LINE__ + 1;
  what = bad_clause_of([] { acc::array<char> a("scratch", -2); });
  CHECK_THAT(what, Catch::Contains(at_line("array", line)) && Catch::Contains("extent -2") &&
                       Catch::Contains("'scratch'"));
  line = __LINE__ + 1;
  what = bad_clause_of([] { acc::array<char, 2> a(-1, 1); });
  CHECK_THAT(what, Catch::Contains(at_line("array", line)) && Catch::Contains("extent -1 of dimension 0"));
  line = __LINE__ + 1;
  what = bad_clause_of([] { acc::array<double, 3> a("grid", 4, 5L, -7LL); });
  CHECK_THAT(what, Catch::Contains(at_line("array", line)) && Catch::Contains("extent -7 of dimension 2") &&
                       Catch::Contains("'grid'"));
  line = __LINE__ + 1;
  what = bad_clause_of([] { acc::array<double> a(-1); });
  CHECK_THAT(what, Catch::Contains(at_line("array", line)) && Catch::Contains("extent -1"));
  // bytes past SIZE_MAX, however the extents are split
  line = __LINE__ + 1;
  what = bad_clause_of([] { acc::array<double, 2> a("big", SIZE_MAX / 4, 2); });
  CHECK_THAT(what, Catch::Contains(at_line("array", line)) && Catch::Contains("'big'") &&
                       Catch::Contains("more than SIZE_MAX bytes"));
}

TEST_CASE("a negative view extent is bad_clause naming the view, the extent and the line", "[13][extent][errors]") {
  std::vector<double> host(12, 1.0);
  double* p = host.data();
  int line = __LINE__ + 1;
  std::string what = bad_clause_of([&] { acc::view v(p, -1); });
  CHECK_THAT(what, Catch::Contains(at_line("view", line)) && Catch::Contains("extent -1 of dimension 0"));
  line = __LINE__ + 1;
  what = bad_clause_of([&] { acc::view<double, 2> m("m", p, 3, -4); });
  CHECK_THAT(what, Catch::Contains(at_line("view", line)) && Catch::Contains("extent -4 of dimension 1") &&
                       Catch::Contains("'m'"));
}

TEST_CASE("a pointer clause whose count is negative or wraps is bad_clause and enters nothing", "[13][extent][errors]") {
  std::vector<double> host(16, 2.0);
  double* p = host.data();
  int line = __LINE__ + 1;
  std::string what = bad_clause_of([&] { acc::enter_data(acc::copyin(p, SIZE_MAX / 4)); });
  CHECK_THAT(what, Catch::Contains(at_line("copyin", line)) && Catch::Contains(std::to_string(SIZE_MAX / 4)) &&
                       Catch::Contains("8-byte elements"));
  line = __LINE__ + 1;
  what = bad_clause_of([&] { acc::data region{acc::create(p, 4), acc::copy(p + 8, -1)}; });
  CHECK_THAT(what, Catch::Contains(at_line("copy", line)) && Catch::Contains("count -1 is negative"));
  CHECK_FALSE(acc::is_present(p, 1));
  CHECK_FALSE(acc::is_present(p + 8, 1));
  CHECK_THROWS_AS(acc::is_present(p, -3), acc::bad_clause);
  // the same clauses with real counts work, and the region gives its data back
  {
    acc::data region{acc::copyin(p, 8), acc::copy(p + 8, 8L)};
    CHECK(acc::is_present(p, 8));
    CHECK(acc::is_present(p + 8, 8));
  }
  CHECK_FALSE(acc::is_present(p, 1));
}

TEST_CASE("extents of any integer type make the arrays and views they describe", "[13][extent]") {
  std::mt19937 gen(1313u);
  for (int round = 0; round < 8; ++round) {
    const int ni = int(gen() % 9), nj = int(gen() % 7) + 1;
    const unsigned nk = gen() % 5 + 1;
    acc::array<int, 3> a("a", ni, static_cast<long>(nj), nk);
    REQUIRE(a.size() == std::size_t(ni) * nj * nk);
    REQUIRE(a.extent(2) == nk);
    REQUIRE(std::string(a.label()) == "a");
    for (std::size_t k = 0; k < a.size(); ++k) a.data()[k] = int(gen() % 1000);
    acc::view<const int, 2> v(a.data(), std::size_t(ni) * nj, static_cast<short>(nk));
    long expect = 0, got = 0;
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j)
        for (unsigned k = 0; k < nk; ++k) expect += a(i, j, k), got += v(std::size_t(i) * nj + j, k);
    REQUIRE(got == expect);
  }
  acc::array<float> none(0);
  REQUIRE(none.empty());
}

TEST_CASE("a body may take an index wider than the extent's", "[13][index]") {
  const int n = GENERATE(0, 1, 257, 100003);
  buffer<long long> x(static_cast<std::size_t>(n) + 1), y(static_cast<std::size_t>(n) + 1, 0);
  acc_test::fill_random(x, 1301u + unsigned(n));
  long long *px = x.data(), *py = y.data();
  long long expect_sum = 0;
  for (int i = 0; i < n; ++i) expect_sum += px[i];

  acc::parallel_loop(n, ACC_LAMBDA(long i) { py[i] = 2 * px[i]; });
  acc::parallel_loop(acc::range(0, n), ACC_LAMBDA(long long i) { py[i] += 1; });
  acc::parallel_loop(n, ACC_LAMBDA(std::size_t i) { py[i] += 1; });  // a count is never negative
  for (int i = 0; i < n; ++i) REQUIRE(y[std::size_t(i)] == 2 * x[std::size_t(i)] + 2);
  REQUIRE(y[std::size_t(n)] == 0);

  REQUIRE(acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(long long i) { return px[i]; }) == expect_sum);

  acc::parallel(acc::num_gangs(3), ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang_vector, n, [&](long i) { py[i] = px[i]; });
  });
  for (int i = 0; i < n; ++i) REQUIRE(y[std::size_t(i)] == x[std::size_t(i)]);

  buffer<long long> prefix(static_cast<std::size_t>(n) + 1, 0);
  long long* pp = prefix.data();
  const long long total = acc::parallel_scan(n, ACC_LAMBDA(long i, long long& partial, bool final) {
    if (final) pp[i] = partial;
    partial += px[i];
  });
  REQUIRE(total == expect_sum);
  long long run = 0;
  for (int i = 0; i < n; ++i) {
    REQUIRE(prefix[std::size_t(i)] == run);
    run += x[std::size_t(i)];
  }

  acc::tile_loop(n, acc::tile_size(64), ACC_LAMBDA(long i) { py[i] = -px[i]; });
  for (int i = 0; i < n; ++i) REQUIRE(y[std::size_t(i)] == -x[std::size_t(i)]);
}

TEST_CASE("a collapsed body may take wider indices than the extents'", "[13][index][collapse]") {
  const auto [ni, nj] = GENERATE(table<int, int>({{0, 3}, {1, 1}, {17, 33}, {300, 301}}));
  buffer<int> out(static_cast<std::size_t>(ni) * nj + 1, -1);
  int* o = out.data();
  acc::parallel_loop(acc::collapse(ni, nj), ACC_LAMBDA(long i, unsigned long j) { o[i * nj + long(j)] = int(i ^ long(j)); });
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) REQUIRE(out[std::size_t(i) * nj + j] == (i ^ j));
  REQUIRE(out[std::size_t(ni) * nj] == -1);
}
