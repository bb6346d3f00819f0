// Level 12d: team memory without an array, and acc::cache of arrays of lower rank than the
// tile. acc::scratch<T>(n0[, n1[, n2]]) clauses of rank 1-3 in tiles of rank 1-2, alone and
// between cached clauses (the views come in clause order), filled by one tile_for and read
// mirrored by the next (so every element is written by one iteration and read by another);
// a negative extent. acc::cache of a 1D array in a 2D tile (halo following the trailing
// dimension, or the one acc::tile_dims names; fixed ranges), of a 2D array in a 3D tile
// (trailing and named dimensions), and the list form mixing a tile-shaped block with 1D
// sections (a blocked matrix-vector product). All against sequential references, at sizes
// that leave partial tiles.
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

// ---- acc::cache of lower rank ----

/// 2D tiles (i, j); x (length nj) cached with halo(1, 1) following j (the trailing dimension),
/// y (length ni) with halo(2, 1) following i (acc::tile_dims<0>), w fixed [0, 3):
/// out(i, j) = x[j-1] + x[j] + x[j+1] + 10 * (y[i-2] + ... + y[i+1]) + 100 * w[(i + j) % 3],
/// each term present only inside its array.
void cache_1d_in_2d(acc::array<long long> x, acc::array<long long> y, acc::array<long long> w,
                    acc::array<long long, 2> out, int ni, int nj, int ti, int tj) {
  acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(ti, tj), acc::cache_bytes(3 * 16 + 8 * (tj + ti + 5 + 3)),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const auto xc = acc::cache(t, x, acc::halo(1, 1));
                   const auto yc = acc::cache(t, acc::tile_dims<0>, y, acc::halo(2, 1));
                   const auto wc = acc::cache(t, w, acc::fixed(0, 3));
                   acc::tile_for(t, [&](int i, int j) {
                     long long v = 0;
                     for (int d = -1; d <= 1; ++d)
                       if (xc.contains(j + d)) v += xc(j + d);
                     for (int d = -2; d <= 1; ++d)
                       if (yc.contains(i + d)) v += 10 * yc(i + d);
                     out(i, j) = v + 100 * wc((i + j) % 3);
                   });
                 });
}

/// 3D tiles (i, j, k); p (nj x nk) cached following (j, k) (trailing), q (ni x nk) following
/// (i, k) (acc::tile_dims<0, 2>), both with halo(1, 1) in their last dimension:
/// out(i, j, k) = p(j, k-1) + p(j, k) + p(j, k+1) + 1000 * (q(i, k-1) + q(i, k) + q(i, k+1)).
void cache_2d_in_3d(acc::array<long long, 2> p, acc::array<long long, 2> q, acc::array<long long, 3> out, int ni,
                    int nj, int nk) {
  acc::tile_loop(acc::collapse(ni, nj, nk), acc::tile_size(2, 4, 8), acc::cache_bytes(8 * (4 * 10 + 2 * 10) + 32),
                 ACC_LAMBDA(const acc::tile_t<3>& t) {
                   const auto pc = acc::cache(t, p, acc::halo(0, 0), acc::halo(1, 1));
                   const auto qc = acc::cache(t, acc::tile_dims<0, 2>, q, acc::halo(0, 0), acc::halo(1, 1));
                   acc::tile_for(t, [&](int i, int j, int k) {
                     long long v = 0;
                     for (int d = -1; d <= 1; ++d) {
                       if (pc.contains(j, k + d)) v += pc(j, k + d);
                       if (qc.contains(i, k + d)) v += 1000 * qc(i, k + d);
                     }
                     out(i, j, k) = v;
                   });
                 });
}

/// The list form with mixed ranks: 16 x 16 tiles (i, j) over an n x m output; per k block
/// the tile-shaped block of a, the 1D block of v and the tile's range of c (1D, following j):
/// out(i, j) = sum_k a(i, k) * v(k) + c(j).
void cache_list_mixed(acc::array<long long, 2> a, acc::array<long long> v, acc::array<long long> c,
                      acc::array<long long, 2> out, int n, int m, int kk) {
  acc::tile_loop(acc::collapse(n, m), acc::tile_size(16, 16), acc::cache_bytes(8 * (256 + 16 + 16)),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   acc::per_iteration<long long> sum(t, 0);
                   for (int k0 = 0; k0 < kk; k0 += 16) {
                     const auto [ab, vb, cb] = acc::cache(t, acc::section(a, acc::fixed(t.origin(0), 16), acc::fixed(k0, 16)),
                                                          acc::section(v, acc::fixed(k0, 16)),
                                                          acc::section(c, acc::halo(0, 0)));
                     acc::tile_for(t, [&](int i, int j) {
                       for (int k = k0; k < k0 + 16 && k < kk; ++k) sum(i, j) += ab(i, k) * vb(k);
                       if (k0 == 0) sum(i, j) += cb(j);
                     });
                   }
                   acc::tile_for(t, [&](int i, int j) { out(i, j) = sum(i, j); });
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

TEST_CASE("acc::cache of a 1D array in a 2D tile: trailing, named and fixed dimensions", "[12][tile][cache]") {
  struct shape {
    int ni, nj, ti, tj;
  };
  for (const shape s : {shape{16, 16, 8, 16}, shape{37, 23, 8, 16}, shape{5, 70, 4, 32}, shape{1, 1, 16, 16},
                        shape{50, 3, 16, 4}}) {
    INFO("ni = " << s.ni << ", nj = " << s.nj << ", tile " << s.ti << " x " << s.tj);
    const auto vx = random_values(static_cast<std::size_t>(s.nj), 70 + s.nj);
    const auto vy = random_values(static_cast<std::size_t>(s.ni), 80 + s.ni);
    const auto vw = random_values(3, 90);
    acc::array<long long> x = array_of("x", vx), y = array_of("y", vy), w = array_of("w", vw);
    acc::array<long long, 2> out("out", s.ni, s.nj);
    cache_1d_in_2d(x, y, w, out, s.ni, s.nj, s.ti, s.tj);
    for (int i = 0; i < s.ni; ++i)
      for (int j = 0; j < s.nj; ++j) {
        long long e = 100 * vw[static_cast<std::size_t>((i + j) % 3)];
        for (int d = -1; d <= 1; ++d)
          if (j + d >= 0 && j + d < s.nj) e += vx[static_cast<std::size_t>(j + d)];
        for (int d = -2; d <= 1; ++d)
          if (i + d >= 0 && i + d < s.ni) e += 10 * vy[static_cast<std::size_t>(i + d)];
        REQUIRE(out(i, j) == e);
      }
  }
}

TEST_CASE("acc::cache of a 2D array in a 3D tile: trailing and named dimensions", "[12][tile][cache]") {
  for (const auto& n : {std::array<int, 3>{2, 4, 8}, std::array<int, 3>{5, 7, 19}, std::array<int, 3>{3, 1, 9}}) {
    const int ni = n[0], nj = n[1], nk = n[2];
    INFO("ni = " << ni << ", nj = " << nj << ", nk = " << nk);
    const auto vp = random_values(static_cast<std::size_t>(nj * nk), 100 + nk);
    const auto vq = random_values(static_cast<std::size_t>(ni * nk), 110 + nk);
    acc::array<long long, 2> p("p", nj, nk), q("q", ni, nk);
    for (int k = 0; k < nj * nk; ++k) p.data()[k] = vp[static_cast<std::size_t>(k)];
    for (int k = 0; k < ni * nk; ++k) q.data()[k] = vq[static_cast<std::size_t>(k)];
    acc::array<long long, 3> out("out", ni, nj, nk);
    cache_2d_in_3d(p, q, out, ni, nj, nk);
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j)
        for (int k = 0; k < nk; ++k) {
          long long e = 0;
          for (int d = -1; d <= 1; ++d)
            if (k + d >= 0 && k + d < nk)
              e += vp[static_cast<std::size_t>(j * nk + k + d)] + 1000 * vq[static_cast<std::size_t>(i * nk + k + d)];
          REQUIRE(out(i, j, k) == e);
        }
  }
}

TEST_CASE("acc::cache list form mixing a tile-shaped block with 1D sections", "[12][tile][cache][list]") {
  for (const auto& [n, m, kk] : {std::tuple{16, 16, 16}, std::tuple{37, 21, 45}, std::tuple{5, 40, 3}}) {
    INFO("n = " << n << ", m = " << m << ", k = " << kk);
    const auto va = random_values(static_cast<std::size_t>(n * kk), 120 + n);
    const auto vv = random_values(static_cast<std::size_t>(kk), 130 + kk);
    const auto vc = random_values(static_cast<std::size_t>(m), 140 + m);
    acc::array<long long, 2> a("a", n, kk), out("out", n, m);
    for (int k = 0; k < n * kk; ++k) a.data()[k] = va[static_cast<std::size_t>(k)];
    acc::array<long long> v = array_of("v", vv), c = array_of("c", vc);
    cache_list_mixed(a, v, c, out, n, m, kk);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) {
        long long e = vc[static_cast<std::size_t>(j)];
        for (int k = 0; k < kk; ++k) e += va[static_cast<std::size_t>(i * kk + k)] * vv[static_cast<std::size_t>(k)];
        REQUIRE(out(i, j) == e);
      }
  }
}
