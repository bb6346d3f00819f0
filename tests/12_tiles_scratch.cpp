// Level 12d: team memory without an array. acc::scratch<T>(n0[, n1[, n2]]) clauses of rank
// 1-3 in tiles of rank 1-2, alone and between cached clauses (the views come in clause
// order), filled by one tile_for and read mirrored by the next (so every element is written
// by one iteration and read by another); empty and negative extents. All against sequential
// references, at sizes that leave partial tiles.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

namespace {

std::vector<long long> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<long long> dist(-1000, 1000);
  std::vector<long long> v(n);
  for (long long& x : v) x = dist(rng);
  return v;
}

acc::array<long long> array_of(const char* label, const std::vector<long long>& v) {
  acc::array<long long> a(label, static_cast<std::size_t>(v.size()));
  for (std::size_t k = 0; k < v.size(); ++k) a[k] = v[k];
  return a;
}

// ---- acc::scratch ----

/// 1D tiles with a 1D scratch: out[i] = 3 * x[mirror of i within its tile].
void scratch_mirror_1d(acc::array<long long> x, acc::array<long long> out, int n, int tile) {
  acc::tile_loop(n, acc::tile_size(tile), acc::scratch<long long>(tile),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<long long, 1>& s) {
                   acc::tile_for(t, [&](int i) { s(i - t.origin()) = 3 * x[i]; });
                   acc::tile_for(t, [&](int i) { out[i] = s(t.count() - 1 - (i - t.origin())); });
                 });
}

/// 1D tiles of 64 with a 2 x 4 x 8 scratch: the iteration at position p writes element p of
/// the row-major block and reads element count - 1 - p.
void scratch_rank3_in_1d(acc::array<long long> x, acc::array<long long> out, int n) {
  acc::tile_loop(n, acc::tile_size(64), acc::scratch<long long>(2, 4, 8),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<long long, 3>& s) {
                   acc::tile_for(t, [&](int i) {
                     const int p = i - t.origin();
                     s(p / 32, p / 8 % 4, p % 8) = x[i] - 5;
                   });
                   acc::tile_for(t, [&](int i) {
                     const int q = t.count() - 1 - (i - t.origin());
                     out[i] = s(q / 32, q / 8 % 4, q % 8);
                   });
                 });
}

/// 2D tiles of 8 x 4 with a cached array (fetch, halo 1), a scratch of 8 x 5 (padded) and a
/// write-back array, in that order: s = the 5-point sum of a, then out(i, j) = s of the
/// iteration mirrored vertically within the tile, written back through the cached view.
void scratch_between_cached_2d(acc::array<long long, 2> a, acc::array<long long, 2> out, int ni, int nj) {
  acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(8, 4), acc::cached(a, acc::fetch, acc::halo(1, 1), acc::halo(1, 1)),
                 acc::scratch<long long>(8, 5), acc::cached(out, acc::write_back),
                 ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<long long, 2>& ac,
                            const acc::cached_view<long long, 2>& s, const acc::cached_view<long long, 2>& oc) {
                   acc::tile_for(t, [&](int i, int j) {
                     long long v = ac(i, j);
                     if (i > 0) v += ac(i - 1, j);
                     if (i + 1 < ni) v += ac(i + 1, j);
                     if (j > 0) v += ac(i, j - 1);
                     if (j + 1 < nj) v += ac(i, j + 1);
                     s(i - t.origin(0), j - t.origin(1)) = v;
                   });
                   acc::tile_for(t, [&](int i, int j) {
                     oc(i, j) = s(t.count(0) - 1 - (i - t.origin(0)), j - t.origin(1));
                   });
                 });
}

void scratch_negative(acc::array<long long> out) {
  acc::tile_loop(16, acc::tile_size(16), acc::scratch<long long>(4, -1),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<long long, 2>&) {
                   acc::tile_for(t, [&](int i) { out[i] = 1; });
                 });
}

/// An empty scratch is allowed and gives a view with no valid index.
void scratch_empty(acc::array<long long> out, int n) {
  acc::tile_loop(n, acc::tile_size(32), acc::scratch<double>(0),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<double, 1>& s) {
                   acc::tile_for(t, [&](int i) { out[i] = s.hi(0) - s.lo(0) + (s.contains(0) ? 100 : 7); });
                 });
}

}  // namespace

TEST_CASE("acc::scratch: 1D team memory in 1D tiles, partial tiles", "[12][tile][scratch]") {
  for (const int tile : {1, 32, 64}) {
    for (const int n : {0, 1, 31, 64, 65, 1000}) {
      INFO("n = " << n << ", tile = " << tile);
      const auto vx = random_values(static_cast<std::size_t>(n), 40 + n);
      acc::array<long long> x = array_of("x", vx), out("out", n);
      scratch_mirror_1d(x, out, n, tile);
      for (int i = 0; i < n; ++i) {
        const int origin = i / tile * tile, count = std::min(tile, n - origin);
        REQUIRE(out[i] == 3 * vx[origin + count - 1 - (i - origin)]);
      }
    }
  }
}

TEST_CASE("acc::scratch: rank 3 in a 1D tile is row-major from 0", "[12][tile][scratch]") {
  for (const int n : {64, 100, 129}) {
    INFO("n = " << n);
    const auto vx = random_values(static_cast<std::size_t>(n), 50 + n);
    acc::array<long long> x = array_of("x", vx), out("out", n);
    scratch_rank3_in_1d(x, out, n);
    for (int i = 0; i < n; ++i) {
      const int origin = i / 64 * 64, count = std::min(64, n - origin);
      REQUIRE(out[i] == vx[origin + count - 1 - (i - origin)] - 5);
    }
  }
}

TEST_CASE("acc::scratch between cached clauses: views in clause order", "[12][tile][scratch]") {
  for (const auto& [ni, nj] : {std::pair{8, 4}, std::pair{13, 9}, std::pair{1, 30}, std::pair{33, 1}}) {
    INFO("ni = " << ni << ", nj = " << nj);
    const auto va = random_values(static_cast<std::size_t>(ni * nj), 60 + ni);
    acc::array<long long, 2> a("a", ni, nj), out("out", ni, nj);
    for (int k = 0; k < ni * nj; ++k) a.data()[k] = va[k];
    scratch_between_cached_2d(a, out, ni, nj);
    const auto at = [&](int i, int j) { return va[static_cast<std::size_t>(i * nj + j)]; };
    const auto sum5 = [&](int i, int j) {
      long long v = at(i, j);
      if (i > 0) v += at(i - 1, j);
      if (i + 1 < ni) v += at(i + 1, j);
      if (j > 0) v += at(i, j - 1);
      if (j + 1 < nj) v += at(i, j + 1);
      return v;
    };
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j) {
        const int origin = i / 8 * 8, count = std::min(8, ni - origin);
        REQUIRE(out(i, j) == sum5(origin + count - 1 - (i - origin), j));
      }
  }
}

TEST_CASE("acc::scratch: empty and negative extents", "[12][tile][scratch][errors]") {
  acc::array<long long> out("out", 40);
  for (int i = 0; i < 40; ++i) out[i] = -1;
  REQUIRE_THROWS_AS(scratch_negative(out), acc::bad_clause);
  REQUIRE_THROWS_WITH(scratch_negative(out), Catch::Contains("scratch() clause 1") && Catch::Contains("-1") &&
                                                 Catch::Contains("negative"));
  for (int i = 0; i < 40; ++i) REQUIRE(out[i] == -1);  // nothing ran
  scratch_empty(out, 40);
  for (int i = 0; i < 40; ++i) REQUIRE(out[i] == 7);
}
