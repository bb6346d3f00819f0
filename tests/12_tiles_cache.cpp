// Level 12c: the fast paths of tiles. acc::cache of blocks with the gang's shape (one element
// per thread on a GPU) against blocks that are larger, smaller or off the array (the general
// loop), 1D, 2D and 3D, at the arrays' edges, for element sizes 1 to 8 bytes; fixed last
// dimensions of cached() clauses, whose storage is widened to 16-byte boundaries (fetch,
// channel, write_back and none; odd lo and count; 2D and 3D; both kernels: the widening must
// change neither what is read nor what is stored);
// acc::cache's list form (acc::cache(t, acc::section(a, ...), ...): 1 to 3 sections of different
// element types and ranks 1-3, all, none or some of the gang's shape, at the arrays' edges, with
// halos; equal to single calls; the overflow report); the blocked matrix product of
// examples/matmul_tiled in both forms (acc::cache single and list, and team memory filled by the
// iterations, with its full-tile fast path) in exact integers; and indices beyond 32 bits. All
// against sequential references.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include "support/tiles.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using acc_test::at;
using acc_test::count_wrong;
using acc_test::dims;
using acc_test::extent_of;
using acc_test::has;
using acc_test::make_array;
using acc_test::tile_of;


/// Where block `shape` of a step starts relative to the tile's origin, per dimension.
struct block_spec {
  int shift[3];  // origin of the block = tile origin + shift
  int size[3];   // the block's extent (the tile's shape: one element per thread)
};

/// acc::cache(t, a, fixed(origin + shift, size)...) in every dimension.
template <std::size_t R, class I, class A>
ACC_ROUTINE auto cache_block(const acc::tile_t<R, I>& t, const A& a, const block_spec& s) {
  if constexpr (R == 1) return acc::cache(t, a, acc::fixed(t.origin(0) + s.shift[0], s.size[0]));
  else if constexpr (R == 2)
    return acc::cache(t, a, acc::fixed(t.origin(0) + s.shift[0], s.size[0]), acc::fixed(t.origin(1) + s.shift[1], s.size[1]));
  else
    return acc::cache(t, a, acc::fixed(t.origin(0) + s.shift[0], s.size[0]), acc::fixed(t.origin(1) + s.shift[1], s.size[1]),
                      acc::fixed(t.origin(2) + s.shift[2], s.size[2]));
}

/// For each of `steps` blocks (cached one after another in a sequential loop, as matmul's k
/// loop does), every iteration adds weight * element at (its index + shift) where the block
/// holds it. The weights (1, 2, 3: the step) catch an element read from the wrong step.
template <class T, std::size_t R>
void blocks_construct(acc::array<T, R> a, acc::array<long long, R> out, dims n, dims tile, block_spec s0,
                      block_spec s1, block_spec s2) {
  std::size_t volume = 1;
  for (std::size_t d = 0; d < R; ++d) volume *= static_cast<std::size_t>(std::max({s0.size[d], s1.size[d], s2.size[d]}));
  acc::tile_loop(extent_of<R>(n), tile_of<R>(tile), acc::cache_bytes(volume * sizeof(T) + 16),
                 ACC_LAMBDA(const acc::tile_t<R>& t) {
                   acc::per_iteration<long long> sum(t);
                   const block_spec steps[3] = {s0, s1, s2};
                   for (int k = 0; k < 3; ++k) {
                     const block_spec s = steps[k];
                     const auto v = cache_block<R>(t, a, s);
                     acc::tile_for(t, [&](auto... ii) {
                       int j[] = {int(ii)...};
                       for (std::size_t d = 0; d < R; ++d) j[d] += s.shift[d];
                       if (has<R>(v, j)) sum(ii...) += (k + 1) * static_cast<long long>(at<R>(v, j));
                     });
                   }
                   acc::tile_for(t, [&](auto... ii) { out(ii...) = sum(ii...); });
                 });
}

template <class T, std::size_t R>
void check_blocks(dims n, dims big, dims tile, const block_spec (&steps)[3], unsigned seed) {
  INFO("rank " << R << " extent " << n[0] << "x" << n[1] << "x" << n[2] << " array " << big[0] << "x" << big[1] << "x"
                << big[2] << " tile " << tile[0] << "x" << tile[1] << "x" << tile[2] << " element bytes " << sizeof(T));
  auto a = make_array<T, R>("a", big);
  auto out = make_array<long long, R>("out", big);
  std::mt19937 gen(seed);
  for (auto& x : a) x = static_cast<T>(int(gen() % 201) - 100);
  for (auto& x : out) x = -7;
  blocks_construct<T, R>(a, out, n, tile, steps[0], steps[1], steps[2]);
  REQUIRE(count_wrong<R>(out, big, n, [&](const int* i, bool inside) {
            if (!inside) return -7LL;
            long long e = 0;
            for (int k = 0; k < 3; ++k) {
              bool in = true;
              int j[3] = {};
              for (std::size_t d = 0; d < R; ++d) {
                const int origin = i[d] / tile[d] * tile[d] + steps[k].shift[d];
                j[d] = i[d] + steps[k].shift[d];
                in = in && j[d] >= std::max(0, origin) && j[d] < std::min(big[d], origin + steps[k].size[d]);
              }
              if (in) e += (k + 1) * static_cast<long long>(at<R>(a, j));
            }
            return e;
          }) == 0);
}

template <class T>
void blocks_all_ranks(unsigned seed) {
  // 1D: the gang's shape, shifted inside, across the array's start and end, and off it.
  const block_spec one[3] = {{{0}, {64}}, {{-5}, {64}}, {{7}, {64}}};
  check_blocks<T, 1>({1000, 1, 1}, {1003, 1, 1}, {64, 1, 1}, one, seed);
  check_blocks<T, 1>({61, 1, 1}, {61, 1, 1}, {64, 1, 1}, one, seed + 1);  // one partial tile
  const block_spec off[3] = {{{-70}, {64}}, {{2000}, {64}}, {{0}, {64}}};
  check_blocks<T, 1>({200, 1, 1}, {200, 1, 1}, {64, 1, 1}, off, seed + 2);
  // Larger and smaller than the gang: the general loop.
  const block_spec other[3] = {{{-3}, {70}}, {{2}, {50}}, {{-1}, {131}}};
  check_blocks<T, 1>({333, 1, 1}, {340, 1, 1}, {64, 1, 1}, other, seed + 3);
  // 2D, 16 x 16 gangs (matmul's shape) and 8 x 4.
  const block_spec two[3] = {{{0, 0}, {16, 16}}, {{-3, 5}, {16, 16}}, {{16, -16}, {16, 16}}};
  check_blocks<T, 2>({45, 37, 1}, {47, 37, 1}, {16, 16, 1}, two, seed + 4);
  const block_spec mixed[3] = {{{0, 0}, {8, 4}}, {{-1, -1}, {10, 6}}, {{0, 2}, {8, 3}}};
  check_blocks<T, 2>({29, 19, 1}, {29, 21, 1}, {8, 4, 1}, mixed, seed + 5);
  // 3D.
  const block_spec three[3] = {{{0, 0, 0}, {2, 4, 8}}, {{1, -2, 3}, {2, 4, 8}}, {{-1, 0, -1}, {3, 4, 9}}};
  check_blocks<T, 3>({5, 9, 17}, {6, 9, 19}, {2, 4, 8}, three, seed + 6);
}

}  // namespace

TEST_CASE("acc::cache: blocks of the gang's shape, larger, smaller and off the array", "[12][tile][cache]") {
  blocks_all_ranks<int>(1);
  blocks_all_ranks<signed char>(20);
  blocks_all_ranks<short>(40);
  blocks_all_ranks<double>(60);
  blocks_all_ranks<long long>(80);
}

// ---- fixed last dimensions: widened storage ----

namespace {

/// One tile covering rows x cols of w, caching fixed(0, rows) x fixed(lo, count) in `mode`.
/// Fetch: out(i, j) = sum over the cached columns k of (k - lo + 1) * w(i, k). Then (but for
/// fetch only, whose view may alias the array) every iteration whose column is cached writes
/// w(i, j) = 1000 + 10 * i + j (channel: read back by its row neighbour); with write_back those
/// reach the array, and only those.
template <class T>
void fixed_rows(acc::array<T, 2> w, acc::array<long long, 2> out, int rows, int cols, long long lo, long long count,
                acc::cache_mode_t mode) {
  const bool fetched = mode.has(acc::fetch), chan = mode.has(acc::channel), writes = !(mode == acc::fetch);
  acc::tile_loop(acc::collapse(rows, cols), acc::tile_size(rows, cols),
                 acc::cached(w, mode, acc::fixed(0, rows), acc::fixed(lo, count)),
                 ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<T, 2>& c) {
                   if (fetched)
                     acc::tile_for(t, [&](int i, int j) {
                       long long s = 0;
                       for (long long k = c.lo(1); k < c.hi(1); ++k) s += (k - lo + 1) * static_cast<long long>(c(i, k));
                       out(i, j) = s;
                     });
                   if (writes)
                     acc::tile_for(t, [&](int i, int j) {
                       if (c.contains(i, j)) c(i, j) = static_cast<T>(1000 + 10 * i + j);
                     });
                   if (chan)
                     acc::tile_for(t, [&](int i, int j) {
                       const int k = j + 1 < cols ? j + 1 : 0;
                       out(i, j) += 7 * (c.contains(i, k) ? static_cast<long long>(c(i, k)) : -1);
                     });
                 });
}

template <class T>
void check_fixed_rows(long long lo, long long count, acc::cache_mode_t mode) {
  const int rows = 3, cols = 37;
  INFO("element bytes " << sizeof(T) << ", fixed(" << lo << ", " << count << "), mode " << mode.bits);
  acc::array<T, 2> w("w", rows, cols);
  acc::array<long long, 2> out("out", rows, cols);
  std::mt19937 gen(unsigned(lo * 31 + count));
  for (auto& x : w) x = static_cast<T>(int(gen() % 101) - 50);
  for (auto& x : out) x = 0;
  const std::vector<T> start(w.begin(), w.end());
  fixed_rows<T>(w, out, rows, cols, lo, count, mode);
  const long long clo = std::max<long long>(0, lo), chi = std::max(clo, std::min<long long>(cols, lo + count));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      INFO("i = " << i << ", j = " << j);
      long long e = 0;
      if (mode.has(acc::fetch))
        for (long long k = clo; k < chi; ++k) e += (k - lo + 1) * static_cast<long long>(start[i * cols + k]);
      if (mode.has(acc::channel)) {
        const int k = j + 1 < cols ? j + 1 : 0;
        e += 7 * (k >= clo && k < chi ? static_cast<long long>(static_cast<T>(1000 + 10 * i + k)) : -1);
      }
      REQUIRE(out(i, j) == e);
      const bool stored = mode.has(acc::write_back) && j >= clo && j < chi;
      REQUIRE(w(i, j) == (stored ? static_cast<T>(1000 + 10 * i + j) : start[i * cols + j]));
    }
}

template <class T>
void fixed_rows_all() {
  struct range {
    long long lo, count;
  };
  const acc::cache_mode_t modes[] = {acc::fetch, acc::channel | acc::write_back, acc::fetch | acc::channel | acc::write_back,
                                     acc::none};
  for (const range r : {range{0, 16}, range{1, 3}, range{3, 7}, range{-3, 9}, range{5, 0}, range{30, 11}, range{2, 33}})
    for (const auto m : modes) check_fixed_rows<T>(r.lo, r.count, m);
}

// The same through the 64-bit kernel (num_gangs below the tile count: gangs take several
// tiles), in 3D, fixed last dimension: out(i, j, k) = sum over the cached range of w(i, j, q).
template <class T>
void fixed_3d(acc::array<T, 3> w, acc::array<long long, 3> out, dims n, long long lo, long long count) {
  acc::tile_loop(acc::collapse(n[0], n[1], n[2]), acc::tile_size(2, 2, 8), acc::num_gangs(3),
                 acc::cached(w, acc::fetch, acc::halo(0, 1), acc::halo(1, 0), acc::fixed(lo, count)),
                 ACC_LAMBDA(int i, int j, int k, const acc::cached_view<T, 3>& c) {
                   long long s = 0;
                   for (long long q = c.lo(2); q < c.hi(2); ++q)
                     s += (q + 2) * static_cast<long long>(c(i, j, q)) +
                          (c.contains(i + 1, j - 1, q) ? static_cast<long long>(c(i + 1, j - 1, q)) : 0);
                   out(i, j, k) = s;
                 });
}

template <class T>
void check_fixed_3d(long long lo, long long count) {
  const dims n = {5, 4, 13};
  INFO("element bytes " << sizeof(T) << ", fixed(" << lo << ", " << count << ")");
  acc::array<T, 3> w("w", n[0], n[1], n[2]);
  acc::array<long long, 3> out("out", n[0], n[1], n[2]);
  std::mt19937 gen(unsigned(lo + 100 * count));
  for (auto& x : w) x = static_cast<T>(int(gen() % 101) - 50);
  fixed_3d<T>(w, out, n, lo, count);
  const long long clo = std::max<long long>(0, lo), chi = std::max(clo, std::min<long long>(n[2], lo + count));
  for (int i = 0; i < n[0]; ++i)
    for (int j = 0; j < n[1]; ++j)
      for (int k = 0; k < n[2]; ++k) {
        const int oi = i / 2 * 2, oj = j / 2 * 2;
        long long e = 0;
        for (long long q = clo; q < chi; ++q) {
          e += (q + 2) * static_cast<long long>(w(i, j, q));
          // (i + 1, j - 1) is cached when inside the tile's box: rows [oi, oi + 3), columns [oj - 1, oj + 2).
          if (i + 1 < std::min(n[0], oi + 3) && j - 1 >= std::max(0, oj - 1)) e += static_cast<long long>(w(i + 1, j - 1, q));
        }
        INFO("i = " << i << ", j = " << j << ", k = " << k);
        REQUIRE(out(i, j, k) == e);
      }
}

}  // namespace

TEST_CASE("tile_loop: fixed last dimensions keep their ranges when widened to 16 bytes", "[12][tile][cache]") {
  fixed_rows_all<signed char>();
  fixed_rows_all<short>();
  fixed_rows_all<int>();
  fixed_rows_all<float>();
  fixed_rows_all<long long>();
  for (const long long lo : {-2, 0, 1, 3})
    for (const long long count : {1, 4, 6, 13}) {
      check_fixed_3d<signed char>(lo, count);
      check_fixed_3d<int>(lo, count);
      check_fixed_3d<double>(lo, count);
    }
}


// ---- acc::cache's list form ----

namespace {

/// A 16-byte element: the list form must load and store it whole.
struct quad {
  int x, y, z, w;
};

template <class T>
T make_value(int v) {
  if constexpr (std::is_same_v<T, quad>) return quad{v, -v, 3 * v, v ^ 5};
  else return static_cast<T>(v);
}
template <class T>
ACC_ROUTINE long long weigh(const T& v) {
  if constexpr (std::is_same_v<T, quad>) return v.x + 3LL * v.y + 5LL * v.z + 7LL * v.w;
  else return static_cast<long long>(v);
}

/// Section kinds (compile-time, as the range types are): fixed in every dimension, halo in
/// every dimension, or fixed in the first and halo in the others.
enum kind : int { all_fixed, all_halo, fixed_halo };

/// The ranges of one section relative to the tile, per dimension: fixed(origin + a, b) or
/// halo(a, b); `halo` follows the section's kind.
struct sec_spec {
  bool halo[3];
  int a[3];
  int b[3];
};
constexpr sec_spec spec(kind k, std::array<int, 3> a, std::array<int, 3> b) {
  return {{k == all_halo, k != all_fixed, k != all_fixed}, {a[0], a[1], a[2]}, {b[0], b[1], b[2]}};
}

/// acc::section(a, ...) of kind K for tile t.
template <int K, std::size_t R, class Index, class A>
ACC_ROUTINE auto section_of(const acc::tile_t<R, Index>& t, const A& a, const sec_spec& s) {
  auto r = [&](std::size_t d) {
    if constexpr (K == all_halo) return acc::halo(s.a[d], s.b[d]);
    else return acc::fixed(t.origin(d) + s.a[d], s.b[d]);
  };
  auto h = [&](std::size_t d) {
    if constexpr (K == all_fixed) return acc::fixed(t.origin(d) + s.a[d], s.b[d]);
    else return acc::halo(s.a[d], s.b[d]);
  };
  if constexpr (R == 1) return acc::section(a, r(0));
  else if constexpr (R == 2) return acc::section(a, r(0), h(1));
  else return acc::section(a, r(0), h(1), h(2));
}

/// Three sections of arrays a (T0), b (T1), c (T2), of kinds K0, K1, K2, cached in one call
/// per step (the first `count` of them) for two steps; every iteration adds weight * element
/// at (index + offset) for each section that holds it (weights per section and step).
template <class T0, class T1, class T2, std::size_t R, int K0, int K1, int K2>
void list_construct(acc::array<T0, R> a, acc::array<T1, R> b, acc::array<T2, R> c, acc::array<long long, R> out,
                    dims n, dims tile, int count, sec_spec s0, sec_spec s1, sec_spec s2, std::size_t bytes) {
  acc::tile_loop(extent_of<R>(n), tile_of<R>(tile), acc::cache_bytes(bytes), ACC_LAMBDA(const acc::tile_t<R>& t) {
    acc::per_iteration<long long> sum(t);
    auto add = [&](const auto& v, const sec_spec& s, int weight) {
      acc::tile_for(t, [&](auto... ii) {
        int j[] = {int(ii)...};
        for (std::size_t d = 0; d < R; ++d) j[d] += s.halo[d] ? (s.b[d] - s.a[d]) / 2 : s.a[d] + 1;
        if (has<R>(v, j)) sum(ii...) += weight * weigh(at<R>(v, j));
      });
    };
    for (int step = 0; step < 2; ++step) {
      if (count == 1) {
        const auto [va] = acc::cache(t, section_of<K0, R>(t, a, s0));
        add(va, s0, 1 + step);
      } else if (count == 2) {
        const auto [va, vb] = acc::cache(t, section_of<K0, R>(t, a, s0), section_of<K1, R>(t, b, s1));
        add(va, s0, 1 + step);
        add(vb, s1, 10 + step);
      } else {
        const auto [va, vb, vc] =
            acc::cache(t, section_of<K0, R>(t, a, s0), section_of<K1, R>(t, b, s1), section_of<K2, R>(t, c, s2));
        add(va, s0, 1 + step);
        add(vb, s1, 10 + step);
        add(vc, s2, 100 + step);
      }
    }
    acc::tile_for(t, [&](auto... ii) { out(ii...) = sum(ii...); });
  });
}

/// The sequential reference of one section's contribution.
template <std::size_t R, class A>
long long expect_section(const A& a, const int* i, dims tile, dims big, const sec_spec& s, int weight) {
  int j[3] = {};
  for (std::size_t d = 0; d < R; ++d) {
    const int origin = i[d] / tile[d] * tile[d];
    int lo, hi;
    if (s.halo[d]) {
      lo = origin - s.a[d];
      hi = origin + tile[d] + s.b[d];
      j[d] = i[d] + (s.b[d] - s.a[d]) / 2;
    } else {
      lo = origin + s.a[d];
      hi = lo + s.b[d];
      j[d] = i[d] + s.a[d] + 1;
    }
    if (j[d] < std::max(0, lo) || j[d] >= std::min(big[d], hi)) return 0;
  }
  return weight * weigh(at<R>(a, j));
}

template <class T0, class T1, class T2, std::size_t R, int K0, int K1, int K2>
void check_list_of(dims n, dims big, dims tile, int count, const sec_spec (&s)[3], unsigned seed) {
  INFO("rank " << R << " sections " << count << " extent " << n[0] << "x" << n[1] << "x" << n[2] << " array " << big[0]
                << "x" << big[1] << "x" << big[2] << " tile " << tile[0] << "x" << tile[1] << "x" << tile[2]);
  auto a = make_array<T0, R>("a", big);
  auto b = make_array<T1, R>("b", big);
  auto c = make_array<T2, R>("c", big);
  auto out = make_array<long long, R>("out", big);
  std::mt19937 gen(seed);
  for (auto& x : a) x = make_value<T0>(int(gen() % 201) - 100);
  for (auto& x : b) x = make_value<T1>(int(gen() % 201) - 100);
  for (auto& x : c) x = make_value<T2>(int(gen() % 201) - 100);
  for (auto& x : out) x = -7;
  // Room for the three boxes, each rounded up to 16 bytes.
  std::size_t bytes = 0;
  auto room = [&](const sec_spec& q, std::size_t size) {
    std::size_t v = 1;
    for (std::size_t d = 0; d < R; ++d) v *= static_cast<std::size_t>(q.halo[d] ? tile[d] + q.a[d] + q.b[d] : q.b[d]);
    bytes += (v * size + 15) / 16 * 16;
  };
  room(s[0], sizeof(T0));
  room(s[1], sizeof(T1));
  room(s[2], sizeof(T2));
  list_construct<T0, T1, T2, R, K0, K1, K2>(a, b, c, out, n, tile, count, s[0], s[1], s[2], bytes);
  REQUIRE(count_wrong<R>(out, big, n, [&](const int* i, bool inside) {
            if (!inside) return -7LL;
            long long e = 0;
            for (int step = 0; step < 2; ++step) {
              e += expect_section<R>(a, i, tile, big, s[0], 1 + step);
              if (count >= 2) e += expect_section<R>(b, i, tile, big, s[1], 10 + step);
              if (count >= 3) e += expect_section<R>(c, i, tile, big, s[2], 100 + step);
            }
            return e;
          }) == 0);
}

template <class T0, class T1, class T2, std::size_t R, int K0, int K1, int K2>
void check_list(dims n, dims big, dims tile, const sec_spec (&s)[3], unsigned seed) {
  for (int count = 1; count <= 3; ++count) check_list_of<T0, T1, T2, R, K0, K1, K2>(n, big, tile, count, s, seed + count);
}

}  // namespace

TEST_CASE("acc::cache list form: 1 to 3 sections, all, none or some of the gang's shape", "[12][tile][cache][list]") {
  // 1D, tiles of 64. Of the gang's shape: fixed size 64 (inside, across the start and the end
  // of the array, off it). Not: halos, other sizes.
  const sec_spec shaped1[3] = {spec(all_fixed, {0}, {64}), spec(all_fixed, {-5}, {64}), spec(all_fixed, {7}, {64})};
  check_list<float, double, signed char, 1, all_fixed, all_fixed, all_fixed>({1000, 1, 1}, {1003, 1, 1}, {64, 1, 1},
                                                                            shaped1, 1);
  check_list<short, quad, float, 1, all_fixed, all_fixed, all_fixed>({61, 1, 1}, {61, 1, 1}, {64, 1, 1}, shaped1, 5);
  const sec_spec unshaped1[3] = {spec(all_halo, {1}, {2}), spec(all_fixed, {-3}, {70}), spec(all_halo, {0}, {3})};
  check_list<double, float, quad, 1, all_halo, all_fixed, all_halo>({333, 1, 1}, {340, 1, 1}, {64, 1, 1}, unshaped1, 9);
  const sec_spec mixed1[3] = {spec(all_fixed, {3}, {64}), spec(all_halo, {2}, {1}), spec(all_fixed, {-64}, {64})};
  check_list<quad, signed char, double, 1, all_fixed, all_halo, all_fixed>({200, 1, 1}, {200, 1, 1}, {64, 1, 1}, mixed1,
                                                                          13);
  // 2D, 16 x 16 (matmul's shape; halo(0, 0) has it too) and 8 x 4.
  const sec_spec shaped2[3] = {spec(all_fixed, {0, 0}, {16, 16}), spec(all_halo, {0, 0}, {0, 0}),
                               spec(fixed_halo, {16, 0}, {16, 0})};
  check_list<float, double, short, 2, all_fixed, all_halo, fixed_halo>({45, 37, 1}, {47, 37, 1}, {16, 16, 1}, shaped2, 20);
  const sec_spec unshaped2[3] = {spec(all_halo, {1, 1}, {1, 1}), spec(fixed_halo, {-1, 0}, {10, 2}),
                                 spec(all_fixed, {0, 2}, {15, 16})};
  check_list<quad, float, signed char, 2, all_halo, fixed_halo, all_fixed>({45, 37, 1}, {45, 40, 1}, {16, 16, 1},
                                                                          unshaped2, 24);
  const sec_spec mixed2[3] = {spec(all_fixed, {0, 0}, {8, 4}), spec(all_halo, {1, 0}, {0, 1}),
                              spec(all_fixed, {-2, 1}, {8, 4})};
  check_list<short, quad, double, 2, all_fixed, all_halo, all_fixed>({29, 19, 1}, {29, 21, 1}, {8, 4, 1}, mixed2, 28);
  // 3D, 2 x 4 x 8.
  const sec_spec shaped3[3] = {spec(all_fixed, {0, 0, 0}, {2, 4, 8}), spec(all_fixed, {1, -2, 3}, {2, 4, 8}),
                               spec(fixed_halo, {-1, 0, 0}, {2, 0, 0})};
  check_list<double, quad, float, 3, all_fixed, all_fixed, fixed_halo>({5, 9, 17}, {6, 9, 19}, {2, 4, 8}, shaped3, 40);
  const sec_spec mixed3[3] = {spec(all_fixed, {0, 0, 0}, {2, 4, 8}), spec(all_halo, {1, 0, 1}, {0, 1, 2}),
                              spec(fixed_halo, {-1, 1, 0}, {3, 0, 1})};
  check_list<signed char, float, quad, 3, all_fixed, all_halo, fixed_halo>({5, 9, 17}, {5, 10, 17}, {2, 4, 8}, mixed3, 44);
}

namespace {

/// The same three sections through one list call and through three single calls: the views
/// must agree in range, in content and in where they lie in the area (the single calls come
/// second, after a tile_for that starts the area again, so the same pieces are reused).
/// What list_equals_singles compares between the two forms: the views' valid ranges and contents.
template <class A, class B, class C>
ACC_ROUTINE long long digest(const A& va, const B& vb, const C& vc) {
  long long s = 0;
  for (long long p = va.lo(0); p < va.hi(0); ++p)
    for (long long q = va.lo(1); q < va.hi(1); ++q) s += static_cast<long long>(va(p, q)) * (p + 3 * q);
  for (long long p = vb.lo(0); p < vb.hi(0); ++p)
    for (long long q = vb.lo(1); q < vb.hi(1); ++q) s += static_cast<long long>(vb(p, q)) * (p - q);
  for (long long p = vc.lo(0); p < vc.hi(0); ++p)
    for (long long q = vc.lo(1); q < vc.hi(1); ++q) s += static_cast<long long>(vc(p, q)) * (2 * p + q);
  return s + va.lo(0) + 10 * va.hi(1) + 100 * vb.lo(0) + 1000 * vb.hi(1) + 10000 * vc.lo(0);
}
/// How far the second view's storage lies from the first's, in bytes (the area's pieces).
template <class A, class B>
ACC_ROUTINE long long piece_distance(const A& va, const B& vb) {
  return reinterpret_cast<const char*>(&vb(vb.lo(0), vb.lo(1))) - reinterpret_cast<const char*>(&va(va.lo(0), va.lo(1)));
}

void list_equals_singles(acc::array<float, 2> a, acc::array<double, 2> b, acc::array<short, 2> c,
                         acc::array<long long, 2> out, int tile) {
  acc::tile_loop(acc::collapse(int(out.extent(0)), int(out.extent(1))), acc::tile_size(tile, tile),
                 acc::cache_bytes(4096), ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const int i0 = t.origin(0), j0 = t.origin(1);
                   acc::per_iteration<long long> mismatch(t);
                   const auto [la, lb, lc] =
                       acc::cache(t, acc::section(a, acc::fixed(i0, tile), acc::fixed(j0 + 1, tile)),
                                  acc::section(b, acc::halo(1, 1), acc::halo(0, 2)),
                                  acc::section(c, acc::fixed(i0 - 2, tile), acc::fixed(j0, tile)));
                   acc::per_iteration<long long> first(t);
                   acc::tile_for(t, [&](int i, int j) {
                     first(i, j) = digest(la, lb, lc);
                     mismatch(i, j) = piece_distance(la, lb);
                   });
                   const auto sa = acc::cache(t, a, acc::fixed(i0, tile), acc::fixed(j0 + 1, tile));
                   const auto sb = acc::cache(t, b, acc::halo(1, 1), acc::halo(0, 2));
                   const auto sc = acc::cache(t, c, acc::fixed(i0 - 2, tile), acc::fixed(j0, tile));
                   acc::tile_for(t, [&](int i, int j) {
                     const long long s = digest(sa, sb, sc);
                     // 0 when list and singles agree; the digest plus 1 otherwise (never 0 here).
                     out(i, j) = (s == first(i, j) && piece_distance(sa, sb) == mismatch(i, j)) ? 0 : s + 1;
                   });
                 });
}

}  // namespace

TEST_CASE("acc::cache list form: the same views, pieces and values as single calls", "[12][tile][cache][list]") {
  for (const int tile : {4, 8}) {
    INFO("tile " << tile);
    acc::array<float, 2> a("a", 23, 19);
    acc::array<double, 2> b("b", 23, 19);
    acc::array<short, 2> c("c", 23, 19);
    acc::array<long long, 2> out("out", 21, 17);
    std::mt19937 gen(static_cast<unsigned>(tile));
    for (auto& x : a) x = float(int(gen() % 201) - 100);
    for (auto& x : b) x = double(int(gen() % 201) - 100);
    for (auto& x : c) x = short(int(gen() % 201) - 100);
    for (auto& x : out) x = -1;
    list_equals_singles(a, b, c, out, tile);
    for (const long long x : out) REQUIRE(x == 0);
  }
}

namespace {

void list_overflow(acc::array<float, 2> a, acc::array<double, 2> b, std::size_t bytes) {
  acc::tile_loop(acc::collapse(16, 16), acc::tile_size(16, 16), acc::cache_bytes(bytes),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const auto [x, y] = acc::cache(t, acc::section(a, acc::fixed(0, 16), acc::fixed(0, 16)),
                                                  acc::section(b, acc::fixed(0, 16), acc::fixed(0, 16)));
                   acc::tile_for(t, [&](int i, int j) { a(i, j) = float(x(i, j) + y(i, j)); });
                 });
}

}  // namespace

// A GPU traps instead, losing the context: tests/bounds/traps.cpp checks that in a process of its own.
TEST_CASE("acc::cache list form: too little room is acc::bad_clause naming the bytes",
          "[12][tile][cache][list][host]") {
  acc::array<float, 2> a("a", 16, 16);
  acc::array<double, 2> b("b", 16, 16);
  for (auto& x : a) x = 1.0f;
  for (auto& x : b) x = 2.0;
  // The first section fits (1024 bytes), the second (2048) does not: reported as the second
  // single call would be.
  try {
    list_overflow(a, b, 1024 + 1000);
    FAIL("no acc::bad_clause");
  } catch (const acc::bad_clause& e) {
    const std::string what = e.what();
    INFO(what);
    REQUIRE(what.find("acc::tile_loop at 12_tiles_cache.cpp:") != std::string::npos);
    REQUIRE(what.find("a view of 2048 bytes takes 2048 (each view starts on 16 bytes), but 1024 of the 2024 bytes") !=
            std::string::npos);
  }
  list_overflow(a, b, 3072);
  for (const float x : a) REQUIRE(x == 3.0f);
}

// ---- the blocked matrix product of examples/matmul_tiled, in exact integers ----

namespace {

constexpr int side = 16;

void product_cache(acc::array<long long, 2> a, acc::array<long long, 2> b, acc::array<long long, 2> c) {
  const int M = int(a.extent(0)), K = int(a.extent(1)), N = int(b.extent(1));
  acc::tile_loop(acc::collapse(M, N), acc::tile_size(side, side), acc::cache_bytes(2 * side * side * sizeof(long long)),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const int i0 = t.origin(0), j0 = t.origin(1);
                   acc::per_iteration<long long> sum(t);
                   for (int k0 = 0; k0 < K; k0 += side) {
                     const auto as = acc::cache(t, a, acc::fixed(i0, side), acc::fixed(k0, side));
                     const auto bs = acc::cache(t, b, acc::fixed(k0, side), acc::fixed(j0, side));
                     acc::tile_for(t, [&](int i, int j) {
                       long long s = sum(i, j);
                       for (int k = k0; k < (K < k0 + side ? K : k0 + side); ++k) s += as(i, k) * bs(k, j);
                       sum(i, j) = s;
                     });
                   }
                   acc::tile_for(t, [&](int i, int j) { c(i, j) = sum(i, j); });
                 });
}

void product_cache_list(acc::array<long long, 2> a, acc::array<long long, 2> b, acc::array<long long, 2> c) {
  const int M = int(a.extent(0)), K = int(a.extent(1)), N = int(b.extent(1));
  acc::tile_loop(acc::collapse(M, N), acc::tile_size(side, side), acc::cache_bytes(2 * side * side * sizeof(long long)),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const int i0 = t.origin(0), j0 = t.origin(1);
                   acc::per_iteration<long long> sum(t);
                   for (int k0 = 0; k0 < K; k0 += side) {
                     const auto [as, bs] = acc::cache(t, acc::section(a, acc::fixed(i0, side), acc::fixed(k0, side)),
                                                         acc::section(b, acc::fixed(k0, side), acc::fixed(j0, side)));
                     acc::tile_for(t, [&](int i, int j) {
                       long long s = sum(i, j);
                       for (int k = k0; k < (K < k0 + side ? K : k0 + side); ++k) s += as(i, k) * bs(k, j);
                       sum(i, j) = s;
                     });
                   }
                   acc::tile_for(t, [&](int i, int j) { c(i, j) = sum(i, j); });
                 });
}

void product_team(acc::array<long long, 2> a, acc::array<long long, 2> b, acc::array<long long, 2> c) {
  const int M = int(a.extent(0)), K = int(a.extent(1)), N = int(b.extent(1));
  acc::tile_loop(acc::collapse(M, N), acc::tile_size(side, side),
                 acc::dist_private(a, acc::halo(0, 0), acc::fixed(0, side)),
                 acc::dist_private(b, acc::fixed(0, side), acc::halo(0, 0)),
                 ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<long long, 2>& a_block,
                            const acc::cached_view<long long, 2>& b_block) {
                   const int i0 = t.origin(0), j0 = t.origin(1), ni = t.count(0), nj = t.count(1);
                   acc::per_iteration<long long> sum(t);
                   // As examples/matmul_tiled: a full tile's full steps first, one element per block each.
                   const int k_full = ni == side && nj == side ? K / side * side : 0;
                   int k0 = 0;
                   for (; k0 < k_full; k0 += side) {
                     acc::tile_for(t, [&](int i, int j) {
                       const long long x = a(i, k0 + (j - j0)), y = b(k0 + (i - i0), j);
                       a_block(i, j - j0) = x;
                       b_block(i - i0, j) = y;
                     });
                     acc::tile_for(t, [&](int i, int j) {
                       long long s = sum(i, j);
                       for (int kk = 0; kk < side; ++kk) s += a_block(i, kk) * b_block(kk, j);
                       sum(i, j) = s;
                     });
                   }
                   for (; k0 < K; k0 += side) {
                     const int kn = K - k0 < side ? K - k0 : side;
                     acc::tile_for(t, [&](int i, int j) {
                       for (int kk = j - j0; kk < kn; kk += nj) a_block(i, kk) = a(i, k0 + kk);
                       for (int kk = i - i0; kk < kn; kk += ni) b_block(kk, j) = b(k0 + kk, j);
                     });
                     acc::tile_for(t, [&](int i, int j) {
                       long long s = sum(i, j);
                       for (int kk = 0; kk < kn; ++kk) s += a_block(i, kk) * b_block(kk, j);
                       sum(i, j) = s;
                     });
                   }
                   acc::tile_for(t, [&](int i, int j) { c(i, j) = sum(i, j); });
                 });
}

}  // namespace

TEST_CASE("blocked matrix product in 16 x 16 tiles: acc::cache (single and list) and team memory", "[12][tile][cache]") {
  struct size3 {
    int m, k, n;
  };
  for (const size3 s : {size3{1, 1, 1}, size3{16, 16, 16}, size3{37, 29, 23}, size3{64, 48, 33}, size3{17, 40, 15},
                        size3{48, 32, 64}, size3{31, 17, 47}}) {
    INFO("M = " << s.m << ", K = " << s.k << ", N = " << s.n);
    acc::array<long long, 2> a("a", s.m, s.k), b("b", s.k, s.n), c("c", s.m, s.n);
    std::mt19937 gen(unsigned(s.m * 100 + s.k * 10 + s.n));
    for (auto& x : a) x = int(gen() % 201) - 100;
    for (auto& x : b) x = int(gen() % 201) - 100;
    std::vector<long long> ref(std::size_t(s.m) * s.n, 0);
    for (int i = 0; i < s.m; ++i)
      for (int k = 0; k < s.k; ++k)
        for (int j = 0; j < s.n; ++j) ref[std::size_t(i) * s.n + j] += a(i, k) * b(k, j);
    for (auto& x : c) x = -1;
    product_cache(a, b, c);
    REQUIRE(std::equal(ref.begin(), ref.end(), c.begin()));
    for (auto& x : c) x = -1;
    product_cache_list(a, b, c);
    REQUIRE(std::equal(ref.begin(), ref.end(), c.begin()));
    for (auto& x : c) x = -1;
    product_team(a, b, c);
    REQUIRE(std::equal(ref.begin(), ref.end(), c.begin()));
  }
}

// ---- indices beyond 32 bits ----

namespace {

// Tiles of a 64-bit iteration space (the general kernel): iteration i reads x at i - base
// through acc::cache blocks of the gang's shape, indexed with long long.
void wide_cache(long long base, acc::array<long long> x, acc::array<long long> out) {
  const long long n = static_cast<long long>(x.size());
  acc::tile_loop(acc::range(base, base + n), acc::tile_size(64), acc::cache_bytes(64 * sizeof(long long)),
                 ACC_LAMBDA(const acc::tile_t<1, long long>& t) {
                   const auto v = acc::cache(t, x, acc::fixed(t.origin() - base + 3, 64));
                   acc::tile_for(t, [&](long long i) { out[i - base] = v.contains(i - base + 3) ? v(i - base + 3) : -1; });
                 });
}

// Ranges that start beyond 32 bits cache nothing (their origin must not wrap to a small index).
void far_ranges(acc::array<long long> x, acc::array<long long> out, long long far) {
  acc::tile_loop(64, acc::tile_size(64), acc::cache_bytes(2 * 64 * sizeof(long long)),
                 ACC_LAMBDA(const acc::tile_t<1>& t) {
                   const auto up = acc::cache(t, x, acc::fixed(far, 64));
                   const auto down = acc::cache(t, x, acc::fixed(-far, 64));
                   acc::tile_for(t, [&](int i) {
                     out[i] = (up.hi() - up.lo()) * 1000 + (down.hi() - down.lo()) * 100 + (up.contains(i) ? 10 : 0) +
                              (down.contains(i) ? 1 : 0);
                   });
                 });
}

}  // namespace

TEST_CASE("acc::cache with 64-bit indices, and ranges beyond 32 bits", "[12][tile][cache]") {
  const long long base = 3'000'000'000LL + 5;  // iteration indices past 2^31
  acc::array<long long> x("x", 200), out("out", 200);
  for (int k = 0; k < 200; ++k) x[k] = 7 * k - 300;
  wide_cache(base, x, out);
  for (int k = 0; k < 200; ++k) REQUIRE(out[k] == (k + 3 < 200 ? x[k + 3] : -1));
  for (const long long far : {(1LL << 32) + 3, (1LL << 32), (1LL << 31) + 7}) {
    INFO("far = " << far);
    acc::array<long long> o("o", 64);
    far_ranges(x, o, far);
    for (int k = 0; k < 64; ++k) REQUIRE(o[k] == 0);
  }
}

namespace {

// One section type serves data clauses and acc::cache: rows of a matrix made on the host with
// acc::section(m, lo, len), captured by the body (which maps m as implicit data), cached beside
// a section given by ranges inside the body.
void cache_row_section(acc::section_t<int, 2> rows, acc::array<long long> v, acc::array<long long, 2> out, int lo,
                       int len) {
  acc::tile_loop(acc::collapse(int(out.extent(0)), int(out.extent(1))), acc::tile_size(4, 8), acc::cache_bytes(1024),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const auto [r, vs] = acc::cache(t, rows, acc::section(v, acc::fixed(2, 6)));
                   acc::tile_for(t, [&](int i, int j) { out(i, j) = r(lo + i % len, j) * 100 + vs(2 + (i + j) % 6); });
                 });
}

}  // namespace

/// A rows x nc matrix and an 11-element vector of random values, and a 7 x nc output, for the
/// row-section cases below.
struct row_section_inputs {
  acc::array<int, 2> m;
  acc::array<long long> v{"v", 11};
  acc::array<long long, 2> out;
  row_section_inputs(int rows, int nc) : m("m", rows, nc), out("out", 7, nc) {
    std::mt19937 gen(static_cast<unsigned>(rows));
    for (auto& x : m) x = int(gen() % 2001) - 1000;
    for (auto& x : v) x = (long long)(gen() % 99);
  }
};

TEST_CASE("acc::cache takes a data-clause section, made outside the body and captured", "[12][tile][cache][list]") {
  const int nr = GENERATE(9, 13), nc = 10, lo = 3, len = 5;
  const row_section_inputs in(nr, nc);
  const auto& m = in.m;
  const auto& v = in.v;
  const auto& out = in.out;
  cache_row_section(acc::section(m, lo, len), v, out, lo, len);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < nc; ++j) REQUIRE(out(i, j) == m(lo + i % len, j) * 100LL + v[2 + (i + j) % 6]);
}

// acc::cache's views are read-only in both forms, also over an array of non-const elements: a
// write would stay in shared memory on a GPU and reach the array on the host
// (tests/compile_fail/tile_cache_write.cpp: it does not compile).
static_assert(std::is_same_v<decltype(acc::cache(std::declval<const acc::tile_t<1>&>(),
                                                 std::declval<const acc::array<int>&>(), acc::fixed(0, 1))),
                             acc::cached_view<const int, 1>>);
static_assert(std::is_same_v<decltype(acc::cache(std::declval<const acc::tile_t<2>&>(),
                                                 acc::section(std::declval<const acc::array<int, 2>&>(),
                                                              acc::fixed(0, 1), acc::halo(0, 0)),
                                                 acc::section(std::declval<const acc::view<float>&>(),
                                                              acc::halo(1, 1)))),
                             acc::cached_views_t<acc::cached_view<const int, 2>, acc::cached_view<const float, 1>>>);

namespace {

// acc::cache called per iteration, inside tile_for, instead of in tile-level code before it (a
// mistake whatever room cache_bytes gives). if_(false): on a GPU the report is a trap, which
// would lose the context; the host throws.
void cache_in_tile_for(acc::array<int> a, acc::array<int> out, std::size_t bytes, bool list) {
  acc::tile_loop(32, acc::tile_size(8), acc::cache_bytes(bytes), acc::if_(false), ACC_LAMBDA(const acc::tile_t<1>& t) {
    acc::tile_for(t, [&](int i) {
      if (list) {
        const auto [c] = acc::cache(t, acc::section(a, acc::halo(0, 0)));
        out[i] = c(i);
      } else {
        const auto c = acc::cache(t, a, acc::halo(0, 0));
        out[i] = c(i);
      }
    });
  });
}

}  // namespace

TEST_CASE("acc::cache inside tile_for is acc::error saying it belongs before the tile_for", "[12][tile][cache][errors]") {
  acc::array<int> a("a", 32), out("out", 32);
  for (int i = 0; i < 32; ++i) a[i] = i;
  for (const std::size_t bytes : {std::size_t(32), std::size_t(4096)}) {
    for (const bool list : {false, true}) {
      INFO("cache_bytes(" << bytes << "), list form " << list);
      REQUIRE_THROWS_AS(cache_in_tile_for(a, out, bytes, list), acc::error);
      REQUIRE_THROWS_WITH(cache_in_tile_for(a, out, bytes, list),
                          Catch::Contains("acc::tile_loop at 12_tiles_cache.cpp:") &&
                              Catch::Contains("acc::cache: called inside acc::tile_for; acc::cache is tile-level code "
                                              "that every thread of the gang runs: call it before the tile_for"));
    }
  }
}

namespace {

// acc::section(a, lo, len), OpenACC's `a[lo:len]`, made in tile-level code (so in device code
// on a GPU) for acc::cache: rows [lo, lo + len) of m, elements [lo, lo + len) of v. if_(on_host)
// runs it on the host where a GPU would take it.
void cache_rows_made_in_body(acc::array<int, 2> m, acc::array<long long> v, acc::array<long long, 2> out, int lo,
                             int len, bool on_host = false) {
  acc::tile_loop(acc::collapse(int(out.extent(0)), int(out.extent(1))), acc::tile_size(4, 8), acc::cache_bytes(1024),
                 acc::if_(!on_host), ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const auto [r, vs] = acc::cache(t, acc::section(m, lo, len), acc::section(v, lo, len));
                   acc::tile_for(t, [&](int i, int j) {
                     out(i, j) = r(lo + i % len, j) * 100 + vs(lo + (i + j) % len) + (r.hi(0) - r.lo(0)) * 1000000;
                   });
                 });
}

}  // namespace

TEST_CASE("acc::cache takes a row section made in tile-level code", "[12][tile][cache][list]") {
  const int nr = GENERATE(9, 13), nc = 10, lo = 3, len = 5;
  const row_section_inputs in(nr, nc);
  const auto& m = in.m;
  const auto& v = in.v;
  const auto& out = in.out;
  cache_rows_made_in_body(m, v, out, lo, len);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < nc; ++j)
      REQUIRE(out(i, j) == m(lo + i % len, j) * 100LL + v[lo + (i + j) % len] + len * 1000000LL);
  // Rows outside the array: acc::bad_clause naming the line that made the section, as outside a
  // body (v's 11 elements, or m's 9 rows: which section is made first is unspecified).
  REQUIRE_THROWS_AS(cache_rows_made_in_body(m, v, out, 8, 5, true), acc::bad_clause);
  REQUIRE_THROWS_WITH(cache_rows_made_in_body(m, v, out, 8, 5, true),
                      Catch::Contains("acc::section at 12_tiles_cache.cpp:") &&
                          (Catch::Contains("[8:5] is outside 'v', whose extent is 11") ||
                           Catch::Contains("[8:5] is outside 'm', whose extent is 9 rows")));
}
