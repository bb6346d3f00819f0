// Level 12a: acc::tile_loop's cached arrays in every mode combination (none, fetch, channel,
// write_back and their combinations), 1D, 2D and 3D, halos of 0 to 3 on either side, tiles at
// the array's edges, extents that are not multiples of the tile (and smaller than the array),
// both body forms, several arrays in one construct and constant (fixed) ranges; all against
// sequential references on random integers (exact).
//
// The mode test's body (tile level) does, for a cached array c of src with halo (b, a):
//   phase 1 (fetch):      out1(i) = sum over the halo neighbourhood of w(off) * c(i + off),
//                         elements outside the cached range (the array's edge) count 0
//   phase 2 (not fetch-only): c(i) = g(i)
//   phase 3 (not fetch-only): with channel, out2(i) = the neighbourhood sum where a neighbour
//                         that is an iteration of the same tile shows g (its write), one in the
//                         halo the fetched src value (fetch) or 0; without channel, out2(i) = c(i)
//   afterwards src(i) = g(i) over the extent with write_back, else src is unchanged.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include "support/tiles.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

using acc_test::at;
using acc_test::dims;
using acc_test::extent_of;
using acc_test::has;
using acc_test::make_array;
using acc_test::tile_of;

struct halo_spec {
  int b[3];
  int a[3];
};

// ---- generic-rank helpers (host and device) ----

template <std::size_t R>
ACC_ROUTINE long long lin(const int* i, const int* n) {
  long long k = 0;
  for (std::size_t d = 0; d < R; ++d) k = k * n[d] + i[d];
  return k;
}
template <std::size_t R>
ACC_ROUTINE long long g_of(const int* i, const int* n) {
  return 3 * lin<R>(i, n) + 1;
}

/// Sum over the neighbourhood [i - b, i + a] of weight(offset) * val(j); weights 1, 2, ... in
/// row-major order of the offsets, so a misplaced element changes the sum.
template <std::size_t R, class F>
ACC_ROUTINE long long neighbourhood(const int* i, const halo_spec& h, const F& val) {
  int off[3] = {};
  for (std::size_t d = 0; d < R; ++d) off[d] = -h.b[d];
  long long s = 0, w = 1;
  while (true) {
    int j[3] = {};
    for (std::size_t d = 0; d < R; ++d) j[d] = i[d] + off[d];
    s += w * val(j);
    ++w;
    std::size_t d = R;
    while (d-- > 0) {
      if (++off[d] <= h.a[d]) break;
      off[d] = -h.b[d];
    }
    if (d == std::size_t(-1)) break;
  }
  return s;
}

template <std::size_t R, class A>
auto cached_halo(const A& a, acc::cache_mode_t m, const halo_spec& h) {
  if constexpr (R == 1) return acc::cached(a, m, acc::halo(h.b[0], h.a[0]));
  else if constexpr (R == 2) return acc::cached(a, m, acc::halo(h.b[0], h.a[0]), acc::halo(h.b[1], h.a[1]));
  else return acc::cached(a, m, acc::halo(h.b[0], h.a[0]), acc::halo(h.b[1], h.a[1]), acc::halo(h.b[2], h.a[2]));
}

/// Calls f(i) for every index i (int[3]) of the box [0, n) in row-major order.
template <std::size_t R, class F>
void for_box(const dims& n, const F& f) {
  for (std::size_t d = 0; d < R; ++d)
    if (n[d] <= 0) return;
  int i[3] = {};
  while (true) {
    f(static_cast<const int*>(i));
    std::size_t d = R;
    while (d-- > 0) {
      if (++i[d] < n[d]) break;
      i[d] = 0;
    }
    if (d == std::size_t(-1)) return;
  }
}

// ---- the constructs: one function template each (nvcc: no ACC_LAMBDA inside a lambda) ----

template <class T, std::size_t R>
void modes_construct(acc::array<T, R> src, acc::array<long long, R> out1, acc::array<long long, R> out2, dims n,
                     dims tile, dims big, halo_spec h, acc::cache_mode_t mode, int gangs) {
  const bool fetched = mode.has(acc::fetch), chan = mode.has(acc::channel), writes = !(mode == acc::fetch);
  // With write_back, other tiles store into this tile's halo while it runs: halo reads would
  // race (on every backend), so only the tile's own iterations are read then.
  const bool halo_ok = !mode.has(acc::write_back);
  const std::array<int, 3> N = big;
  acc::tile_loop(extent_of<R>(n), tile_of<R>(tile), cached_halo<R>(src, mode, h), acc::num_gangs(gangs),
                 ACC_LAMBDA(const acc::tile_t<R>& t, const acc::cached_view<T, R>& c) {
                   const int nn[3] = {N[0], N[1], N[2]};
                   auto mine = [&](const int* j) {
                     bool in = true;
                     for (std::size_t d = 0; d < R; ++d)
                       in = in && j[d] >= t.origin(d) && j[d] < t.origin(d) + t.count(d);
                     return in;
                   };
                   if (fetched)
                     acc::tile_for(t, [&](auto... ii) {
                       const int i[] = {int(ii)...};
                       at<R>(out1, i) = neighbourhood<R>(i, h, [&](const int* j) -> long long {
                         return has<R>(c, j) && (halo_ok || mine(j)) ? static_cast<long long>(at<R>(c, j)) : 0;
                       });
                     });
                   if (writes) {
                     acc::tile_for(t, [&](auto... ii) {
                       const int i[] = {int(ii)...};
                       at<R>(c, i) = static_cast<T>(g_of<R>(i, nn));
                     });
                     acc::tile_for(t, [&](auto... ii) {
                       const int i[] = {int(ii)...};
                       if (chan)
                         at<R>(out2, i) = neighbourhood<R>(i, h, [&](const int* j) -> long long {
                           if (mine(j) || (fetched && halo_ok && has<R>(c, j))) return static_cast<long long>(at<R>(c, j));
                           return 0;
                         });
                       else
                         at<R>(out2, i) = static_cast<long long>(at<R>(c, i));
                     });
                   }
                 });
}

/// Runs one case and compares with the sequential reference. `gangs` caps the gangs (then each
/// takes several tiles in turn, reusing its shared memory).
template <class T, std::size_t R>
void check_modes(dims n, dims tile, dims big, halo_spec h, acc::cache_mode_t mode, unsigned seed,
                 int gangs = 1 << 30) {
  INFO("rank " << R << " extent " << n[0] << "x" << n[1] << "x" << n[2] << " array " << big[0] << "x" << big[1] << "x"
                << big[2] << " tile " << tile[0] << "x" << tile[1] << "x" << tile[2] << " halo b " << h.b[0] << ","
                << h.b[1] << "," << h.b[2] << " a " << h.a[0] << "," << h.a[1] << "," << h.a[2] << " mode "
                << mode.bits << " gangs " << gangs);
  auto src = make_array<T, R>("src", big);
  auto out1 = make_array<long long, R>("out1", big);
  auto out2 = make_array<long long, R>("out2", big);
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-100, 100);
  for (auto& x : src) x = static_cast<T>(dist(gen));
  for (auto& x : out1) x = -7;
  for (auto& x : out2) x = -7;
  const std::vector<T> start(src.begin(), src.end());

  modes_construct<T, R>(src, out1, out2, n, tile, big, h, mode, gangs);

  const bool fetched = mode.has(acc::fetch), chan = mode.has(acc::channel), writes = !(mode == acc::fetch);
  const bool stored = mode.has(acc::write_back), halo_ok = !stored;
  int nb[3] = {big[0], big[1], big[2]};
  int bad = 0;
  for_box<R>(big, [&](const int* i) {
    bool iter = true;
    for (std::size_t d = 0; d < R; ++d) iter = iter && i[d] < n[d];
    const long long k = lin<R>(i, nb);
    long long e1 = -7, e2 = -7;
    long long es = start[k];
    if (iter) {
      int origin[3], lo[3], hi[3], tend[3];
      for (std::size_t d = 0; d < R; ++d) {
        origin[d] = i[d] / tile[d] * tile[d];
        lo[d] = std::max(0, origin[d] - h.b[d]);
        hi[d] = std::min(big[d], origin[d] + tile[d] + h.a[d]);
        tend[d] = std::min(origin[d] + tile[d], n[d]);
      }
      auto in_box = [&](const int* j) {
        for (std::size_t d = 0; d < R; ++d)
          if (j[d] < lo[d] || j[d] >= hi[d]) return false;
        return true;
      };
      auto in_tile = [&](const int* j) {
        for (std::size_t d = 0; d < R; ++d)
          if (j[d] < origin[d] || j[d] >= tend[d]) return false;
        return true;
      };
      if (fetched)
        e1 = neighbourhood<R>(i, h, [&](const int* j) -> long long {
          return in_box(j) && (halo_ok || in_tile(j)) ? start[lin<R>(j, nb)] : 0;
        });
      if (writes) {
        if (chan)
          e2 = neighbourhood<R>(i, h, [&](const int* j) -> long long {
            if (in_tile(j)) return static_cast<long long>(static_cast<T>(g_of<R>(j, nb)));
            if (fetched && halo_ok && in_box(j)) return start[lin<R>(j, nb)];
            return 0;
          });
        else
          e2 = static_cast<long long>(static_cast<T>(g_of<R>(i, nb)));
      }
      if (stored) es = static_cast<long long>(static_cast<T>(g_of<R>(i, nb)));
    }
    const long long got1 = at<R>(out1, i), got2 = at<R>(out2, i), gots = static_cast<long long>(at<R>(src, i));
    if ((got1 != e1 || got2 != e2 || gots != es) && bad++ < 5) {
      UNSCOPED_INFO("at " << i[0] << "," << (R > 1 ? i[1] : 0) << "," << (R > 2 ? i[2] : 0) << ": out1 " << got1
                          << " expected " << e1 << ", out2 " << got2 << " expected " << e2 << ", src " << gots
                          << " expected " << es);
    }
  });
  REQUIRE(bad == 0);
}

const acc::cache_mode_t all_modes[] = {acc::none,
                                       acc::fetch,
                                       acc::channel,
                                       acc::write_back,
                                       acc::fetch | acc::channel,
                                       acc::fetch | acc::write_back,
                                       acc::channel | acc::write_back,
                                       acc::fetch | acc::channel | acc::write_back};

/// Halos to try: none, 3 on both sides, one-sided, and random 0..3 per side and dimension.
std::vector<halo_spec> halos(unsigned seed) {
  std::vector<halo_spec> v = {{{0, 0, 0}, {0, 0, 0}}, {{3, 3, 3}, {3, 3, 3}}, {{0, 3, 1}, {3, 0, 2}}};
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> d(0, 3);
  for (int k = 0; k < 2; ++k) v.push_back({{d(gen), d(gen), d(gen)}, {d(gen), d(gen), d(gen)}});
  return v;
}

}  // namespace

TEST_CASE("tile_loop: 1D cached arrays in every mode, halos 0..3, edges", "[12][tile]") {
  struct shape {
    dims n, tile, big;
  };
  const shape shapes[] = {{{1000, 1, 1}, {64, 1, 1}, {1000, 1, 1}},  // last tile partial
                          {{37, 1, 1}, {8, 1, 1}, {41, 1, 1}},       // extent inside a larger array
                          {{1, 1, 1}, {32, 1, 1}, {1, 1, 1}},
                          {{5, 1, 1}, {1, 1, 1}, {5, 1, 1}},         // one-iteration tiles
                          {{0, 1, 1}, {16, 1, 1}, {3, 1, 1}}};
  unsigned seed = 1;
  for (const auto mode : all_modes)
    for (const auto& s : shapes)
      for (const auto& h : halos(seed)) check_modes<int, 1>(s.n, s.tile, s.big, h, mode, seed++);
}

TEST_CASE("tile_loop: 2D cached arrays in every mode, halos 0..3, edges", "[12][tile]") {
  struct shape {
    dims n, tile, big;
  };
  const shape shapes[] = {{{45, 37, 1}, {8, 16, 1}, {45, 37, 1}},
                          {{30, 37, 1}, {4, 8, 1}, {33, 40, 1}},
                          {{5, 3, 1}, {16, 16, 1}, {5, 3, 1}}};
  unsigned seed = 100;
  for (const auto mode : all_modes)
    for (const auto& s : shapes)
      for (const auto& h : halos(seed)) {
        check_modes<int, 2>(s.n, s.tile, s.big, h, mode, seed++);
      }
  // Another element type and size.
  for (const auto mode : all_modes) check_modes<double, 2>({19, 23, 1}, {8, 4, 1}, {19, 23, 1}, {{2, 1, 0}, {1, 3, 0}}, mode, 7);
  // Two gangs for 18 tiles: each gang runs tiles one after another in the same shared memory.
  for (const auto mode : all_modes)
    check_modes<int, 2>({45, 37, 1}, {8, 16, 1}, {45, 37, 1}, {{1, 2, 0}, {3, 0, 0}}, mode, 8, 2);
}

TEST_CASE("tile_loop: 3D cached arrays in every mode, halos 0..3, edges", "[12][tile]") {
  struct shape {
    dims n, tile, big;
  };
  const shape shapes[] = {{{13, 11, 9}, {2, 4, 8}, {13, 11, 9}}, {{6, 7, 5}, {4, 4, 4}, {7, 9, 5}}};
  unsigned seed = 200;
  for (const auto mode : all_modes)
    for (const auto& s : shapes)
      for (const auto& h : halos(seed)) check_modes<int, 3>(s.n, s.tile, s.big, h, mode, seed++);
}

// ---- form 1: the per-iteration body ----

namespace {

/// What a per-iteration body does at iteration i (the same for every rank).
template <std::size_t R, class V>
ACC_ROUTINE void per_iteration_step(const int* i, const V& c, const acc::array<long long, R>& out, const halo_spec& h,
                                    bool fetched, bool stored, const int* nn) {
  if (fetched && !stored)
    at<R>(out, i) = neighbourhood<R>(i, h, [&](const int* j) -> long long {
      return has<R>(c, j) ? static_cast<long long>(at<R>(c, j)) : 0;
    });
  else if (fetched && stored)
    at<R>(c, i) = 2 * at<R>(c, i) + 1;  // own element only: no other iteration reads it
  else {
    at<R>(c, i) = static_cast<int>(g_of<R>(i, nn));
    at<R>(out, i) = at<R>(c, i);
  }
}

void per_iteration_1d(acc::array<int> src, acc::array<long long> out, dims n, dims tile, halo_spec h,
                      acc::cache_mode_t mode, dims big) {
  const bool fetched = mode.has(acc::fetch), stored = mode.has(acc::write_back);
  const int n0 = big[0];
  acc::tile_loop(n[0], acc::tile_size(tile[0]), cached_halo<1>(src, mode, h),
                 ACC_LAMBDA(int i0, const acc::cached_view<int, 1>& c) {
                   const int i[] = {i0}, nn[] = {n0};
                   per_iteration_step<1>(i, c, out, h, fetched, stored, nn);
                 });
}

void per_iteration_2d(acc::array<int, 2> src, acc::array<long long, 2> out, dims n, dims tile, halo_spec h,
                      acc::cache_mode_t mode, dims big) {
  const bool fetched = mode.has(acc::fetch), stored = mode.has(acc::write_back);
  const int n0 = big[0], n1 = big[1];
  acc::tile_loop(acc::collapse(n[0], n[1]), acc::tile_size(tile[0], tile[1]), cached_halo<2>(src, mode, h),
                 ACC_LAMBDA(int i0, int i1, const acc::cached_view<int, 2>& c) {
                   const int i[] = {i0, i1}, nn[] = {n0, n1};
                   per_iteration_step<2>(i, c, out, h, fetched, stored, nn);
                 });
}

}  // namespace

TEST_CASE("tile_loop: per-iteration bodies read halos and write their own element", "[12][tile]") {
  const acc::cache_mode_t modes[] = {acc::fetch, acc::write_back, acc::fetch | acc::write_back, acc::none};
  unsigned seed = 300;
  for (const auto mode : modes) {
    INFO("mode " << mode.bits);
    {
      const dims n{77, 1, 1}, big{80, 1, 1}, tile{16, 1, 1};
      const halo_spec h{{2, 0, 0}, {3, 0, 0}};
      acc::array<int> src("src", big[0]);
      acc::array<long long> out("out", big[0]);
      std::mt19937 gen(seed++);
      for (auto& x : src) x = int(gen() % 201) - 100;
      for (auto& x : out) x = -7;
      const std::vector<int> start(src.begin(), src.end());
      per_iteration_1d(src, out, n, tile, h, mode, big);
      for (int i = 0; i < big[0]; ++i) {
        long long e = -7, es = start[i];
        if (i < n[0]) {
          const int o = i / 16 * 16, lo = std::max(0, o - 2), hi = std::min(big[0], o + 16 + 3);
          if (mode == acc::fetch) {
            e = 0;
            for (int off = -2, w = 1; off <= 3; ++off, ++w)
              if (i + off >= lo && i + off < hi) e += w * start[i + off];
          } else if (mode == (acc::fetch | acc::write_back)) {
            es = 2 * start[i] + 1;
          } else {
            e = 3 * i + 1;
            if (mode.has(acc::write_back)) es = e;
          }
        }
        INFO("i = " << i);
        REQUIRE(out(i) == e);
        REQUIRE(src(i) == es);
      }
    }
    {
      const dims n{21, 18, 1}, big{21, 18, 1}, tile{8, 8, 1};
      const halo_spec h{{1, 3, 0}, {0, 2, 0}};
      acc::array<int, 2> src("src", n[0], n[1]);
      acc::array<long long, 2> out("out", n[0], n[1]);
      std::mt19937 gen(seed++);
      for (auto& x : src) x = int(gen() % 201) - 100;
      const std::vector<int> start(src.begin(), src.end());
      per_iteration_2d(src, out, n, tile, h, mode, big);
      for (int i = 0; i < n[0]; ++i)
        for (int j = 0; j < n[1]; ++j) {
          const int k = i * n[1] + j;
          if (mode == acc::fetch) {
            const int oi = i / 8 * 8, oj = j / 8 * 8;
            long long e = 0, w = 1;
            for (int di = -1; di <= 0; ++di)
              for (int dj = -3; dj <= 2; ++dj, ++w) {
                const int p = i + di, q = j + dj;
                if (p >= std::max(0, oi - 1) && p < std::min(n[0], oi + 8) && q >= std::max(0, oj - 3) &&
                    q < std::min(n[1], oj + 8 + 2))
                  e += w * start[p * n[1] + q];
              }
            REQUIRE(out(i, j) == e);
            REQUIRE(src(i, j) == start[k]);
          } else if (mode == (acc::fetch | acc::write_back)) {
            REQUIRE(src(i, j) == 2 * start[k] + 1);
          } else {
            REQUIRE(out(i, j) == 3 * k + 1);
            REQUIRE(src(i, j) == (mode.has(acc::write_back) ? 3 * k + 1 : start[k]));
          }
        }
    }
  }
}

// ---- several arrays in one construct, fixed (constant) ranges ----

namespace {

// c(i, j) = sum of a over its halo box (1 before, 2 after in i; 2 before, 0 after in j)
//         + sum over rows k in [3, 8) of b(k, j) + b(k, j + 1) (where cached)
//         + lut[(i + j) % 5] (lut: a fixed range [-2, 7) of a 1D array of 6: clipped to [0, 6))
// d is gang-private scratch (dist_private): written and read back into e.
void several_arrays(acc::array<int, 2> a, acc::array<int, 2> b, acc::array<long long, 2> c, acc::array<long long, 2> d,
                    acc::array<long long, 2> e, int ni, int nj) {
  acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(8, 16),
                 acc::cached(a, acc::fetch, acc::halo(1, 2), acc::halo(2, 0)),
                 acc::cached(b, acc::fetch, acc::fixed(3, 5), acc::halo(0, 1)), acc::dist_lastprivate(c),
                 acc::dist_private(d),
                 ACC_LAMBDA(int i, int j, const acc::cached_view<int, 2>& ac, const acc::cached_view<int, 2>& bc,
                            const acc::cached_view<long long, 2>& cc, const acc::cached_view<long long, 2>& dc) {
                   long long s = 0;
                   for (int p = i - 1; p <= i + 2; ++p)
                     for (int q = j - 2; q <= j; ++q)
                       if (ac.contains(p, q)) s += ac(p, q);
                   for (long long k = bc.lo(0); k < bc.hi(0); ++k) {
                     s += 10 * bc(k, j);
                     if (bc.contains(k, j + 1)) s += 100 * bc(k, j + 1);
                   }
                   cc(i, j) = s;
                   dc(i, j) = s + 1;
                   e(i, j) = dc(i, j);
                 });
}

void fixed_lut(acc::array<int> lut, acc::array<long long> out, int n, long long lo, long long count) {
  acc::tile_loop(n, acc::tile_size(32), acc::dist_firstprivate(lut, acc::fixed(lo, count)),
                 // A body may take a read-only view of a cached array<int>.
                 ACC_LAMBDA(int i, const acc::cached_view<const int, 1>& l) {
                   long long s = 0;
                   for (long long k = l.lo(); k < l.hi(); ++k) s += l(k) * ((i + k) % 3 + 1);
                   out[i] = s * 1000 + (l.hi() - l.lo());
                 });
}

// One tile stores a fixed range it filled (channel | write_back along a fixed dimension).
void fixed_store(acc::array<int, 2> w, int rows) {
  acc::tile_loop(acc::collapse(rows, 16), acc::tile_size(rows, 16),
                 acc::cached(w, acc::channel | acc::write_back, acc::fixed(0, rows), acc::fixed(2, 16)),
                 ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<int, 2>& wc) {
                   acc::tile_for(t, [&](int i, int j) { wc(i, j + 2) = 100 * i + j; });
                   // Every iteration reads another's write: the transposed-in-row element.
                   acc::per_iteration<int> v(t);
                   acc::tile_for(t, [&](int i, int j) { v(i, j) = wc(i, 17 - j) + 7; });
                   acc::tile_for(t, [&](int i, int j) { wc(i, j + 2) = v(i, j); });
                 });
}

// Iterations lo.. lo + n over an array of n elements, each reading element i - shift through a
// halo as long as the shift: the iterations lie beside the array, not inside it.
void shifted_halo(acc::array<double> a, acc::array<double> out, int n, int shift) {
  if (shift >= 0)
    acc::tile_loop(acc::range(shift, shift + n), acc::tile_size(4),
                   acc::cached(a, acc::fetch | acc::channel, acc::halo(shift, 0)),
                   ACC_LAMBDA(int i, const acc::cached_view<double, 1>& ac) { out[i - shift] = ac(i - shift); });
  else
    acc::tile_loop(acc::range(shift, shift + n), acc::tile_size(4),
                   acc::cached(a, acc::fetch | acc::channel, acc::halo(0, -shift)),
                   ACC_LAMBDA(int i, const acc::cached_view<double, 1>& ac) { out[i - shift] = ac(i - shift); });
}

// Each tile works on its private copy (MACC's dist_firstprivate): writes stay in the copy,
// and every tile reads the array's values from before the construct, halo included.
void firstprivate_writes(acc::array<double> a, acc::array<double> out, int n) {
  acc::tile_loop(n, acc::tile_size(4), acc::dist_firstprivate(a, acc::halo(1, 1)),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<double, 1>& p) {
                   acc::tile_for(t, [&](int i) { p(i) = p(i) * 10; });
                   acc::tile_for(t, [&](int i) {
                     const double left = i > 0 ? p(i - 1) : 0.0, right = i + 1 < n ? p(i + 1) : 0.0;
                     out[i] = p(i) + left + right;
                   });
                 });
}

}  // namespace

TEST_CASE("tile_loop: writes to a dist_firstprivate copy stay in the copy", "[12][tile]") {
  const int n = GENERATE(1, 13, 64);
  acc::array<double> a("a", n), out("out", n);
  for (int i = 0; i < n; ++i) a[i] = i + 1;
  firstprivate_writes(a, out, n);
  for (int i = 0; i < n; ++i) {
    REQUIRE(a[i] == i + 1);
    // Neighbours in the same tile were scaled by this tile; those in the next tile's halo not.
    const auto scaled = [&](int k) { return k / 4 == i / 4 ? 10.0 * (k + 1) : double(k + 1); };
    const double expect = scaled(i) + (i > 0 ? scaled(i - 1) : 0.0) + (i + 1 < n ? scaled(i + 1) : 0.0);
    REQUIRE(out[i] == expect);
  }
}

TEST_CASE("tile_loop: halos reach an array beside the iterations", "[12][tile]") {
  const int n = GENERATE(1, 10, 37);
  const int shift = GENERATE(-41, -20, -3, 3, 15, 40);
  acc::array<double> a("a", n), out("out", n);
  for (int i = 0; i < n; ++i) a[i] = 100 + i, out[i] = -1;
  shifted_halo(a, out, n, shift);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == a[i]);
}

TEST_CASE("tile_loop: several arrays with halo, fixed, lastprivate and private ranges", "[12][tile]") {
  const int ni = 29, nj = 35;
  acc::array<int, 2> a("a", ni, nj), b("b", 10, nj);
  acc::array<long long, 2> c("c", ni, nj), d("d", ni, nj), e("e", ni, nj);
  std::mt19937 gen(11);
  for (auto& x : a) x = int(gen() % 201) - 100;
  for (auto& x : b) x = int(gen() % 201) - 100;
  for (auto& x : d) x = -5;
  several_arrays(a, b, c, d, e, ni, nj);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      const int oi = i / 8 * 8, oj = j / 16 * 16;
      long long s = 0;
      for (int p = i - 1; p <= i + 2; ++p)
        for (int q = j - 2; q <= j; ++q)
          if (p >= std::max(0, oi - 1) && p < std::min(ni, oi + 8 + 2) && q >= std::max(0, oj - 2) && q < std::min(nj, oj + 16))
            s += a(p, q);
      for (int k = 3; k < 8; ++k) {
        s += 10 * b(k, j);
        if (j + 1 < std::min(nj, oj + 16 + 1)) s += 100 * b(k, j + 1);
      }
      INFO("i = " << i << ", j = " << j);
      REQUIRE(c(i, j) == s);
      REQUIRE(e(i, j) == s + 1);
      REQUIRE(d(i, j) == -5);  // private: never stored
    }
}

TEST_CASE("tile_loop: fixed ranges are shared by every tile and clipped to the array", "[12][tile]") {
  acc::array<int> lut("lut", 6);
  for (int k = 0; k < 6; ++k) lut[k] = 3 * k - 4;
  struct range {
    long long lo, count;
  };
  for (const range r : {range{0, 6}, range{-2, 9}, range{2, 2}, range{4, 10}, range{7, 3}, range{1, 0},
                        range{-3, 1LL << 40},  // no storage past the array's 6
                        // Starts whose distance from the array's end is past 64 bits: empty.
                        range{INT64_MIN, 100}, range{INT64_MIN, INT64_MAX}, range{INT64_MIN + 3, INT64_MAX}}) {
    INFO("fixed(" << r.lo << ", " << r.count << ")");
    const int n = 70;
    acc::array<long long> out("out", n);
    fixed_lut(lut, out, n, r.lo, r.count);
    const long long lo = std::max<long long>(0, r.lo), hi = std::max(lo, std::min<long long>(6, r.lo + r.count));
    for (int i = 0; i < n; ++i) {
      long long s = 0;
      for (long long k = lo; k < hi; ++k) s += lut[k] * ((i + k) % 3 + 1);
      REQUIRE(out[i] == s * 1000 + (hi - lo));
    }
  }
  acc::array<int, 2> w("w", 3, 20);
  for (auto& x : w) x = -1;
  fixed_store(w, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 20; ++j) {
      INFO("i = " << i << ", j = " << j);
      REQUIRE(w(i, j) == (j >= 2 && j < 18 ? 100 * i + (15 - (j - 2)) + 7 : -1));
    }
}
