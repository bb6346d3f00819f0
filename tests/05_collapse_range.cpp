// Level 5: acc::collapse over two and three loops, awkward shapes, forced grid striding.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cstdint>

#include "support/arrays.hpp"

namespace {
ACC_ROUTINE long long cell(long long i, long long j, long long k = 0) { return i * 1'000'003 + j * 1009 + k + 1; }
}  // namespace

TEST_CASE("collapse(ni, nj) visits every (i, j) once with the last index fastest", "[05][collapse]") {
  const auto [ni, nj] = GENERATE(table<int, int>(
      {{1, 1}, {1, 257}, {257, 1}, {3, 5}, {31, 33}, {64, 64}, {127, 129}, {1000, 3}, {2, 100003}}));
  const int gangs = GENERATE(0, 1, 3);  // 0: default; few gangs make threads stride and carry
  acc::array<long long> out(static_cast<std::size_t>(ni) * nj);
  const int nj_ = nj;
  auto body = ACC_LAMBDA(int i, int j) { out[static_cast<long long>(i) * nj_ + j] += cell(i, j); };
  if (gangs)
    acc::parallel_loop(acc::collapse(ni, nj), acc::num_gangs(gangs), acc::vector_length(7), body);
  else
    acc::parallel_loop(acc::collapse(ni, nj), body);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) REQUIRE(out[static_cast<std::size_t>(i) * nj + j] == cell(i, j));
}

TEST_CASE("collapse(ni, nj, nk) visits every (i, j, k) once", "[05][collapse]") {
  const auto [ni, nj, nk] = GENERATE(table<long, long, long>(
      {{1, 1, 1}, {2, 3, 5}, {7, 1, 13}, {1, 1, 1031}, {17, 19, 23}, {64, 2, 64}, {5, 211, 3}}));
  const int gangs = GENERATE(0, 2);
  // A host vector through a view, mapped by a data region.
  std::vector<long long> out(static_cast<std::size_t>(ni * nj * nk), 0);
  {
    acc::view<long long, 3> o(out.data(), ni, nj, nk);
    acc::data region{acc::copy(o)};
    auto body = ACC_LAMBDA(long i, long j, long k) { o(i, j, k) += cell(i, j, k); };
    if (gangs)
      acc::parallel_loop(acc::collapse(ni, nj, nk), acc::num_gangs(gangs), acc::vector_length(33), body);
    else
      acc::parallel_loop(acc::collapse(ni, nj, nk), body);
  }
  for (long i = 0; i < ni; ++i)
    for (long j = 0; j < nj; ++j)
      for (long k = 0; k < nk; ++k) REQUIRE(out[(i * nj + j) * nk + k] == cell(i, j, k));
}

TEST_CASE("collapse with a zero or negative extent runs nothing", "[05][collapse]") {
  acc::array<int> hits(1);
  acc::parallel_loop(acc::collapse(0, 5), ACC_LAMBDA(int, int) { hits[0] = 1; });
  acc::parallel_loop(acc::collapse(5, 0), ACC_LAMBDA(int, int) { hits[0] = 1; });
  acc::parallel_loop(acc::collapse(4, -1, 4), ACC_LAMBDA(int, int, int) { hits[0] = 1; });
  REQUIRE(hits[0] == 0);
}

TEST_CASE("collapse index types follow the extents' common type", "[05][collapse]") {
  acc::array<int> ok(1);
  acc::parallel_loop(acc::collapse(2, 3L), ACC_LAMBDA(long i, long j) {
    static_assert(std::is_same_v<decltype(i), long> && std::is_same_v<decltype(j), long>);
    if (i == 1 && j == 2) ok[0] = 1;
  });
  REQUIRE(ok[0] == 1);
  static_assert(std::is_same_v<decltype(acc::collapse(2u, 3u, std::size_t(4))), acc::collapse_t<std::size_t, 3>>);
  static_assert(std::is_trivially_copyable_v<acc::collapse_t<int, 2>>);
  static_assert(std::is_trivially_copyable_v<acc::range_t<long>>);
}

TEST_CASE("collapsed spaces beyond 2^31 iterations reach their last point", "[05][collapse][large]") {
  // 2 x (2^30 + 7) = 2^31 + 14 points: the flat counter needs 64 bits though each index fits
  // in an int. Every 2^20-th j of each row and the last point leave a mark.
  const int ni = 2, nj = (1 << 30) + 7;
  constexpr int step = 1 << 20;
  const int per_row = nj / step + 1;
  acc::array<long long> mark = acc_test::filled(2 * per_row + 1, -1LL);
  acc::parallel_loop(acc::collapse(ni, nj), ACC_LAMBDA(int i, int j) {
    if ((j & (step - 1)) == 0) mark[i * per_row + j / step] = static_cast<long long>(i) * nj + j;
    if (i == ni - 1 && j == nj - 1) mark[2 * per_row] = j;
  });
  for (int i = 0; i < ni; ++i)
    for (int k = 0; k < per_row; ++k) REQUIRE(mark[i * per_row + k] == static_cast<long long>(i) * nj + k * step);
  REQUIRE(mark[2 * per_row] == nj - 1);
}
