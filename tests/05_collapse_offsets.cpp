// Level 5: acc::collapse over acc::range(lo, hi) loops, counts and ranges mixed: every
// construct that takes a collapsed extent gives the body the actual indices.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "support/arrays.hpp"

namespace {

ACC_ROUTINE long long mark(long long i, long long j, long long k = 0) { return i * 1'000'003 + j * 1009 + k * 7 + 1; }

struct bounds {
  long long lo, hi;
  long long count() const { return hi > lo ? hi - lo : 0; }
};

// Random bounds, negative ones included; an empty range now and then.
bounds random_bounds(std::mt19937_64& gen, long long most) {
  std::uniform_int_distribution<long long> lo(-40, 40), len(0, most);
  const long long l = lo(gen);
  return {l, l + (gen() % 9 == 0 ? -static_cast<long long>(gen() % 3) : len(gen))};
}

// Compute constructs live in plain functions: nvcc rejects extended lambdas inside lambdas.
void fill2(acc::view<long long> o, bounds a, bounds b, int gangs) {
  const long long nb = b.count();
  auto body = ACC_LAMBDA(long i, long j) { o[(i - a.lo) * nb + (j - b.lo)] += mark(i, j); };
  const auto e = acc::collapse(acc::range(a.lo, a.hi), acc::range(b.lo, b.hi));
  if (gangs) acc::parallel_loop(e, acc::num_gangs(gangs), acc::vector_length(7), body);
  else acc::parallel_loop(e, body);
}

void fill3(acc::view<long long> o, bounds a, bounds b, bounds c, int gangs) {
  const long long nb = b.count(), nc = c.count();
  auto body = ACC_LAMBDA(long i, long j, long k) {
    o[((i - a.lo) * nb + (j - b.lo)) * nc + (k - c.lo)] += mark(i, j, k);
  };
  const auto e = acc::collapse(acc::range(a.lo, a.hi), acc::range(b.lo, b.hi), acc::range(c.lo, c.hi));
  if (gangs) acc::parallel_loop(e, acc::num_gangs(gangs), acc::vector_length(33), body);
  else acc::parallel_loop(e, body);
}

// The interior of an ni x nj grid, counts and ranges mixed: for (i = 0..ni) for (j = 1..nj-1).
void interior_mixed(acc::view<long long> o, int ni, int nj) {
  acc::parallel_loop(acc::collapse(ni, acc::range(1, nj - 1)), ACC_LAMBDA(int i, int j) {
    o[i * nj + j] = mark(i, j);
  });
}

long long sum_reduce(bounds a, bounds b, bounds c) {
  return acc::parallel_reduce(acc::collapse(acc::range(a.lo, a.hi), acc::range(b.lo, b.hi), acc::range(c.lo, c.hi)),
                              acc::plus, ACC_LAMBDA(long i, long j, long k) { return mark(i, j, k) % 1000003; });
}

long long sum_clause(bounds a, bounds b) {
  long long s = 0;
  acc::parallel_loop(acc::collapse(acc::range(a.lo, a.hi), acc::range(b.lo, b.hi)), acc::reduction(acc::plus, s),
                     ACC_LAMBDA(long i, long j, long long& r) { r += mark(i, j) % 1000003; });
  return s;
}

void fill_gang_loop(acc::view<long long> o, bounds a, bounds b) {
  const long long nb = b.count();
  acc::parallel(acc::num_gangs(3), ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang_vector, acc::collapse(acc::range(a.lo, a.hi), acc::range(b.lo, b.hi)),
              [&](long i, long j) { o[(i - a.lo) * nb + (j - b.lo)] += mark(i, j); });
  });
}

void fill_tiles(acc::array<long long, 2> out, bounds a, bounds b) {
  acc::tile_loop(acc::collapse(acc::range(a.lo, a.hi), acc::range(b.lo, b.hi)), acc::tile_size(4, 8),
                 ACC_LAMBDA(long i, long j) { out(i - a.lo, j - b.lo) += mark(i, j); });
}

// A 64-bit lower bound far beyond 2^32: indices are lo + t in the extent's own type.
void far_offsets(acc::view<long long> o, long long lo0, long long lo1) {
  acc::parallel_loop(acc::collapse(acc::range(lo0, lo0 + 3), acc::range(lo1, lo1 + 5)), ACC_LAMBDA(long long i, long long j) {
    o[(i - lo0) * 5 + (j - lo1)] = (i - lo0) * 100 + (j - lo1) + (i > (1LL << 40) && j < -(1LL << 40) ? 1000 : 0);
  });
}

}  // namespace

TEST_CASE("collapse over two ranges with offsets visits each (i, j) of the ranges once", "[05][collapse][range]") {
  std::mt19937_64 gen(GENERATE(1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u));
  const bounds a = random_bounds(gen, 70), b = random_bounds(gen, 300);
  const int gangs = GENERATE(0, 2);
  acc::array<long long> out(static_cast<std::size_t>(a.count() * b.count()) + 1);
  fill2(out, a, b, gangs);
  INFO("range(" << a.lo << ", " << a.hi << ") x range(" << b.lo << ", " << b.hi << ")");
  for (long long i = a.lo; i < a.hi; ++i)
    for (long long j = b.lo; j < b.hi; ++j) REQUIRE(out[(i - a.lo) * b.count() + (j - b.lo)] == mark(i, j));
  REQUIRE(out[a.count() * b.count()] == 0);
}

TEST_CASE("collapse over three ranges with offsets visits each (i, j, k) once", "[05][collapse][range]") {
  std::mt19937_64 gen(GENERATE(11u, 12u, 13u, 14u, 15u, 16u));
  const bounds a = random_bounds(gen, 9), b = random_bounds(gen, 17), c = random_bounds(gen, 40);
  const int gangs = GENERATE(0, 3);
  const long long n = a.count() * b.count() * c.count();
  acc::array<long long> out(static_cast<std::size_t>(n) + 1);
  fill3(out, a, b, c, gangs);
  INFO("ranges [" << a.lo << ", " << a.hi << ") [" << b.lo << ", " << b.hi << ") [" << c.lo << ", " << c.hi << ")");
  for (long long i = a.lo; i < a.hi; ++i)
    for (long long j = b.lo; j < b.hi; ++j)
      for (long long k = c.lo; k < c.hi; ++k)
        REQUIRE(out[((i - a.lo) * b.count() + (j - b.lo)) * c.count() + (k - c.lo)] == mark(i, j, k));
  REQUIRE(out[n] == 0);
}

TEST_CASE("collapse mixes counts and ranges", "[05][collapse][range]") {
  const auto [ni, nj] = GENERATE(table<int, int>({{1, 3}, {5, 2}, {3, 1}, {17, 130}}));
  // A host vector in a data region: the construct finds its view present.
  std::vector<long long> out(static_cast<std::size_t>(ni) * nj, 0);
  {
    acc::view<long long> o(out.data(), out.size());
    acc::data region{acc::copy(o)};
    interior_mixed(o, ni, nj);
  }
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) REQUIRE(out[i * nj + j] == (j >= 1 && j < nj - 1 ? mark(i, j) : 0));
  static_assert(std::is_same_v<decltype(acc::collapse(3, acc::range(1L, 4L))), acc::collapse_t<long, 2>>);
  static_assert(std::is_same_v<decltype(acc::collapse(acc::range(1, 4), 2u, 5)), acc::collapse_t<unsigned, 3>>);
  static_assert(acc::collapse(acc::range(-2, 3), 4) == acc::collapse_t<int, 2>{{-2, 0}, {3, 4}});
}

TEST_CASE("an empty or reversed range in a collapse runs nothing", "[05][collapse][range]") {
  acc::array<long long> out(4);
  fill2(out, {5, 5}, {0, 4}, 0);
  fill2(out, {0, 4}, {3, -3}, 0);
  fill3(out, {-2, 2}, {1, 0}, {0, 1}, 0);
  for (int i = 0; i < 4; ++i) REQUIRE(out[i] == 0);
}

// A signed loop beside an unsigned count (a.extent(1), a size()): the collapse's index type is
// unsigned, as the common type. Empty signed loops stay empty; one starting below 0 has no
// unsigned indices and is an error instead of a loop that runs differently.
long long signed_beside_unsigned(int lo0, int hi0, std::size_t n1) {
  return acc::parallel_reduce(acc::collapse(acc::range(lo0, hi0), n1), acc::plus,
                              ACC_LAMBDA(std::size_t i, std::size_t j) { return mark(i, j); });
}
long long count_beside_unsigned(int n0, std::size_t n1) {
  long long calls = 0;
  acc::parallel_loop(acc::collapse(n0, n1), acc::reduction(acc::plus, calls),
                     ACC_LAMBDA(std::size_t, std::size_t, long long& c) { c += 1; });
  return calls;
}

TEST_CASE("a signed loop collapsed with an unsigned count", "[05][collapse][range]") {
  const std::size_t n1 = GENERATE(std::size_t(1), std::size_t(7));
  long long expect = 0;
  for (int i = 2; i < 9; ++i)
    for (std::size_t j = 0; j < n1; ++j) expect += mark(i, j);
  REQUIRE(signed_beside_unsigned(2, 9, n1) == expect);
  // Empty as the sequential loops, not 2^64 - 3 iterations.
  REQUIRE(signed_beside_unsigned(5, 2, n1) == 0);
  REQUIRE(signed_beside_unsigned(-3, -7, n1) == 0);
  REQUIRE(count_beside_unsigned(-3, n1) == 0);
  REQUIRE(count_beside_unsigned(0, n1) == 0);
  REQUIRE(count_beside_unsigned(3, n1) == 3 * static_cast<long long>(n1));
  REQUIRE(acc::collapse(-3, std::size_t(4)) == acc::collapse_t<std::size_t, 2>{{0, 0}, {0, 4}});
  REQUIRE_THROWS_WITH(signed_beside_unsigned(-2, 2, n1), Catch::Contains("starts below 0") &&
                                                             Catch::Contains("acc::parallel_reduce"));
  REQUIRE_THROWS_AS(count_beside_unsigned(3, n1) + signed_beside_unsigned(-1, 0, n1), acc::bad_clause);
}

void gang_loop_beside_unsigned(acc::array<long long> out, int lo0, std::size_t n1) {
  acc::parallel(acc::num_gangs(3), ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, acc::collapse(acc::range(lo0, lo0 + 4), n1),
              [&](std::size_t i, std::size_t j) { out[i * n1 + j] = mark(i, j); });
  });
}

// A kernel traps instead: tests/bounds/traps.cpp checks that in a process of its own.
TEST_CASE("a gang loop's collapse from below 0 with an unsigned index type throws on the host",
          "[05][collapse][range][host]") {
  acc::array<long long> out(8 * 3);
  gang_loop_beside_unsigned(out, 1, 3);
  for (std::size_t i = 1; i < 5; ++i)
    for (std::size_t j = 0; j < 3; ++j) REQUIRE(out[i * 3 + j] == mark(i, j));
  REQUIRE_THROWS_WITH(gang_loop_beside_unsigned(out, -1, 3), Catch::Contains("starts below 0"));
}

// A range of a signed and an unsigned bound (acc::range(-2, v.size())) has an unsigned index
// type: its bounds are compared as numbers, and a loop from below 0 is an error, as in a collapse.
long long signed_to_unsigned(int lo, std::size_t hi) {
  return acc::parallel_reduce(acc::range(lo, hi), acc::plus, ACC_LAMBDA(std::size_t i) { return mark(i, 1); });
}
long long collapse_signed_to_unsigned(int lo, std::size_t hi, int n1) {
  return acc::parallel_reduce(acc::collapse(acc::range(lo, hi), n1), acc::plus,
                              ACC_LAMBDA(std::size_t i, std::size_t j) { return mark(i, j); });
}

TEST_CASE("a range of a signed and an unsigned bound: empty when hi <= lo, an error from below 0",
          "[05][collapse][range]") {
  const std::size_t n = GENERATE(std::size_t(0), std::size_t(1), std::size_t(13));
  INFO("n = " << n);
  long long expect = 0, expect2 = 0;
  for (std::size_t i = 2; i < n; ++i) {
    expect += mark(i, 1);
    for (std::size_t j = 0; j < 3; ++j) expect2 += mark(i, j);
  }
  REQUIRE(signed_to_unsigned(2, n) == expect);
  REQUIRE(collapse_signed_to_unsigned(2, n, 3) == expect2);
  REQUIRE(acc::range(7, std::size_t(3)) == acc::range_t<std::size_t>{0, 0});
  REQUIRE(acc::range(char(5), std::size_t(9)) == acc::range_t<std::size_t>{5, 9});  // character bounds compare too
  REQUIRE(acc::range(L'a', 100u) == acc::range_t<unsigned>{97, 100});
  const auto [lo, hi] = acc::range(3, n + 4);  // a range is still two values to structured bindings
  REQUIRE((lo == 3 && hi == n + 4));
  REQUIRE(acc::device_part(acc::range(-2, n), 0, 2).negative_unsigned);  // kept for the construct to report
  REQUIRE(acc::range(std::size_t(0), -1) == acc::range_t<std::size_t>{0, 0});  // not 2^64 - 1 iterations
  REQUIRE_THROWS_WITH(signed_to_unsigned(-2, n + 1), Catch::Contains("starts below 0") &&
                                                         Catch::Contains("acc::parallel_reduce"));
  REQUIRE_THROWS_WITH(collapse_signed_to_unsigned(-1, n + 1, 3), Catch::Contains("starts below 0"));
  std::vector<int> hits(n + 3, 0);
  acc::view<int> h(hits.data(), hits.size());
  REQUIRE_THROWS_AS(acc::parallel_loop(acc::range(-2, n + 1), ACC_LAMBDA(std::size_t i) { h[i] = 1; }),
                    acc::bad_clause);
  for (int x : hits) REQUIRE(x == 0);
}

TEST_CASE("reductions over collapsed ranges see the actual indices", "[05][collapse][range][reduce]") {
  std::mt19937_64 gen(GENERATE(21u, 22u, 23u, 24u));
  const bounds a = random_bounds(gen, 20), b = random_bounds(gen, 30), c = random_bounds(gen, 30);
  long long e3 = 0, e2 = 0;
  for (long long i = a.lo; i < a.hi; ++i)
    for (long long j = b.lo; j < b.hi; ++j) {
      e2 += mark(i, j) % 1000003;
      for (long long k = c.lo; k < c.hi; ++k) e3 += mark(i, j, k) % 1000003;
    }
  REQUIRE(sum_reduce(a, b, c) == e3);
  REQUIRE(sum_clause(a, b) == e2);
}

TEST_CASE("gang loops and tile_loop over collapsed ranges see the actual indices", "[05][collapse][range][gang]") {
  std::mt19937_64 gen(GENERATE(31u, 32u, 33u));
  const bounds a = random_bounds(gen, 20), b = random_bounds(gen, 45);
  acc::array<long long> out(static_cast<std::size_t>(a.count() * b.count()) + 1);
  fill_gang_loop(out, a, b);
  acc::array<long long, 2> t("t", static_cast<std::size_t>(a.count()), static_cast<std::size_t>(b.count()));
  fill_tiles(t, a, b);
  for (long long i = a.lo; i < a.hi; ++i)
    for (long long j = b.lo; j < b.hi; ++j) {
      REQUIRE(out[(i - a.lo) * b.count() + (j - b.lo)] == mark(i, j));
      REQUIRE(t(i - a.lo, j - b.lo) == mark(i, j));
    }
}

TEST_CASE("collapse over 64-bit ranges far from zero", "[05][collapse][range][large]") {
  acc::array<long long> out = acc_test::filled(15, -1LL);
  far_offsets(out, (1LL << 41) + 5, -(1LL << 42));
  for (long long i = 0; i < 3; ++i)
    for (long long j = 0; j < 5; ++j) REQUIRE(out[i * 5 + j] == i * 100 + j + 1000);
}
