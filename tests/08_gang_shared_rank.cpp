// Level 8: g.shared<T>(n0, n1[, n2]): gang-shared memory as a rank-2/3 view indexed from 0,
// filled by one loop and read back transposed by another, on random shapes.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cstddef>
#include <random>
#include <vector>

#include "support/arrays.hpp"

namespace {

// out(b, j, i) = in(b, i, j) for `blocks` blocks of ni x nj: one block per gang-loop iteration,
// staged in a ni x nj view of shared memory, then read column-wise after the loop's barrier.
void transpose_blocks(acc::view<const double> in, acc::view<double> out, int blocks, int ni, int nj) {
  acc::parallel(acc::num_gangs(3), acc::vector_length(32), acc::shared_bytes(sizeof(double) * ni * nj),
                ACC_LAMBDA(const acc::gang_t& g) {
                  const auto s = g.shared<double>(ni, nj);
                  acc::loop(g, acc::gang, blocks, [&](int b) {
                    const long base = static_cast<long>(b) * ni * nj;
                    acc::loop(g, acc::vector, acc::collapse(ni, nj),
                              [&](int i, int j) { s(i, j) = in[base + i * nj + j]; });
                    acc::loop(g, acc::vector, acc::collapse(nj, ni),
                              [&](int j, int i) { out[base + j * ni + i] = s(i, j); });
                  });
                });
}

// out(b, k, j, i) = in(b, i, j, k) through a rank-3 shared view, two views taken from one region.
void reverse_axes(acc::view<const int> in, acc::view<int> out, int blocks, int n0, int n1, int n2) {
  const std::size_t count = static_cast<std::size_t>(n0) * n1 * n2;
  acc::parallel(acc::num_gangs(2), acc::vector_length(64), acc::shared_bytes(2 * sizeof(int) * count + 16),
                ACC_LAMBDA(const acc::gang_t& g) {
                  const auto s = g.shared<int>(n0, n1, n2);
                  const auto flipped = g.shared<int>(n2, n1, n0);
                  acc::loop(g, acc::gang, blocks, [&](int b) {
                    const std::size_t base = b * count;
                    acc::loop(g, acc::vector, acc::collapse(n0, n1, n2),
                              [&](int i, int j, int k) { s(i, j, k) = in[base + (i * n1 + j) * n2 + k]; });
                    acc::loop(g, acc::vector, acc::collapse(n0, n1, n2),
                              [&](int i, int j, int k) { flipped(k, j, i) = s(i, j, k); });
                    acc::loop(g, acc::vector, static_cast<int>(count),
                              [&](int t) { out[base + t] = flipped(t / (n1 * n0), t / n0 % n1, t % n0); });
                  });
                });
}

}  // namespace

TEST_CASE("g.shared<T>(n0, n1) is a gang-shared 2-D view indexed (i, j)", "[08][gang][shared]") {
  const auto [ni, nj] = GENERATE(table<int, int>({{1, 1}, {3, 5}, {16, 17}, {7, 33}}));
  const int blocks = GENERATE(1, 5);
  acc::array<double> in(static_cast<std::size_t>(blocks) * ni * nj), out(in.size());
  acc_test::fill_random(in, 7u + ni);
  transpose_blocks(in, out, blocks, ni, nj);
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j)
        REQUIRE(out[(static_cast<std::size_t>(b) * nj + j) * ni + i] == in[(static_cast<std::size_t>(b) * ni + i) * nj + j]);
  static_assert(std::is_same_v<decltype(std::declval<const acc::gang_t&>().shared<float>(2, 3)), acc::cached_view<float, 2>>);
  static_assert(std::is_same_v<decltype(std::declval<const acc::gang_t&>().shared<float>(2, 3L, 4u)), acc::cached_view<float, 3>>);
}

TEST_CASE("g.shared<T>(n0, n1, n2) is a gang-shared 3-D view indexed (i, j, k)", "[08][gang][shared]") {
  const auto [n0, n1, n2] = GENERATE(table<int, int, int>({{1, 1, 1}, {2, 3, 4}, {5, 1, 7}, {4, 6, 5}}));
  const int blocks = 3;
  const std::size_t count = static_cast<std::size_t>(n0) * n1 * n2;
  // Host vectors through views in a data region.
  std::vector<int> in(blocks * count), out(blocks * count, 0);
  acc_test::fill_random(in, 3u);
  {
    const acc::view<const int> vin(in.data(), in.size());
    const acc::view<int> vout(out.data(), out.size());
    acc::data region{acc::copyin(vin), acc::copy(vout)};
    reverse_axes(vin, vout, blocks, n0, n1, n2);
  }
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < n0; ++i)
      for (int j = 0; j < n1; ++j)
        for (int k = 0; k < n2; ++k)
          REQUIRE(out[b * count + (static_cast<std::size_t>(k) * n1 + j) * n0 + i] == in[b * count + (static_cast<std::size_t>(i) * n1 + j) * n2 + k]);
}

namespace {
// Rank 2 when n2 is 0 (nvcc's extended lambdas cannot capture a parameter pack).
void ask_extents(long long n0, long long n1, long long n2 = 0) {
  acc::array<int> out(1);
  acc::parallel(acc::num_gangs(1), acc::shared_bytes(64), ACC_LAMBDA(const acc::gang_t& g) {
    if (n2 == 0) {
      const auto s = g.shared<char>(n0, n1);
      acc::single(g, acc::per_gang, [&] { out[0] = sizeof(s) > 0; });
    } else {
      const auto s = g.shared<char>(n0, n1, n2);
      acc::single(g, acc::per_gang, [&] { out[0] = sizeof(s) > 0; });
    }
  });
}
}  // namespace

// A kernel traps instead, losing the context: tests/bounds/traps.cpp checks that in a process of its own.
TEST_CASE("g.shared<T>(n0, n1[, n2]) with a negative extent or extents past any memory throws bad_clause",
          "[08][shared][error][host]") {
  REQUIRE_THROWS_WITH(ask_extents(-2, 3), Catch::Contains("acc::parallel at 08_gang_shared_rank.cpp:") &&
                                              Catch::Contains("g.shared: extent -2 of dimension 0 is negative"));
  REQUIRE_THROWS_WITH(ask_extents(2, 3, -1), Catch::Contains("g.shared: extent -1 of dimension 2 is negative"));
  REQUIRE_THROWS_WITH(ask_extents(1LL << 32, 1LL << 32),
                      Catch::Contains("g.shared: extent 4294967296 of dimension 0 makes the view larger than any memory"));
  REQUIRE_THROWS_WITH(ask_extents(1LL, 1LL << 40, 1LL << 30),
                      Catch::Contains("extent 1099511627776 of dimension 1 makes the view larger"));
  // Extents whose bytes only exceed shared_bytes are the ordinary exhausted error.
  REQUIRE_THROWS_WITH(ask_extents(9, 9), Catch::Contains("gang shared memory exhausted"));
  REQUIRE_NOTHROW(ask_extents(8, 8));
  REQUIRE_NOTHROW(ask_extents(0, 5, 3));
}
