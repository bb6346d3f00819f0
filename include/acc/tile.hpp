//! @file Software-managed-cache tiles: acc::tile_loop with cached arrays in fetch, channel and
//! write-back modes (Lashgar & Baniyasi's `fcw`, 2015), gang-private team-memory chunks (MACC's
//! dist_private / dist_firstprivate / dist_lastprivate, Ozen 2014), and acc::cache, OpenACC's
//! `cache` directive (OpenACC 3.3 §2.10).
//!
//! A tile is the block of iterations one gang runs: acc::tile_size(16, 16) gives 16 x 16
//! iterations per gang, one GPU thread each. For each array named in an acc::cached(...) clause
//! the gang keeps the tile's part of the array (plus a halo, or a constant range) in shared
//! memory; the body receives an acc::cached_view per clause and indexes it with global indices.
//!
//!   acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(16, 16),
//!                  acc::cached(t, acc::fetch, acc::halo(1, 1), acc::halo(1, 1)),
//!     ACC_LAMBDA(int i, int j, const acc::cached_view<float, 2>& tc) {
//!       out(i, j) = tc(i - 1, j) + tc(i + 1, j) + tc(i, j - 1) + tc(i, j + 1) - 4 * tc(i, j);
//!     });
//!
//! The body is either per iteration (form 1 above: indices, then one view per cached clause;
//! no barriers inside), or tile-level code (form 2: the tile handle, then the views) that runs
//! iteration loops with acc::tile_for, synchronises with acc::tile_barrier, keeps
//! iteration-private values across loops in acc::per_iteration and stages ranges with
//! acc::cache:
//!
//!   acc::tile_loop(n, acc::tile_size(256), acc::cache_bytes(256 * sizeof(float4)),
//!     ACC_LAMBDA(const acc::tile_t<1>& t) {
//!       acc::per_iteration<float3> f(t);
//!       for (int jt = 0; jt < n; jt += 256) {
//!         auto p = acc::cache(t, pos, acc::fixed(jt, std::min(256, n - jt)));
//!         acc::tile_for(t, [&](int i) { for (int j = jt; j < p.hi(0); ++j) f(i) += force(pos[i], p(j)); });
//!       }
//!       acc::tile_for(t, [&](int i) { out[i] = f(i); });
//!     });
//!
//! acc::cache also takes a list of array sections, as the directive does
//! (`#pragma acc cache(a[i0:16][k0:16], b[k0:16][j0:16])`): one call, one view per section, and
//! on a GPU every section's load issued before any store to shared memory:
//!
//!   const auto [as, bs] = acc::cache(t, acc::section(a, acc::fixed(i0, 16), acc::fixed(k0, 16)),
//!                                       acc::section(b, acc::fixed(k0, 16), acc::fixed(j0, 16)));
#pragma once

#include <acc/array.hpp>
#include <acc/clauses.hpp>
#include <acc/detail/capture.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>
#include <acc/runtime.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <new>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace acc {

// ------------------------------------------------------------------------------------------
// Clauses and range specifications (plain, trivially copyable values)
// ------------------------------------------------------------------------------------------

/// The shape of a tile: iterations per gang in each dimension (1 to 3, as many as the extent
/// has). On a GPU each iteration of a tile is one thread of the gang, the last dimension
/// varying fastest (threadIdx.x), so the product must not exceed the device's block limit
/// (1024). acc::vector_length(n) is accepted as a 1D shape too.
template <std::size_t Rank>
struct tile_size_t {
  std::array<int, Rank> extents;
  friend constexpr bool operator==(const tile_size_t&, const tile_size_t&) = default;
};

/// acc::tile_size(16, 16): tiles of 16 x 16 iterations. Each value must be >= 1 (else
/// acc::bad_clause when the construct runs).
template <class... N>
constexpr tile_size_t<sizeof...(N)> tile_size(N... n) noexcept {
  static_assert(sizeof...(N) >= 1 && sizeof...(N) <= 3,
                "acc::tile_size: give one to three extents, e.g. acc::tile_size(16, 16)");
  static_assert(((std::is_integral_v<N> && !std::is_same_v<N, bool>) && ...),
                "acc::tile_size: extents must be integers");
  return {{static_cast<int>(n)...}};
}

/// A range relative to the iteration index in one dimension: iteration i may read elements
/// i - before .. i + after (`a[i-1 .. i+2]` is halo(1, 2)). The tile caches
/// [tile origin - before, tile origin + tile size + after), clipped to the array.
struct halo_t {
  int before;
  int after;
  friend constexpr bool operator==(const halo_t&, const halo_t&) = default;
};
constexpr halo_t halo(int before, int after) noexcept { return {before, after}; }

/// A constant range in one dimension, the same for every tile: elements [lo, lo + count),
/// clipped to the array (N-body's `pos[jt .. jt + 256]`).
struct fixed_t {
  std::int64_t lo;
  std::int64_t count;
  friend constexpr bool operator==(const fixed_t&, const fixed_t&) = default;
};
constexpr fixed_t fixed(std::int64_t lo, std::int64_t count) noexcept { return {lo, count}; }

/// How a cached array is staged; combine with |. The storage is the same in every mode:
/// - acc::fetch: the tile's range (with its halo) is loaded cooperatively before the body
///   (coalesced, clipped to the array's bounds, one barrier after).
/// - acc::channel: iterations of the tile communicate through the cached range: a write is
///   visible to every iteration of the tile after the next acc::tile_barrier, at the end of
///   every acc::tile_for, and at the construct's implicit barriers.
/// - acc::write_back: after the body (and a barrier) the tile's own range (without the halo,
///   clipped to the extent and the array) is stored to the array. Along a fixed() dimension
///   the whole fixed range is stored by every tile: make the tiles agree, or use one tile.
/// - acc::none (no mode): uninitialised gang-private storage, never stored (MACC's dist_private).
/// Writes to a cached view reach the array only through write_back.
struct cache_mode_t {
  unsigned bits = 0;
  friend constexpr cache_mode_t operator|(cache_mode_t a, cache_mode_t b) noexcept { return {a.bits | b.bits}; }
  friend constexpr bool operator==(cache_mode_t, cache_mode_t) = default;
  /// Whether every mode of m is in this one.
  constexpr bool has(cache_mode_t m) const noexcept { return (bits & m.bits) == m.bits && m.bits != 0; }
};
inline constexpr cache_mode_t none{0};
inline constexpr cache_mode_t fetch{1};
inline constexpr cache_mode_t channel{2};
inline constexpr cache_mode_t write_back{4};

/// Bytes of shared memory reserved for the acc::cache calls of a tile_loop body (the sum of
/// the sizes of the views that are live at once, each rounded up to 16 bytes). Without it,
/// acc::cache has no room.
struct cache_bytes_t {
  std::size_t value;
};
constexpr cache_bytes_t cache_bytes(std::size_t n) noexcept { return {n}; }

namespace detail {

/// One dimension of a cached range, halo or fixed.
struct dim_range {
  bool is_fixed = false;
  std::int64_t a = 0;  // halo: before; fixed: lo
  std::int64_t b = 0;  // halo: after;  fixed: count
};
ACC_DETAIL_HD constexpr dim_range to_dim_range(halo_t h) noexcept { return {false, h.before, h.after}; }
ACC_DETAIL_HD constexpr dim_range to_dim_range(fixed_t f) noexcept { return {true, f.lo, f.count}; }

template <class R>
inline constexpr bool is_range_v = std::is_same_v<std::remove_cvref_t<R>, halo_t> || std::is_same_v<std::remove_cvref_t<R>, fixed_t>;

template <class A> struct cacheable : std::false_type {};
template <class T, std::size_t R> struct cacheable<view<T, R>> : std::true_type {
  using element_type = T;
  static constexpr std::size_t rank = R;
};
template <class T, std::size_t R> struct cacheable<array<T, R>> : std::true_type {
  using element_type = T;
  static constexpr std::size_t rank = R;
};

inline constexpr std::size_t label_chars = 24;

}  // namespace detail

/// One cached array of a tile_loop (made by acc::cached, dist_private, dist_firstprivate,
/// dist_lastprivate): the array, its modes and one range per dimension. `Fixed` has bit d set
/// when dimension d has an acc::fixed range (known from the types of the clause's arguments).
template <class T, std::size_t Rank, unsigned Fixed = 0>
struct cached_t {
  using element_type = T;
  static constexpr std::size_t rank = Rank;
  static constexpr unsigned fixed_dims = Fixed;
  view<T, Rank> source;
  cache_mode_t mode;
  detail::dim_range range[Rank];
  // The start of the array's label, for reports from the device (bounds-checking builds).
  char label[detail::label_chars];
};

namespace detail {
/// Bit d set when the d-th range is acc::fixed.
template <class... Ranges, std::size_t... D>
constexpr unsigned fixed_mask_of(std::index_sequence<D...>) noexcept {
  return (0u | ... | (std::is_same_v<std::remove_cvref_t<Ranges>, fixed_t> ? 1u << D : 0u));
}
template <class... Ranges>
constexpr unsigned fixed_mask() noexcept {
  return fixed_mask_of<Ranges...>(std::index_sequence_for<Ranges...>{});
}

template <class T, std::size_t Rank, class... Ranges>
cached_t<T, Rank, fixed_mask<Ranges...>()> make_cached(const view<T, Rank>& v, cache_mode_t mode, Ranges... r) {
  cached_t<T, Rank, fixed_mask<Ranges...>()> c{v, mode, {}, {}};
  if constexpr (sizeof...(Ranges) == 0) {
    for (std::size_t d = 0; d < Rank; ++d) c.range[d] = dim_range{false, 0, 0};
  } else {
    const dim_range given[] = {to_dim_range(r)...};
    for (std::size_t d = 0; d < Rank; ++d) c.range[d] = given[d];
  }
  const char* l = v.label();
  std::size_t k = 0;
  for (; l[k] && k + 1 < label_chars; ++k) c.label[k] = l[k];
  c.label[k] = '\0';
  return c;
}

template <class A, class... Ranges>
constexpr bool check_cached_args() {
  if constexpr (!cacheable<std::remove_cvref_t<A>>::value) {
    static_assert(dependent_false<A>,
                  "acc::cached: the first argument must be an acc::array or acc::view; "
                  "wrap raw memory as acc::view<T, Rank>(p, n0[, n1[, n2]])");
    return false;
  } else if constexpr (!(is_range_v<Ranges> && ...)) {
    static_assert(dependent_false<A>,
                  "acc::cached: each range must be acc::halo(before, after) or acc::fixed(lo, count)");
    return false;
  } else if constexpr (sizeof...(Ranges) != 0 && sizeof...(Ranges) != cacheable<std::remove_cvref_t<A>>::rank) {
    static_assert(dependent_false<A>,
                  "acc::cached: give one range per dimension of the array (or none for halo(0, 0) in every "
                  "dimension), e.g. acc::cached(a, acc::fetch, acc::halo(1, 1), acc::halo(1, 1)) for a rank-2 array");
    return false;
  } else {
    return true;
  }
}
}  // namespace detail

/// A cached array for acc::tile_loop: `a` (acc::array or acc::view of rank R, the tile's rank)
/// with `modes` (acc::fetch, channel, write_back combined with |, or acc::none) and one range
/// per dimension (acc::halo(before, after) or acc::fixed(lo, count); none at all means
/// halo(0, 0) everywhere). The body receives an acc::cached_view<T, R> for it, in clause order.
/// e.g. acc::cached(temp, acc::fetch, acc::halo(1, 1), acc::halo(1, 1))
template <class A, class... Ranges>
auto cached(const A& a, cache_mode_t modes, Ranges... ranges) {
  if constexpr (detail::check_cached_args<A, Ranges...>()) {
    using C = detail::cacheable<std::remove_cvref_t<A>>;
    return detail::make_cached(static_cast<view<typename C::element_type, C::rank>>(a), modes, ranges...);
  }
}
/// MACC's dist_private: uninitialised gang-private team memory shaped like a's tile range
/// (cached(a, acc::none, ranges...)).
template <class A, class... Ranges>
auto dist_private(const A& a, Ranges... ranges) {
  return cached(a, none, ranges...);
}
/// MACC's dist_firstprivate: the tile's range of a, loaded (cached(a, acc::fetch, ranges...)).
template <class A, class... Ranges>
auto dist_firstprivate(const A& a, Ranges... ranges) {
  return cached(a, fetch, ranges...);
}
/// MACC's dist_lastprivate: uninitialised, stored back at the end (cached(a, acc::write_back, ranges...)).
template <class A, class... Ranges>
auto dist_lastprivate(const A& a, Ranges... ranges) {
  return cached(a, write_back, ranges...);
}

// ------------------------------------------------------------------------------------------
// What the body sees: cached_view, tile_t, per_iteration
// ------------------------------------------------------------------------------------------

namespace detail {

/// The part of an array a tile caches: storage layout (origin, ext) and the valid range
/// [lo, hi) = the box clipped to the array.
template <std::size_t R>
struct cache_box {
  std::int64_t origin[R];
  std::int64_t ext[R];
  std::int64_t lo[R];
  std::int64_t hi[R];
};

#if defined(ACC_BOUNDS_CHECK)
ACC_DETAIL_HD inline void cache_index_error(const char* label, std::size_t dim, long long index, long long lo,
                                            long long hi) {
#  if defined(__CUDA_ARCH__)
  printf("acc: index %lld of dimension %llu of %s%s%s is outside its cached range [%lld, %lld)\n", index,
         (unsigned long long)dim, label && label[0] ? "'" : "a cached array", label && label[0] ? label : "",
         label && label[0] ? "'" : "", lo, hi);
  __trap();
#  else
  throw error("acc: index " + std::to_string(index) + " of dimension " + std::to_string(dim) + " of " +
              (label && label[0] ? "'" + std::string(label) + "'" : std::string("a cached array")) +
              " is outside its cached range [" + std::to_string(lo) + ", " + std::to_string(hi) + ")");
#  endif
}
#endif

struct tile_access;

}  // namespace detail

/// A tile's cached copy of an array (or, on the host backend for fetch-only arrays, the array
/// itself), indexed with the array's global indices: v(i - 1, j) is element (i - 1, j).
/// - Valid indices are the cached range lo(d) <= i < hi(d): the tile's range with its halo,
///   or the fixed range, clipped to the array. With ACC_BOUNDS_CHECK an index outside it is
///   reported with the array's label, the index and the range (acc::error on the host; a
///   message and a trap on a GPU, where views made by acc::cache carry no label).
/// - Elements are T& into shared memory on a GPU. Without acc::fetch they start uninitialised.
/// - Trivially copyable; cheap to pass by value or reference.
template <class T, std::size_t Rank>
class cached_view {
public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  static constexpr std::size_t rank() noexcept { return Rank; }

  /// Element (i[, j[, k]]), by global index.
  template <class... I>
  ACC_DETAIL_HD T& operator()(I... i) const {
    static_assert(sizeof...(I) == Rank, "acc::cached_view: index with one integer per dimension of the cached array");
    static_assert(detail::all_integral_v<I...>, "acc::cached_view: indices must be integers");
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
#if defined(ACC_BOUNDS_CHECK)
    for (std::size_t d = 0; d < Rank; ++d)
      if (idx[d] < lo_[d] || idx[d] >= hi_[d]) detail::cache_index_error(label_, d, idx[d], lo_[d], hi_[d]);
#endif
#if defined(__CUDA_ARCH__)
    // Shared memory: offsets fit in 32 bits, and unsigned arithmetic wraps to the right value.
    // The last dimension's stride is 1. With int indices (when an access is valid, the origins
    // fit an int too) its term is added in signed arithmetic to a row offset that excludes
    // nothing variable: v(i, k0 + k) for an unrolled k is then one address plus immediate
    // offsets, and four of them one 16-byte load when the compiler can prove the alignment, as
    // for a hand-written `float as[16][16]`.
    if constexpr (((sizeof(I) < sizeof(int) || (sizeof(I) == sizeof(int) && std::is_signed_v<I>)) && ...)) {
      const int ii[] = {static_cast<int>(i)...};
      unsigned rows = 0;
      for (std::size_t d = 0; d + 1 < Rank; ++d)
        rows += (static_cast<unsigned>(ii[d]) - static_cast<unsigned>(origin_[d])) * static_cast<unsigned>(stride_[d]);
      const int row = static_cast<int>(rows) - static_cast<int>(origin_[Rank - 1]);
      return p_[row + ii[Rank - 1]];
    } else {
      unsigned off = 0;
      for (std::size_t d = 0; d < Rank; ++d)
        off += (static_cast<unsigned>(idx[d]) - static_cast<unsigned>(origin_[d])) * static_cast<unsigned>(stride_[d]);
      return p_[static_cast<int>(off)];
    }
#else
    std::int64_t off = 0;
    for (std::size_t d = 0; d < Rank; ++d) off += (idx[d] - origin_[d]) * stride_[d];
    return p_[off];
#endif
  }
  /// Element i of a rank-1 view.
  template <class I>
  ACC_DETAIL_HD T& operator[](I i) const {
    static_assert(Rank == 1, "acc::cached_view: v[i] is for rank 1; write v(i, j) for rank 2");
    return (*this)(i);
  }

  /// First valid global index of dimension d (the cached range clipped to the array).
  ACC_DETAIL_HD std::int64_t lo(std::size_t d = 0) const noexcept { return lo_[d]; }
  /// One past the last valid global index of dimension d.
  ACC_DETAIL_HD std::int64_t hi(std::size_t d = 0) const noexcept { return hi_[d]; }
  /// Whether (i[, j[, k]]) is inside the cached range.
  template <class... I>
  ACC_DETAIL_HD bool contains(I... i) const noexcept {
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    for (std::size_t d = 0; d < Rank; ++d)
      if (idx[d] < lo_[d] || idx[d] >= hi_[d]) return false;
    return true;
  }

  cached_view() = default;

  /// A read-only view of the same cached elements (a body may take cached_view<const T, R>).
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  ACC_DETAIL_HD cached_view(const cached_view<U, Rank>& o) noexcept : p_(o.p_) {
    for (std::size_t d = 0; d < Rank; ++d) {
      origin_[d] = o.origin_[d];
      stride_[d] = o.stride_[d];
      lo_[d] = o.lo_[d];
      hi_[d] = o.hi_[d];
    }
#if defined(ACC_BOUNDS_CHECK)
    for (std::size_t k = 0; k < detail::label_chars; ++k) label_[k] = o.label_[k];
#endif
  }

  // Made by the library only: storage p (element `origin`), strides in elements.
  ACC_DETAIL_HD cached_view(T* p, const std::int64_t* origin, const std::int64_t* stride, const std::int64_t* lo,
                            const std::int64_t* hi, [[maybe_unused]] const char* label) noexcept
      : p_(p) {
    for (std::size_t d = 0; d < Rank; ++d) {
      origin_[d] = origin[d];
      stride_[d] = stride[d];
      lo_[d] = lo[d];
      hi_[d] = hi[d];
    }
#if defined(ACC_BOUNDS_CHECK)
    std::size_t k = 0;
    for (; label && label[k] && k + 1 < detail::label_chars; ++k) label_[k] = label[k];
    label_[k] = '\0';
#endif
  }

private:
  template <class, std::size_t>
  friend class cached_view;
  T* p_ = nullptr;
  std::int64_t origin_[Rank] = {};
  std::int64_t stride_[Rank] = {};
  std::int64_t lo_[Rank] = {};
  std::int64_t hi_[Rank] = {};
#if defined(ACC_BOUNDS_CHECK)
  char label_[detail::label_chars] = {};
#endif
};

namespace detail {

/// The tiling of an extent: Rank loops of count[d] iterations from lo[d], in tiles of shape[d].
template <class Index, std::size_t R>
struct tile_geometry {
  Index lo[R];
  std::uint64_t count[R];
  int shape[R];
  std::uint64_t tiles[R];
  std::uint64_t total;
};

/// Host storage a thread reuses from tile to tile (per_iteration arrays): slot k of a tile
/// reuses slot k of the previous tile, as tile-level code makes the same calls for every tile.
struct host_tile_scratch {
  std::vector<std::pair<std::unique_ptr<std::max_align_t[]>, std::size_t>> slots;
  std::size_t next = 0;
  void* take(std::size_t bytes) {
    if (next == slots.size()) slots.emplace_back(nullptr, 0);
    auto& s = slots[next++];
    if (s.second < bytes) {
      s.first = std::make_unique<std::max_align_t[]>((bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
      s.second = bytes;
    }
    return s.first.get();
  }
};

}  // namespace detail

/// What a tile-level body receives (tile_loop form 2): which iterations this tile holds, and
/// its share of shared memory for acc::cache. Every thread of the gang has its own copy and
/// makes the same calls (tile-level code is uniform, as OpenACC's gang-redundant code).
/// Not copyable: take it as `const acc::tile_t<R>&` (or `const acc::tile_t<R, long>&` for
/// an extent of type long).
template <std::size_t Rank, class Index = int>
class tile_t {
public:
  using index_type = Index;
  static constexpr std::size_t rank() noexcept { return Rank; }

  /// First iteration index of the tile in dimension d.
  ACC_DETAIL_HD Index origin(std::size_t d = 0) const noexcept { return origin_[d]; }
  /// The tile shape in dimension d (tile_size).
  ACC_DETAIL_HD int size(std::size_t d = 0) const noexcept { return shape_[d]; }
  /// Iterations of this tile inside the extent in dimension d (less than size(d) at the edge).
  ACC_DETAIL_HD int count(std::size_t d = 0) const noexcept { return count_[d]; }
  /// This tile's number, row-major over the tiles (last dimension fastest), and how many there are.
  ACC_DETAIL_HD std::uint64_t tile_num() const noexcept { return num_; }
  ACC_DETAIL_HD std::uint64_t num_tiles() const noexcept { return total_; }
  /// Whether this tile holds iteration (i[, j[, k]]).
  template <class... I>
  ACC_DETAIL_HD bool contains(I... i) const noexcept {
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    for (std::size_t d = 0; d < Rank; ++d) {
      const std::int64_t o = static_cast<std::int64_t>(origin_[d]);
      if (idx[d] < o || idx[d] >= o + count_[d]) return false;
    }
    return true;
  }

  // Made by the backends only: tile `num` of geometry g.
  ACC_DETAIL_HD tile_t(const detail::tile_geometry<Index, Rank>& g, std::uint64_t num, unsigned char* cache,
                       std::size_t cache_bytes, detail::host_tile_scratch* scratch) noexcept
      : num_(num), total_(g.total), cache_(cache), cache_bytes_(cache_bytes), scratch_(scratch) {
    std::uint64_t rest = num;
    // 32-bit division whenever the tile count allows (64-bit division is slow on GPUs).
    const bool narrow = g.total <= 0xffffffffu;
    for (std::size_t k = Rank; k-- > 0;) {
      std::uint64_t t = rest;
      if constexpr (Rank > 1) {
        if (narrow) {
          const unsigned r = static_cast<unsigned>(rest), n = static_cast<unsigned>(g.tiles[k]);
          t = r % n;
          rest = r / n;
        } else {
          t = rest % g.tiles[k];
          rest = rest / g.tiles[k];
        }
      }
      const std::uint64_t first = t * std::uint64_t(g.shape[k]);
      origin_[k] = detail::index_at(g.lo[k], first);
      shape_[k] = g.shape[k];
      const std::uint64_t left = g.count[k] - first;
      count_[k] = left < std::uint64_t(g.shape[k]) ? static_cast<int>(left) : g.shape[k];
    }
  }
  // Made by the CUDA backend's one-gang-per-tile launch: the tile at coordinates coord[d]
  // (blockIdx), when the host has checked that counts, origins and tile ends fit in 32 bits.
  ACC_DETAIL_HD tile_t(const detail::tile_geometry<Index, Rank>& g, const unsigned* coord, unsigned char* cache,
                       std::size_t cache_bytes) noexcept
      : total_(g.total), cache_(cache), cache_bytes_(cache_bytes) {
    std::uint64_t num = 0;
    for (std::size_t k = 0; k < Rank; ++k) {
      num = num * g.tiles[k] + coord[k];
      const unsigned first = coord[k] * static_cast<unsigned>(g.shape[k]);
      origin_[k] = detail::index_at(g.lo[k], first);
      shape_[k] = g.shape[k];
      const unsigned left = static_cast<unsigned>(g.count[k]) - first;
      count_[k] = left < static_cast<unsigned>(g.shape[k]) ? static_cast<int>(left) : g.shape[k];
    }
    num_ = num;
  }
  tile_t(const tile_t&) = delete;
  tile_t& operator=(const tile_t&) = delete;

private:
  friend struct detail::tile_access;
  Index origin_[Rank] = {};
  int shape_[Rank] = {};
  int count_[Rank] = {};
  std::uint64_t num_ = 0, total_ = 0;
  unsigned char* cache_ = nullptr;  // acc::cache's area (device shared memory; unused on the host)
  std::size_t cache_bytes_ = 0;
  mutable std::size_t cache_used_ = 0;
  mutable bool cache_reuse_ = false;   // set by tile_for: the next acc::cache starts the area again
  mutable bool load_pending_ = false;  // acc::cache loaded without waiting: the next tile_for waits
  detail::host_tile_scratch* scratch_ = nullptr;
};

namespace detail {
/// The library's access to tile_t's private state.
struct tile_access {
  template <std::size_t R, class I>
  ACC_DETAIL_HD static detail::host_tile_scratch* scratch(const tile_t<R, I>& t) noexcept { return t.scratch_; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static void mark_loop_end(const tile_t<R, I>& t) noexcept { t.cache_reuse_ = true; }
  /// acc::cache defers its barrier to the next tile_for or tile_barrier, so that several
  /// acc::cache calls in a row cost one barrier.
  template <std::size_t R, class I>
  ACC_DETAIL_HD static void set_load_pending(const tile_t<R, I>& t) noexcept { t.load_pending_ = true; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static bool take_load_pending(const tile_t<R, I>& t) noexcept {
    const bool p = t.load_pending_;
    t.load_pending_ = false;
    return p;
  }
  /// Room for `bytes` of acc::cache (16-byte aligned) at byte `at` of the area; false when
  /// it does not fit. (An offset, not a pointer with a null case: on a GPU the pointer must be
  /// visibly derived from shared memory, or the compiler emits generic loads.) On a GPU the
  /// area is taken even when it does not fit: acc::cache then loads nothing, and the next
  /// tile_for, tile_barrier or the end of the tile reports it (overflowed()), so that the
  /// check costs no branch per call.
  template <std::size_t R, class I>
  ACC_DETAIL_HD static bool take_cache(const tile_t<R, I>& t, std::size_t bytes, std::size_t& at) noexcept {
    if (t.cache_reuse_) {
      t.cache_used_ = 0;
      t.cache_reuse_ = false;
    }
    at = t.cache_used_;
    const std::size_t need = (bytes + 15) / 16 * 16;
#if defined(__CUDA_ARCH__)
    // The launch checked that cache_bytes fits the device: a 32-bit bound.
    const std::size_t end = t.cache_used_ + need;
    t.cache_used_ = end;
    return end <= 0xffffffffu && static_cast<unsigned>(end) <= static_cast<unsigned>(t.cache_bytes_);
#else
    if (need > t.cache_bytes_ - t.cache_used_) return false;
    t.cache_used_ += need;
    return true;
#endif
  }
  /// Whether acc::cache calls since the area was last started asked more than it holds.
  template <std::size_t R, class I>
  ACC_DETAIL_HD static bool overflowed(const tile_t<R, I>& t) noexcept {
    return t.cache_used_ > 0xffffffffu || static_cast<unsigned>(t.cache_used_) > static_cast<unsigned>(t.cache_bytes_);
  }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static std::size_t cache_used(const tile_t<R, I>& t) noexcept { return t.cache_used_; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static unsigned char* cache_area(const tile_t<R, I>& t) noexcept { return t.cache_; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static std::size_t cache_bytes(const tile_t<R, I>& t) noexcept { return t.cache_bytes_; }
};

ACC_DETAIL_HD inline void tile_sync() {
#if defined(__CUDA_ARCH__)
  __syncthreads();
#endif
}

/// This thread's position in the tile on a GPU: dimension Rank-1 is threadIdx.x.
template <std::size_t Rank>
ACC_DETAIL_HD inline int thread_pos([[maybe_unused]] std::size_t d) {
#if defined(__CUDA_ARCH__)
  const std::size_t axis = Rank - 1 - d;
  return static_cast<int>(axis == 0 ? threadIdx.x : axis == 1 ? threadIdx.y : threadIdx.z);
#else
  return 0;
#endif
}
template <std::size_t Rank>
ACC_DETAIL_HD inline int thread_step([[maybe_unused]] std::size_t d) {
#if defined(__CUDA_ARCH__)
  const std::size_t axis = Rank - 1 - d;
  return static_cast<int>(axis == 0 ? blockDim.x : axis == 1 ? blockDim.y : blockDim.z);
#else
  return 1;
#endif
}

/// Calls f(off, g0[, g1[, g2]]) for every element (g0, g1, g2) of [lo, hi), where off is the
/// element's offset in storage laid out as box b: on a GPU spread over the gang's threads, the
/// last dimension over threadIdx.x (coalesced); on the host in order.
template <std::size_t R, class F>
ACC_DETAIL_HD void for_each_in_box(const cache_box<R>& b, const std::int64_t* lo, const std::int64_t* hi, const F& f) {
  int n[R] = {}, base[R] = {}, stride[R] = {};
  stride[R - 1] = 1;
  for (std::size_t d = R - 1; d-- > 0;) stride[d] = stride[d + 1] * static_cast<int>(b.ext[d + 1]);
  for (std::size_t d = 0; d < R; ++d) {
    n[d] = hi[d] > lo[d] ? static_cast<int>(hi[d] - lo[d]) : 0;
    base[d] = static_cast<int>(lo[d] - b.origin[d]);
  }
  if constexpr (R == 1) {
    for (int a = thread_pos<R>(0); a < n[0]; a += thread_step<R>(0)) f(base[0] + a, lo[0] + a);
  } else if constexpr (R == 2) {
    for (int a = thread_pos<R>(0); a < n[0]; a += thread_step<R>(0))
      for (int c = thread_pos<R>(1); c < n[1]; c += thread_step<R>(1))
        f((base[0] + a) * stride[0] + base[1] + c, lo[0] + a, lo[1] + c);
  } else {
    for (int a = thread_pos<R>(0); a < n[0]; a += thread_step<R>(0))
      for (int c = thread_pos<R>(1); c < n[1]; c += thread_step<R>(1))
        for (int e = thread_pos<R>(2); e < n[2]; e += thread_step<R>(2))
          f((base[0] + a) * stride[0] + (base[1] + c) * stride[1] + base[2] + e, lo[0] + a, lo[1] + c, lo[2] + e);
  }
}

/// Elements per 16 bytes for a cached clause whose last dimension is fixed (known from its
/// type), 1 otherwise. Such a clause's storage starts and ends on a multiple of it along that
/// dimension (the fixed range widened to 16-byte boundaries, which changes neither the valid
/// range nor what is loaded or stored), so that the compiler can prove 16-byte alignment and
/// read four floats of a row at once, as from a hand-written `float as[16][16]`.
template <class Spec>
inline constexpr std::int64_t last_dim_align_v = [] {
  using U = std::remove_cv_t<typename Spec::element_type>;
  if constexpr (((Spec::fixed_dims >> (Spec::rank - 1)) & 1u) != 0 && sizeof(U) < 16 && 16 % sizeof(U) == 0)
    return static_cast<std::int64_t>(16 / sizeof(U));
  else
    return std::int64_t(1);
}();

/// The storage origin of a fixed range [lo, lo + count) widened to multiples of `align` (a
/// power of two; rounds down, also for negative lo), and its widened extent.
ACC_DETAIL_HD constexpr std::int64_t widened_origin(std::int64_t lo, std::int64_t align) noexcept { return lo & -align; }
ACC_DETAIL_HD constexpr std::int64_t widened_ext(std::int64_t lo, std::int64_t count, std::int64_t align) noexcept {
  return (lo + count - widened_origin(lo, align) + align - 1) & -align;
}

/// The box of one range set for a tile: halo dimensions follow the tile, fixed ones do not;
/// extents of the array clip lo/hi. With align_last > 1 a fixed last dimension is widened
/// (last_dim_align_v).
template <std::size_t R, class Index, class A>
ACC_DETAIL_HD cache_box<R> box_of(const tile_t<R, Index>& t, const dim_range* range, const A& a,
                                  std::int64_t align_last = 1) {
  cache_box<R> b{};
  for (std::size_t d = 0; d < R; ++d) {
    if (range[d].is_fixed) {
      b.origin[d] = range[d].a;
      b.ext[d] = range[d].b;
    } else {
      b.origin[d] = static_cast<std::int64_t>(t.origin(d)) - range[d].a;
      b.ext[d] = t.size(d) + range[d].a + range[d].b;
    }
    const std::int64_t n = static_cast<std::int64_t>(a.extent(d));
    b.lo[d] = b.origin[d] < 0 ? 0 : b.origin[d];
    const std::int64_t end = b.origin[d] + b.ext[d];
    b.hi[d] = end < n ? end : n;
    if (b.hi[d] < b.lo[d]) b.hi[d] = b.lo[d];
    if (d == R - 1 && range[d].is_fixed && align_last > 1) {
      b.ext[d] = widened_ext(range[d].a, range[d].b, align_last);
      b.origin[d] = widened_origin(range[d].a, align_last);
    }
  }
  return b;
}

/// The part of a box a tile writes back: the tile's own iterations along halo dimensions
/// (within the extent), the fixed range along fixed ones; clipped to the array.
template <std::size_t R, class Index>
ACC_DETAIL_HD void own_range(const tile_t<R, Index>& t, const dim_range* range, const cache_box<R>& b,
                             std::int64_t* lo, std::int64_t* hi) {
  for (std::size_t d = 0; d < R; ++d) {
    lo[d] = b.lo[d];
    hi[d] = b.hi[d];
    if (!range[d].is_fixed) {
      const std::int64_t o = static_cast<std::int64_t>(t.origin(d));
      if (lo[d] < o) lo[d] = o;
      if (hi[d] > o + t.count(d)) hi[d] = o + t.count(d);
    }
    if (hi[d] < lo[d]) hi[d] = lo[d];
  }
}

/// Row-major strides of a box's storage.
template <std::size_t R>
ACC_DETAIL_HD void box_strides(const cache_box<R>& b, std::int64_t* stride) {
  stride[R - 1] = 1;
  for (std::size_t d = R - 1; d-- > 0;) stride[d] = stride[d + 1] * b.ext[d + 1];
}

template <std::size_t R>
ACC_DETAIL_HD std::size_t box_volume(const cache_box<R>& b) {
  std::size_t v = 1;
  for (std::size_t d = 0; d < R; ++d) v *= static_cast<std::size_t>(b.ext[d]);
  return v;
}

template <class T, std::size_t R>
ACC_DETAIL_HD cached_view<T, R> view_on(T* storage, const cache_box<R>& b, const char* label) {
  std::int64_t stride[R] = {};
  box_strides(b, stride);
  return cached_view<T, R>(storage, b.origin, stride, b.lo, b.hi, label);
}

/// A view aliasing the array's own host memory (the host backend, fetch-only ranges).
template <class T, std::size_t R, class A>
cached_view<T, R> view_alias(const A& a, const cache_box<R>& b, const char* label) {
  std::int64_t origin[R] = {}, stride[R] = {};
  stride[R - 1] = 1;
  for (std::size_t d = R - 1; d-- > 0;) stride[d] = stride[d + 1] * static_cast<std::int64_t>(a.extent(d + 1));
  return cached_view<T, R>(a.data(), origin, stride, b.lo, b.hi, label);
}

/// Loads the box's valid range of a into storage laid out as the box (collective on a GPU).
template <std::size_t R, class A, class U>
ACC_DETAIL_HD void load_box(const A& a, U* storage, const cache_box<R>& b) {
  for_each_in_box<R>(b, b.lo, b.hi, [&](int off, auto... g) { storage[off] = a(g...); });
}

/// a(g[0], ..., g[R - 1]).
template <class A, class G, std::size_t... D>
ACC_DETAIL_HD decltype(auto) element_at(const A& a, const G* g, std::index_sequence<D...>) {
  return a(g[D]...);
}

/// Stores [lo, hi) of the box's storage to a (collective on a GPU).
template <std::size_t R, class A, class U>
ACC_DETAIL_HD void store_box(const A& a, const U* storage, const cache_box<R>& b, const std::int64_t* lo,
                             const std::int64_t* hi) {
  for_each_in_box<R>(b, lo, hi, [&](int off, auto... g) { a(g...) = storage[off]; });
}

/// The host's report of an acc::cache call that does not fit the area (a GPU reports it at
/// the next synchronisation point: check_cache_room).
[[noreturn]] inline void cache_overflow(std::size_t bytes, std::size_t used, std::size_t total) {
  throw bad_clause("acc::cache: " + std::to_string(bytes) + " bytes asked beyond the " + std::to_string(used) +
                   " used of the " + std::to_string(total) + " that acc::cache_bytes gave the tile_loop");
}

[[noreturn]] ACC_DETAIL_HD inline void cache_bad_range(long long a, long long b) {
#if defined(__CUDA_ARCH__)
  printf("acc::cache: a range is negative (halo before/after or fixed count: %lld, %lld)\n", a, b);
  __trap();
  __builtin_unreachable();
#else
  throw bad_clause("acc::cache: a range is negative (halo before/after or fixed count: " + std::to_string(a) + ", " +
                   std::to_string(b) + ")");
#endif
}

/// On a GPU, at the tile_for, tile_barrier or tile end that follows acc::cache calls whose
/// views did not fit the area (they loaded nothing): the report and a trap.
template <std::size_t R, class I>
ACC_DETAIL_HD inline void check_cache_room([[maybe_unused]] const tile_t<R, I>& t) {
#if defined(__CUDA_ARCH__)
  if (tile_access::overflowed(t)) {
    printf("acc::cache: the views made since the last tile_for take %llu bytes (each rounded up to 16), more than "
           "the %llu that acc::cache_bytes gave the tile_loop\n",
           (unsigned long long)tile_access::cache_used(t), (unsigned long long)tile_access::cache_bytes(t));
    __trap();
  }
#endif
}

/// Whether acc::cache's box b of array a takes the one-element-per-thread load on a GPU: it
/// has the gang's shape, the array's extents are below 2^31 and the origin fits an int (then
/// unsigned origin + p, wrapped, is below an extent exactly when the global index is inside it).
template <std::size_t R, class A>
ACC_DETAIL_HD bool gang_shaped(const A& a, const cache_box<R>& b, const int* gang) {
  // Not short-circuit: cheap tests the compiler can hoist out of a loop around acc::cache.
  bool shaped = true;
  for (std::size_t d = 0; d < R; ++d)
    shaped = shaped & (b.ext[d] == gang[d]) & ((a.extent(d) >> 31) == 0) & (b.origin[d] == static_cast<int>(b.origin[d]));
  return shaped;
}

/// This thread's element of a gang_shaped box: its global indices g, its offset in storage
/// `off`, and whether it lies in the array (32-bit arithmetic).
template <std::size_t R, class A>
ACC_DETAIL_HD bool thread_element(const A& a, const cache_box<R>& b, unsigned* g, int& off) {
  bool mine = true;
  off = 0;
  for (std::size_t d = 0; d < R; ++d) {
    const int p = thread_pos<R>(d);
    g[d] = static_cast<unsigned>(b.origin[d]) + static_cast<unsigned>(p);
    mine = mine && g[d] < static_cast<unsigned>(a.extent(d));
    off = off * static_cast<int>(b.ext[d]) + p;
  }
  return mine;
}

/// acc::cache's load on a GPU. A box of the gang's shape (acc::cache of a tile-sized block,
/// the usual case) is loaded as hand-written kernels do: the thread at position p of the gang
/// loads element origin + p if it lies in the array, a predicated load and store with no loop
/// (gang_shaped, thread_element). Other boxes take the general loop. Nothing is loaded without
/// `room`.
template <std::size_t R, class A, class U>
ACC_DETAIL_HD void cache_load([[maybe_unused]] const A& a, [[maybe_unused]] U* storage,
                              [[maybe_unused]] const cache_box<R>& b, [[maybe_unused]] const int* gang,
                              [[maybe_unused]] bool room) {
#if defined(__CUDA_ARCH__)
  if (room && gang_shaped<R>(a, b, gang)) {
    unsigned g[R];
    int off = 0;
    if (thread_element<R>(a, b, g, off)) storage[off] = element_at(a, g, std::make_index_sequence<R>{});
  } else if (room) {
    load_box<R>(a, storage, b);
  }
#endif
}

/// Where one acc::cache view lies in the tile's area (byte `at`), its box, and whether it fit.
template <std::size_t R>
struct cache_piece {
  cache_box<R> box;
  std::size_t at;
  bool room;
};

/// The storage of a view at byte `at` of the tile's acc::cache area (16-byte aligned, as the
/// area and the pieces).
template <class U, std::size_t R, class I>
ACC_DETAIL_HD U* cache_storage(const tile_t<R, I>& t, std::size_t at) {
  return static_cast<U*>(__builtin_assume_aligned(tile_access::cache_area(t) + at, 16));
}

/// The part of acc::cache before the load: checks the ranges, computes the box and takes the
/// view's piece of the area (on the host, acc::bad_clause when it does not fit).
template <std::size_t R, class I, class A>
ACC_DETAIL_HD cache_piece<R> place_in_cache(const tile_t<R, I>& t, const A& a, const dim_range* range) {
  using U = std::remove_cv_t<typename cacheable<std::remove_cvref_t<A>>::element_type>;
  for (std::size_t d = 0; d < R; ++d)
    if (range[d].b < 0 || (!range[d].is_fixed && range[d].a < 0)) cache_bad_range(range[d].a, range[d].b);
  cache_piece<R> piece{box_of(t, range, a), 0, false};
  const std::size_t bytes = box_volume(piece.box) * sizeof(U);
  piece.room = tile_access::take_cache(t, bytes, piece.at);
#if !defined(__CUDA_ARCH__)
  if (!piece.room) cache_overflow(bytes, piece.at, tile_access::cache_bytes(t));
#endif
  return piece;
}

}  // namespace detail

/// A value per iteration of a tile that lives across acc::tile_for calls of tile-level code
/// (a register on a GPU, where each thread runs one iteration; an array of size() elements on
/// the host). Starts value-initialised, or at `init`. Index it with the iteration's indices:
/// e.g. acc::per_iteration<float> sum(t); acc::tile_for(t, [&](int i) { sum(i) += x[i]; });
template <class T>
class per_iteration {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "acc::per_iteration: T must be a trivially copyable, default-constructible type");

public:
  template <std::size_t R, class I>
  ACC_DETAIL_HD explicit per_iteration(const tile_t<R, I>& t, const T& init = T{}) : reg_(init), rank_(R) {
#if !defined(__CUDA_ARCH__)
    std::size_t n = 1;
    for (std::size_t d = R; d-- > 0;) {
      origin_[d] = static_cast<std::int64_t>(t.origin(d));
      stride_[d] = static_cast<std::int64_t>(n);
      shape_[d] = t.size(d);
      n *= static_cast<std::size_t>(t.size(d));
    }
    host_ = static_cast<T*>(detail::tile_access::scratch(t)->take(n * sizeof(T)));
    for (std::size_t k = 0; k < n; ++k) host_[k] = init;
#else
    (void)t;
#endif
  }
  per_iteration(const per_iteration&) = delete;
  per_iteration& operator=(const per_iteration&) = delete;

  /// This iteration's value; call it with the indices tile_for gave.
  template <class... I>
  ACC_DETAIL_HD T& operator()([[maybe_unused]] I... i) const {
    static_assert(detail::all_integral_v<I...>, "acc::per_iteration: index with the iteration's integer indices");
#if defined(__CUDA_ARCH__)
    return reg_;
#else
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    std::int64_t off = 0;
    for (std::size_t d = 0; d < sizeof...(I); ++d) {
#  if defined(ACC_BOUNDS_CHECK)
      if (sizeof...(I) != static_cast<std::size_t>(rank_) || idx[d] < origin_[d] || idx[d] >= origin_[d] + shape_[d])
        throw error("acc::per_iteration: index " + std::to_string(idx[d]) + " of dimension " + std::to_string(d) +
                    " is not an iteration of this tile");
#  endif
      off += (idx[d] - origin_[d]) * stride_[d];
    }
    return host_[off];
#endif
  }

private:
  mutable T reg_;
  [[maybe_unused]] int rank_;
  T* host_ = nullptr;
  std::int64_t origin_[3] = {}, stride_[3] = {}, shape_[3] = {};
};

namespace detail {
/// f(i[, j[, k]]) for the tile's iterations inside the extent: on a GPU this thread's own
/// (if inside), on the host all of them in order. No barrier.
template <std::size_t R, class I, class F>
ACC_DETAIL_HD void for_tile_iterations(const tile_t<R, I>& t, const F& f) {
#if defined(__CUDA_ARCH__)
  bool inside = true;
  for (std::size_t d = 0; d < R; ++d) inside = inside && thread_pos<R>(d) < t.count(d);
  if (inside) {
    if constexpr (R == 1) f(index_at(t.origin(0), thread_pos<R>(0)));
    else if constexpr (R == 2) f(index_at(t.origin(0), thread_pos<R>(0)), index_at(t.origin(1), thread_pos<R>(1)));
    else
      f(index_at(t.origin(0), thread_pos<R>(0)), index_at(t.origin(1), thread_pos<R>(1)),
        index_at(t.origin(2), thread_pos<R>(2)));
  }
#else
  if constexpr (R == 1) {
    for (int a = 0; a < t.count(0); ++a) f(index_at(t.origin(0), a));
  } else if constexpr (R == 2) {
    for (int a = 0; a < t.count(0); ++a)
      for (int b = 0; b < t.count(1); ++b) f(index_at(t.origin(0), a), index_at(t.origin(1), b));
  } else {
    for (int a = 0; a < t.count(0); ++a)
      for (int b = 0; b < t.count(1); ++b)
        for (int c = 0; c < t.count(2); ++c) f(index_at(t.origin(0), a), index_at(t.origin(1), b), index_at(t.origin(2), c));
  }
#endif
}
}  // namespace detail

/// Runs f(i[, j[, k]]) for each of the tile's iterations inside the extent (on a GPU: each
/// thread its own iteration; on the host: all of them in order), then a tile barrier, so
/// channel writes made in f are visible afterwards. From tile-level code only (every thread
/// of the gang must reach it).
template <std::size_t R, class I, class F>
ACC_DETAIL_HD void tile_for(const tile_t<R, I>& t, const F& f) {
  static_assert(detail::invocable_with_rank_v<F, I, R>,
                "acc::tile_for: the function must take one index per dimension of the tile, e.g. [&](int i, int j) { ... }");
#if defined(__CUDA_ARCH__)
  detail::check_cache_room(t);
  if (detail::tile_access::take_load_pending(t)) __syncthreads();  // acc::cache's loads are complete
#endif
  detail::for_tile_iterations(t, f);
  detail::tile_sync();
  detail::tile_access::mark_loop_end(t);
}

/// Waits until every thread of the tile's gang reaches it; shared-memory (channel) writes
/// made before are then visible to all. A no-op on the host, where a tile's iterations run in
/// order. From tile-level code only.
template <std::size_t R, class I>
ACC_DETAIL_HD void tile_barrier(const tile_t<R, I>& t) {
  detail::check_cache_room(t);
  detail::tile_access::take_load_pending(t);
  detail::tile_sync();
}

/// OpenACC's `cache` directive (OpenACC 3.3 §2.10) in tile-level code: the gang loads the
/// range of `a` given by one range per dimension (acc::fixed(lo, count), or acc::halo relative
/// to the tile's iterations) into the tile's acc::cache area and returns a fetch-only view
/// with global indexing (on the host backend the view aliases the array).
/// - Collective: every thread of the gang calls it, from tile-level code.
/// - Read the view in the acc::tile_for calls that follow (the first waits for the load), or in
///   tile-level code after an acc::tile_barrier. The view lasts until the next acc::cache call
///   that follows a tile_for: such a call starts the area again without a barrier of its own,
///   so after a tile_for read the view only inside tile_for calls (or call tile_barrier first).
/// - The area is acc::cache_bytes(n) of the construct. Calls between two acc::tile_for take
///   consecutive pieces (16-byte aligned). Too little room: acc::bad_clause from the call on
///   the host; on a GPU (where the same sizes fail) a message and a trap at the next tile_for,
///   tile_barrier or the end of the body, before any read of the view.
/// - On a GPU a range of the tile's shape (e.g. fixed(t.origin(0), 16) x fixed(k0, 16) for
///   16 x 16 tiles) is loaded with one element per thread, as a hand-written kernel does.
/// - Write nothing through the view.
/// - Several arrays at once: the list form below, acc::cache(t, acc::section(a, ranges...), ...).
/// e.g. for (int jt = 0; jt < n; jt += 256) { auto p = acc::cache(t, pos, acc::fixed(jt, 256)); acc::tile_for(t, ...); }
template <std::size_t R, class I, class A, class... Ranges>
ACC_DETAIL_HD auto cache(const tile_t<R, I>& t, const A& a, Ranges... ranges) {
  static_assert(detail::cacheable<std::remove_cvref_t<A>>::value,
                "acc::cache: the array must be an acc::array or acc::view captured by the body");
  static_assert(detail::cacheable<std::remove_cvref_t<A>>::rank == R,
                "acc::cache: the array's rank must be the tile's rank; give one range per dimension");
  static_assert(sizeof...(Ranges) == R && (detail::is_range_v<Ranges> && ...),
                "acc::cache: give one range per dimension of the array: acc::fixed(lo, count) or acc::halo(before, after)");
  using T = typename detail::cacheable<std::remove_cvref_t<A>>::element_type;
  const detail::dim_range range[] = {detail::to_dim_range(ranges)...};
  const detail::cache_piece<R> piece = detail::place_in_cache(t, a, range);
#if defined(__CUDA_ARCH__)
  using U = std::remove_cv_t<T>;
  // No barrier before: the area is reused only after a tile_for, whose barrier ended the reads
  // of the earlier views. None after: the next tile_for or tile_barrier waits for the loads
  // (and reports a view that did not fit). The area is 16-byte aligned, as the views' pieces.
  U* storage = detail::cache_storage<U>(t, piece.at);
  int gang[R];
  for (std::size_t d = 0; d < R; ++d) gang[d] = t.size(d);
  detail::cache_load<R>(a, storage, piece.box, gang, piece.room);
  detail::tile_access::set_load_pending(t);
  return detail::view_on<T, R>(storage, piece.box, nullptr);
#else
  return detail::view_alias<T, R>(a, piece.box, a.label());
#endif
}

// ---- acc::cache's list form: acc::cache(t, acc::section(a, ...), acc::section(b, ...)) ----

/// One array section of acc::cache's list form, as `a[i0:16][k0:16]` in OpenACC's
/// `#pragma acc cache(a[i0:16][k0:16], b[k0:16][j0:16])` (OpenACC 3.3 §2.10): the array and
/// one range per dimension. Made by acc::section(a, ranges...). It refers to `a` (an array
/// captured by the body), so pass it straight to acc::cache. Trivially copyable.
template <class A, std::size_t Rank>
struct cache_section_t {
  const A* array;
  detail::dim_range range[Rank];
};

namespace detail {

template <class A, class... Ranges>
constexpr bool check_section_args() {
  if constexpr (!cacheable<std::remove_cvref_t<A>>::value) {
    static_assert(dependent_false<A>,
                  "acc::section: with ranges (for acc::cache) the array must be an acc::array or acc::view captured "
                  "by the body, e.g. acc::section(a, acc::fixed(i0, 16), acc::fixed(k0, 16))");
    return false;
  } else if constexpr (!(is_range_v<Ranges> && ...)) {
    static_assert(dependent_false<A>,
                  "acc::section: for acc::cache give only ranges after the array, acc::fixed(lo, count) or "
                  "acc::halo(before, after), one per dimension; for a data clause write acc::section(a, lo, len)");
    return false;
  } else if constexpr (sizeof...(Ranges) != cacheable<std::remove_cvref_t<A>>::rank) {
    static_assert(dependent_false<A>,
                  "acc::section: give one range per dimension of the array, e.g. acc::section(a, acc::fixed(i0, 16), "
                  "acc::fixed(k0, 16)) for a rank-2 array");
    return false;
  } else {
    return true;
  }
}

template <class S> struct is_cache_section : std::false_type {};
template <class A, std::size_t R> struct is_cache_section<cache_section_t<A, R>> : std::true_type {};
template <class S>
inline constexpr bool is_cache_section_v = is_cache_section<std::remove_cvref_t<S>>::value;

/// The rank of a section's array (0 for anything else).
template <class S> struct section_rank : std::integral_constant<std::size_t, 0> {};
template <class A, std::size_t R> struct section_rank<cache_section_t<A, R>>
    : std::integral_constant<std::size_t, cacheable<A>::rank> {};

/// The view acc::cache returns for a section.
template <class S> struct section_view;
template <class A, std::size_t R> struct section_view<cache_section_t<A, R>> {
  using element_type = typename cacheable<A>::element_type;
  using type = cached_view<element_type, R>;
};

/// The views of a list, first and rest: a plain aggregate (no std::tuple in device code).
template <class... V> struct view_pack {};
template <class V, class... Rest> struct view_pack<V, Rest...> {
  V first;
  view_pack<Rest...> rest;
};

template <std::size_t K, class P>
ACC_DETAIL_HD constexpr auto& pack_get(P& p) noexcept {
  if constexpr (K == 0) return p.first;
  else return pack_get<K - 1>(p.rest);
}

template <class V, class... Rest>
ACC_DETAIL_HD view_pack<V, Rest...> pack_views(const V& v, const Rest&... rest) {
  if constexpr (sizeof...(Rest) == 0) return {v, {}};
  else return {v, pack_views(rest...)};
}

}  // namespace detail

/// What acc::cache's list form returns: the sections' views (acc::cached_view<T, R>, fetch
/// only), in the order of the sections, for structured bindings on the host and on a GPU:
/// `const auto [as, bs] = acc::cache(t, acc::section(a, ...), acc::section(b, ...));`
/// or v.get<0>(), v.get<1>(). Trivially copyable.
template <class... V>
struct cached_views_t {
  detail::view_pack<V...> views;

  /// View K (the K-th section's).
  template <std::size_t K>
  ACC_DETAIL_HD constexpr const auto& get() const noexcept {
    static_assert(K < sizeof...(V), "acc::cached_views_t: get<K>() with K below the number of sections");
    return detail::pack_get<K>(views);
  }
  template <std::size_t K>
  ACC_DETAIL_HD constexpr auto& get() noexcept {
    static_assert(K < sizeof...(V), "acc::cached_views_t: get<K>() with K below the number of sections");
    return detail::pack_get<K>(views);
  }
};

/// The section of `a` given by one range per dimension (acc::fixed(lo, count), or acc::halo
/// relative to the tile's iterations), for acc::cache's list form, e.g.
/// acc::section(a, acc::fixed(i0, 16), acc::fixed(k0, 16)) is OpenACC's `a[i0:16][k0:16]`.
/// (acc::section(a, lo, len), without ranges, is the data-clause subarray of acc/array.hpp.)
template <class A, class... Ranges>
  requires((detail::is_range_v<Ranges> || ...))
ACC_DETAIL_HD auto section(const A& a, Ranges... ranges) {
  if constexpr (detail::check_section_args<A, Ranges...>()) {
    return cache_section_t<A, sizeof...(Ranges)>{&a, {detail::to_dim_range(ranges)...}};
  }
}

namespace detail {

/// The list form's load on a GPU when every section has the gang's shape: each thread loads
/// its element of every section into a register (a predicated load per section, no branch
/// between them), then stores them all, so that the loads' latencies overlap, as a
/// hand-written kernel's `if (..) as[ty][tx] = a[..]; if (..) bs[ty][tx] = b[..];` does.
/// Recursive: section K's load, the rest's loads and stores, section K's store.
template <std::size_t R, std::size_t K, class I, class S, class... Rest>
ACC_DETAIL_HD void load_gang_shaped([[maybe_unused]] const tile_t<R, I>& t, [[maybe_unused]] const cache_piece<R>* piece,
                                    [[maybe_unused]] const S& s, [[maybe_unused]] const Rest&... rest) {
#if defined(__CUDA_ARCH__)
  using U = std::remove_cv_t<typename section_view<S>::element_type>;
  // Holds the element without asking U for a default constructor.
  union slot {
    char none;
    U value;
  } v{0};
  unsigned g[R];
  int off = 0;
  const bool mine = thread_element<R>(*s.array, piece[K].box, g, off);
  if (mine) v.value = element_at(*s.array, g, std::make_index_sequence<R>{});
  if constexpr (sizeof...(Rest) > 0) load_gang_shaped<R, K + 1>(t, piece, rest...);
  if (mine) cache_storage<U>(t, piece[K].at)[off] = v.value;
#endif
}

template <std::size_t R, class I, class... S, std::size_t... K>
ACC_DETAIL_HD auto cache_sections(const tile_t<R, I>& t, std::index_sequence<K...>, const S&... s) {
  // In order (a braced list), as N single calls: the same pieces, the same overflow report.
  const cache_piece<R> piece[] = {place_in_cache(t, *s.array, s.range)...};
  using views = cached_views_t<typename section_view<S>::type...>;
#if defined(__CUDA_ARCH__)
  int gang[R];
  for (std::size_t d = 0; d < R; ++d) gang[d] = t.size(d);
  const bool shaped = (gang_shaped<R>(*s.array, piece[K].box, gang) & ...);
  const bool room = (piece[K].room & ...);
  if (shaped & room) {
    load_gang_shaped<R, 0>(t, piece, s...);
  } else {
    (cache_load<R>(*s.array, cache_storage<std::remove_cv_t<typename section_view<S>::element_type>>(t, piece[K].at),
                   piece[K].box, gang, piece[K].room),
     ...);
  }
  tile_access::set_load_pending(t);
  return views{pack_views(view_on<typename section_view<S>::element_type, R>(
      cache_storage<std::remove_cv_t<typename section_view<S>::element_type>>(t, piece[K].at), piece[K].box,
      nullptr)...)};
#else
  return views{pack_views(
      view_alias<typename section_view<S>::element_type, R>(*s.array, piece[K].box, s.array->label())...)};
#endif
}

}  // namespace detail

/// OpenACC's `cache` directive with a list of array sections, `#pragma acc cache(a[i0:16][k0:16],
/// b[k0:16][j0:16])` (OpenACC 3.3 §2.10): acc::cache(t, acc::section(a, ranges...), ...) with
/// N >= 1 sections, each one range per dimension of its array (of the tile's rank; element
/// types may differ). Returns the N fetch-only views in order, an acc::cached_views_t for
/// structured bindings.
/// - The same as N single calls acc::cache(t, a, ranges...) in a row: the same consecutive
///   16-byte-aligned pieces of the area, the same overflow report (acc::bad_clause from the
///   call on the host, naming the bytes; a trap at the next tile_for on a GPU), the same
///   deferred barrier (read the views in the tile_for calls that follow), the same lifetime.
/// - On a GPU, when every section has the tile's shape, each thread issues its loads of all
///   sections before it stores any into shared memory (one global-load latency per call, as
///   in a hand-written kernel); otherwise each section is loaded as by a single call.
/// e.g. for (int k0 = 0; k0 < K; k0 += 16) {
///        const auto [as, bs] = acc::cache(t, acc::section(a, acc::fixed(i0, 16), acc::fixed(k0, 16)),
///                                            acc::section(b, acc::fixed(k0, 16), acc::fixed(j0, 16)));
///        acc::tile_for(t, [&](int i, int j) { for (int k = k0; k < k0 + 16; ++k) s(i, j) += as(i, k) * bs(k, j); });
///      }
template <std::size_t R, class I, class A, std::size_t N, class... S>
ACC_DETAIL_HD auto cache(const tile_t<R, I>& t, const cache_section_t<A, N>& first, const S&... rest) {
  static_assert((detail::is_cache_section_v<S> && ...),
                "acc::cache: in the list form every argument after the tile is an acc::section(a, ranges...); write "
                "acc::cache(t, acc::section(a, ...), acc::section(b, ...)), or acc::cache(t, a, ranges...) for one array");
  if constexpr ((detail::is_cache_section_v<S> && ...)) {
    constexpr bool ranks = detail::section_rank<cache_section_t<A, N>>::value == R &&
                           ((detail::section_rank<std::remove_cvref_t<S>>::value == R) && ...);
    static_assert(ranks, "acc::cache: every section's array must have the tile's rank; give one range per dimension");
    if constexpr (ranks) return detail::cache_sections(t, std::make_index_sequence<1 + sizeof...(S)>{}, first, rest...);
  }
}

// ------------------------------------------------------------------------------------------
// The construct
// ------------------------------------------------------------------------------------------

namespace detail {

template <class C> struct is_tile_size : std::false_type {
  static constexpr std::size_t rank = 0;
};
template <std::size_t R> struct is_tile_size<tile_size_t<R>> : std::true_type {
  static constexpr std::size_t rank = R;
};
template <class C> struct is_cached : std::false_type {};
template <class T, std::size_t R, unsigned F> struct is_cached<cached_t<T, R, F>> : std::true_type {};

template <class C>
inline constexpr bool is_tile_size_v = is_tile_size<std::remove_cvref_t<C>>::value;
template <class C>
inline constexpr bool is_cached_v = is_cached<std::remove_cvref_t<C>>::value;
template <class C>
inline constexpr bool is_cache_bytes_v = std::is_same_v<std::remove_cvref_t<C>, cache_bytes_t>;
template <class C>
inline constexpr bool is_tile_rejected_v =
    std::is_same_v<std::remove_cvref_t<C>, num_workers_t> || std::is_same_v<std::remove_cvref_t<C>, shared_bytes_t> ||
    is_reduction_clause_v<C>;
template <class C>
inline constexpr bool is_tile_arg_v = is_tile_size_v<C> || is_cached_v<C> || is_cache_bytes_v<C> ||
                                      (is_compute_clause_v<C> && !is_tile_rejected_v<C>);

/// Everything a tile_loop's clauses said.
template <std::size_t Rank>
struct tile_spec {
  launch_spec launch;
  int shape[Rank];
  bool shape_given = false;
  std::size_t cache_bytes = 0;
};

template <std::size_t Rank>
constexpr void apply_tile_arg(tile_spec<Rank>& s, const tile_size_t<Rank>& c) {
  for (std::size_t d = 0; d < Rank; ++d) s.shape[d] = c.extents[d];
  s.shape_given = true;
}
template <std::size_t Rank>
constexpr void apply_tile_arg(tile_spec<Rank>& s, const vector_length_t& c) {
  if constexpr (Rank == 1) {
    s.shape[0] = c.value;
    s.shape_given = true;
  }
}
template <std::size_t Rank>
constexpr void apply_tile_arg(tile_spec<Rank>& s, const cache_bytes_t& c) { s.cache_bytes = c.value; }
template <std::size_t Rank, class T, std::size_t R, unsigned F>
constexpr void apply_tile_arg(tile_spec<Rank>&, const cached_t<T, R, F>&) {}
template <std::size_t Rank, class C>
  requires(is_compute_clause_v<C> && !std::is_same_v<C, vector_length_t>)
constexpr void apply_tile_arg(tile_spec<Rank>& s, const C& c) {
  apply_clause(s.launch, c);
}

/// Defaults when no tile_size is given: 256 iterations in 1D, 16 x 16, 4 x 8 x 8.
template <std::size_t Rank>
constexpr tile_spec<Rank> fold_tile_args(const auto&... args) {
  tile_spec<Rank> s{};
  if constexpr (Rank == 1) s.shape[0] = 256;
  else if constexpr (Rank == 2) s.shape[0] = s.shape[1] = 16;
  else s.shape[0] = 4, s.shape[1] = 8, s.shape[2] = 8;
  (apply_tile_arg(s, args), ...);
  return s;
}

/// The cached() clauses among a construct's arguments, in order, as a tuple.
template <class... C>
auto cached_of(const C&... c) {
  return std::tuple_cat([](const auto& x) {
    if constexpr (is_cached_v<decltype(x)>) return std::tuple(x);
    else return std::tuple<>();
  }(c)...);
}

template <class C> struct view_of_spec;
template <class T, std::size_t R, unsigned F> struct view_of_spec<cached_t<T, R, F>> {
  using type = cached_view<T, R>;
};
template <class C>
using view_of_spec_t = typename view_of_spec<std::remove_cvref_t<C>>::type;

/// Whether body is tile-level (form 2: tile, views...) or per iteration (form 1: indices, views...).
template <class Body, class Index, std::size_t Rank, class Specs> struct tile_body_form;
template <class Body, class Index, std::size_t Rank, class... S>
struct tile_body_form<Body, Index, Rank, std::tuple<S...>> {
  static constexpr bool tile_level = std::is_invocable_v<const Body&, const tile_t<Rank, Index>&, const view_of_spec_t<S>&...>;
  static constexpr bool per_iteration = [] {
    if constexpr (Rank == 1) return std::is_invocable_v<const Body&, Index, const view_of_spec_t<S>&...>;
    else if constexpr (Rank == 2) return std::is_invocable_v<const Body&, Index, Index, const view_of_spec_t<S>&...>;
    else return std::is_invocable_v<const Body&, Index, Index, Index, const view_of_spec_t<S>&...>;
  }();
};

template <class... C> struct tile_size_rank { static constexpr std::size_t value = 0; };
template <class C, class... Rest> struct tile_size_rank<C, Rest...> {
  static constexpr std::size_t value =
      is_tile_size_v<C> ? is_tile_size<std::remove_cvref_t<C>>::rank : tile_size_rank<Rest...>::value;
};

template <std::size_t Rank, class C>
inline constexpr bool cached_rank_matches_v = [] {
  if constexpr (is_cached_v<C>) return std::remove_cvref_t<C>::rank == Rank;
  else return true;
}();

/// The checks of tile_loop's arguments, in the order a user would fix them.
template <class Extent, class... Args>
constexpr bool check_tile_args() {
  if constexpr (!extent_traits<Extent>::valid) {
    static_assert(dependent_false<Extent>,
                  "acc::tile_loop: the first argument must be an iteration count (an integer), acc::range(lo, hi) "
                  "or acc::collapse(n0, n1[, n2])");
    return false;
  } else if constexpr (sizeof...(Args) == 0) {
    static_assert(dependent_false<Extent>,
                  "acc::tile_loop: the body is missing; write acc::tile_loop(n, acc::tile_size(256), ..., "
                  "ACC_LAMBDA(int i, ...) { ... })");
    return false;
  } else {
    using Tuple = std::tuple<Args...>;
    constexpr std::size_t n = sizeof...(Args) - 1;
    constexpr std::size_t rank = extent_traits<Extent>::rank;
    using Body = body_of_t<Args...>;
    using Index = typename extent_traits<Extent>::index_type;
    using Specs = decltype(cached_of(std::declval<const Args&>()...));
    constexpr bool all_args = []<std::size_t... I>(std::index_sequence<I...>) {
      return (is_tile_arg_v<std::tuple_element_t<I, Tuple>> && ...);
    }(std::make_index_sequence<n>{});
    constexpr bool any_rejected = []<std::size_t... I>(std::index_sequence<I...>) {
      return (is_tile_rejected_v<std::tuple_element_t<I, Tuple>> || ...);
    }(std::make_index_sequence<n>{});
    constexpr std::size_t shapes = []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::size_t(is_tile_size_v<std::tuple_element_t<I, Tuple>>) + ... + 0);
    }(std::make_index_sequence<n>{});
    constexpr std::size_t shape_rank = []<std::size_t... I>(std::index_sequence<I...>) {
      return tile_size_rank<std::tuple_element_t<I, Tuple>...>::value;
    }(std::make_index_sequence<n>{});
    constexpr bool vector_given = []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::is_same_v<std::remove_cvref_t<std::tuple_element_t<I, Tuple>>, vector_length_t> || ...);
    }(std::make_index_sequence<n>{});
    constexpr bool ranks_match = []<std::size_t... I>(std::index_sequence<I...>) {
      return (cached_rank_matches_v<rank, std::tuple_element_t<I, Tuple>> && ...);
    }(std::make_index_sequence<n>{});
    if constexpr (any_rejected) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: num_workers, shared_bytes and reduction do not apply to tile_loop; the tile "
                    "shape (acc::tile_size) sets the threads of a gang and acc::cached / acc::cache_bytes its "
                    "shared memory");
      return false;
    } else if constexpr (!all_args) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: an argument between the extent and the body is not a tile_loop clause; "
                    "clauses are acc::tile_size, acc::cached (dist_private, ...), acc::cache_bytes, num_gangs, "
                    "async, if_, device_num, default_present, and the body comes last");
      return false;
    } else if constexpr (shapes > 1 || (shapes == 1 && vector_given)) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: give the tile shape once, as acc::tile_size(...) (or vector_length(n) in 1D)");
      return false;
    } else if constexpr (shapes == 1 && shape_rank != rank) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: tile_size must have one extent per dimension of the iteration space, e.g. "
                    "acc::tile_size(16, 16) for acc::collapse(ni, nj)");
      return false;
    } else if constexpr (vector_given && rank != 1) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: vector_length gives a 1D tile; for acc::collapse use acc::tile_size(t0, t1[, t2])");
      return false;
    } else if constexpr (!ranks_match) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: a cached array's rank differs from the iteration space's; cache arrays of "
                    "the tile's rank (a 1D acc::view of a row for a 1D tile)");
      return false;
    } else if constexpr (!tile_body_form<Body, Index, rank, Specs>::tile_level &&
                         !tile_body_form<Body, Index, rank, Specs>::per_iteration) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: the body must take the indices and then one cached_view per cached() clause, "
                    "ACC_LAMBDA(int i, int j, const acc::cached_view<float, 2>& a) { ... }, or the tile and the "
                    "views, ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<float, 2>& a) { ... }");
      return false;
    } else if constexpr (!std::is_copy_constructible_v<Body>) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: the body must be copyable, as it is copied to every gang; capture by value");
      return false;
    } else {
      return true;
    }
  }
}

/// A construct's body with its cached() clauses: one object, so that the arrays in both are
/// implicit data of the construct (detail/capture.hpp) and reach the device together.
template <class Body, class Specs>
struct tile_closure {
  Body body;
  Specs specs;
};

/// Where each cached() clause lives in the gang's shared memory (bytes), then acc::cache's area.
template <std::size_t N>
struct tile_layout {
  std::size_t offset[N ? N : 1];
  std::size_t cache_offset;
  std::size_t total;
};

template <std::size_t Rank, class Specs>
tile_layout<std::tuple_size_v<Specs>> layout_of(const int* shape, const Specs& specs, std::size_t cache_bytes) {
  tile_layout<std::tuple_size_v<Specs>> l{};
  std::size_t at = 0;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (([&] {
       const auto& c = std::get<K>(specs);
       using C = std::remove_cvref_t<decltype(c)>;
       using U = std::remove_cv_t<typename C::element_type>;
       std::size_t n = 1;
       for (std::size_t d = 0; d < Rank; ++d)
         n *= static_cast<std::size_t>(!c.range[d].is_fixed ? shape[d] + c.range[d].a + c.range[d].b
                                       : d == Rank - 1   ? widened_ext(c.range[d].a, c.range[d].b, last_dim_align_v<C>)
                                                         : c.range[d].b);
       l.offset[K] = at;
       at += (n * sizeof(U) + 15) / 16 * 16;
     }()),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<Specs>>{});
  l.cache_offset = at;
  l.total = at + (cache_bytes + 15) / 16 * 16;
  return l;
}

/// Clause values no device accepts.
template <std::size_t Rank, class Specs>
void check_tile_spec(const tile_spec<Rank>& s, const Specs& specs, const call_site& site) {
  long long threads = 1;
  for (std::size_t d = 0; d < Rank; ++d) {
    if (s.shape[d] < 1)
      fail<bad_clause>(site, "tile_size extent " + std::to_string(s.shape[d]) + " of dimension " + std::to_string(d) +
                                 " must be at least 1");
    threads *= s.shape[d];
  }
  if (threads > (1 << 20)) fail<bad_clause>(site, "the tile has " + std::to_string(threads) + " iterations; at most 1024 run on a GPU");
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (([&] {
       const auto& c = std::get<K>(specs);
       using T = typename std::remove_cvref_t<decltype(c)>::element_type;
       const std::string name = "cached() clause " + std::to_string(K + 1) +
                                (c.label[0] ? " ('" + std::string(c.label) + "')" : std::string());
       for (std::size_t d = 0; d < Rank; ++d) {
         if (c.range[d].is_fixed && c.range[d].b < 0)
           fail<bad_clause>(site, name + ": fixed(" + std::to_string(c.range[d].a) + ", " + std::to_string(c.range[d].b) +
                                      ") has a negative count");
         if (!c.range[d].is_fixed && (c.range[d].a < 0 || c.range[d].b < 0))
           fail<bad_clause>(site, name + ": halo(" + std::to_string(c.range[d].a) + ", " + std::to_string(c.range[d].b) +
                                      ") is negative");
       }
       if (std::is_const_v<T> && c.mode.has(write_back))
         fail<bad_clause>(site, name + " has write_back but its elements are const");
     }()),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<Specs>>{});
}

template <class Index, std::size_t Rank>
tile_geometry<Index, Rank> geometry_of(const index_space<Index, Rank>& space, const int* shape, const call_site& site) {
  tile_geometry<Index, Rank> g{};
  g.total = 1;
  for (std::size_t d = 0; d < Rank; ++d) {
    g.lo[d] = space.lo[d];
    g.count[d] = space.count[d];
    g.shape[d] = shape[d];
    g.tiles[d] = (space.count[d] + std::uint64_t(shape[d]) - 1) / std::uint64_t(shape[d]);
    if (g.tiles[d] != 0 && g.total > UINT64_MAX / g.tiles[d]) fail<bad_clause>(site, "the number of tiles exceeds 2^64");
    g.total *= g.tiles[d];
  }
  return g;
}

/// Calls the body of one tile in the form it was written in (form 2: once; form 1: per
/// iteration inside the extent), given the views.
template <class Body, class Index, std::size_t Rank, class... V>
ACC_DETAIL_HD void call_tile_body(const Body& body, const tile_t<Rank, Index>& t, const V&... views) {
  if constexpr (std::is_invocable_v<const Body&, const tile_t<Rank, Index>&, const V&...>) {
    body(t, views...);
  } else {
    for_tile_iterations(t, [&](auto... i) { body(i..., views...); });
  }
}

}  // namespace detail
}  // namespace acc

#include <acc/backend/host/tile.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/tile.hpp>
#endif

namespace acc {
namespace detail {

template <class Extent, class Body, class Specs, std::size_t Rank>
void run_tile_loop(const Extent& extent, const tile_spec<Rank>& spec, const Body& body, const Specs& specs,
                   const call_site& site) {
  const auto [space, total, p] = plan_construct(extent, spec.launch, site);
  check_tile_spec(spec, specs, site);
  const auto geo = geometry_of(space, spec.shape, site);
  const auto layout = layout_of<Rank>(spec.shape, specs, spec.cache_bytes);
  const tile_closure<Body, Specs> closure{body, specs};
#if defined(ACC_DETAIL_CUDA)
  if (p.where == target::nvidia) {
    mapped_body<tile_closure<Body, Specs>> mapped(closure, p.device, spec.launch, total > 0, site);
    if (total > 0) cuda::run_tiles(geo, spec.launch, layout, spec.cache_bytes, p.device, mapped.get(), site);
    return mapped.finish();
  }
#endif
  if (spec.launch.default_present && spec.launch.if_) check_present(closure, spec.launch, site);
  if (total == 0) return;
  host::run_tiles(geo, spec.launch.num_gangs, layout, spec.cache_bytes, closure);
}

}  // namespace detail

/// Runs `extent` in tiles of tile_size iterations, one gang per tile, with the arrays of the
/// acc::cached clauses staged in the gang's shared memory (software-managed cache; fcw's
/// fetch / channel / write-back, MACC's team-memory chunks). See the file comment for examples.
/// - `extent`: a count, acc::range(lo, hi) or acc::collapse(n0, n1[, n2]); tile_size has as
///   many extents (default 256, 16 x 16, 4 x 8 x 8; in 1D vector_length(n) also gives it).
/// - Clauses: acc::tile_size, acc::cached / dist_private / dist_firstprivate / dist_lastprivate
///   (any number, each array of the tile's rank), acc::cache_bytes (room for acc::cache),
///   num_gangs (caps the gangs; they then take several tiles each), async, if_, device_num,
///   default_present. num_workers, shared_bytes and reduction are rejected at compile time.
/// - Body form 1, per iteration: body(i[, j[, k]], views...), one const cached_view<T, R>& per
///   cached clause in clause order; no barriers inside (reads of other iterations' channel
///   writes are not ordered). Form 2, tile level: body(const tile_t<R, Index>& t, views...),
///   run by every thread of the gang, calling acc::tile_for, tile_barrier, per_iteration and
///   acc::cache. Arrays captured by the body and those in cached clauses get implicit data as
///   in parallel_loop.
/// - Shared memory: per clause the product over dimensions of (tile size + before + after),
///   or the fixed count, times sizeof(T), each rounded up to 16 bytes, plus cache_bytes. A
///   fixed range in the last dimension is widened to 16-byte boundaries in storage (rows of
///   4-byte elements can then be read four at a time); its valid range stays lo .. lo + count.
///   Above the device's opt-in limit: acc::bad_clause naming the bytes asked and allowed.
/// - On the host backend tiles run on OpenMP threads, a tile's iterations in order; fetch-only
///   clauses alias the array (the fetch is free), the other modes use a per-thread buffer with
///   the same fetch and write-back as on a GPU (so halos hold the values from the start of the
///   tile, and writes to none/channel storage never reach the array).
/// e.g. acc::tile_loop(n, acc::tile_size(128), acc::cached(x, acc::fetch, acc::halo(1, 1)),
///        ACC_LAMBDA(int i, const acc::cached_view<float, 1>& xc) { y[i] = xc(i - 1) + xc(i + 1); });
template <class Extent, class... Args>
struct tile_loop {
  tile_loop(Extent extent, Args&&... args, std::source_location where = std::source_location::current()) {
    if constexpr (detail::check_tile_args<Extent, Args...>()) {
      constexpr std::size_t rank = detail::extent_traits<Extent>::rank;
      const detail::call_site site{"tile_loop", where};
      static const detail::nvtx_name name = detail::make_nvtx_name(site);
      const detail::nvtx_range range(name);
      auto all = std::forward_as_tuple(std::as_const(args)...);
      constexpr std::size_t n = sizeof...(Args) - 1;
      const auto spec = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return detail::fold_tile_args<rank>(std::get<I>(all)...);
      }(std::make_index_sequence<n>{});
      const auto specs = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return detail::cached_of(std::get<I>(all)...);
      }(std::make_index_sequence<n>{});
      detail::run_tile_loop(extent, spec, std::get<n>(all), specs, site);
    }
  }
};

template <class Extent, class... Args>
tile_loop(Extent, Args&&...) -> tile_loop<Extent, Args...>;

}  // namespace acc

// The tuple protocol of acc::cached_views_t (structured bindings).
template <class... V>
struct std::tuple_size<acc::cached_views_t<V...>> : std::integral_constant<std::size_t, sizeof...(V)> {};
template <std::size_t K, class... V>
struct std::tuple_element<K, acc::cached_views_t<V...>> {
  using type = std::tuple_element_t<K, std::tuple<V...>>;  // a type computation only
};
