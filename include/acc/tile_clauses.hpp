//! @file The clauses of acc::tile_loop and the ranges they take: acc::tile_size, acc::halo,
//! acc::fixed, the cache modes acc::fetch / channel / write_back / none, acc::cache_bytes,
//! acc::cached and MACC's dist_private / dist_firstprivate / dist_lastprivate. Plain,
//! trivially copyable values; acc/tile.hpp brings them with the construct.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/array.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/tile_range.hpp>
// Before acc::none (below): acc::device_type's enumerator `none`, declared after it, would
// shadow it (g++ -Wshadow). It costs one header: array.hpp includes all that runtime.hpp does.
#include <acc/runtime.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace acc {

/// The shape of a tile: iterations per gang in each dimension (1 to 3, as many as the extent
/// has). On a GPU each iteration of a tile is one thread of the gang, the last dimension
/// varying fastest (the block's x threads), so the product may be at most 1024 and, in 3D, the
/// first extent at most 64 (a block's limits); every backend holds a shape to these limits
/// (else acc::bad_clause when the construct runs). acc::vector_length(n) is accepted as a 1D
/// shape too.
template <std::size_t Rank>
struct tile_size_t {
  std::array<int, Rank> extents;
  friend constexpr bool operator==(const tile_size_t&, const tile_size_t&) = default;
};

/// acc::tile_size(16, 16): tiles of 16 x 16 iterations. Each value must be >= 1, and the
/// product at most 1024 (else acc::bad_clause when the construct runs, on every backend).
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

ACC_DETAIL_HD constexpr dim_range to_dim_range(halo_t h) noexcept { return dim_range::halo(h.before, h.after); }
ACC_DETAIL_HD constexpr dim_range to_dim_range(fixed_t f) noexcept { return dim_range::fixed(f.lo, f.count); }

template <class R>
inline constexpr bool is_range_v = std::is_same_v<std::remove_cvref_t<R>, halo_t> || std::is_same_v<std::remove_cvref_t<R>, fixed_t>;

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
  static_assert(alignof(T) <= team_alignment,
                "acc::cached: the element type is aligned to more than 16 bytes, which team memory does not guarantee");
  cached_t<T, Rank, fixed_mask<Ranges...>()> c{v, mode, {}, {}};
  if constexpr (sizeof...(Ranges) == 0) {
    for (std::size_t d = 0; d < Rank; ++d) c.range[d] = dim_range::halo(0, 0);
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
/// Gang-private team memory of a fixed shape with no array behind it, for acc::tile_loop
/// (made by acc::scratch<T>(n0[, n1[, n2]])): the body receives an acc::cached_view<T, R>
/// over it, indexed (i[, j[, k]]) from 0 to the extents, in clause order among the cached
/// clauses. Its elements start uninitialised for every tile and are never stored anywhere.
/// Trivially copyable.
template <class T, std::size_t Rank>
struct scratch_t {
  using element_type = T;
  static constexpr std::size_t rank = Rank;
  std::int64_t extents[Rank];
};

/// Team memory for a tile's iterations to share, as g.shared<T>(n0, n1) in acc::parallel:
/// an n0 (x n1 (x n2)) row-major block per gang, indexed from 0, with no backing array (the
/// rank need not be the tile's). Writes are visible to the tile's other iterations after the
/// next acc::tile_barrier or at the end of an acc::tile_for. Extents must be >= 0 (else
/// acc::bad_clause when the construct runs); its bytes count towards the tile's shared memory.
/// e.g. acc::tile_loop(n, acc::tile_size(256), acc::scratch<float>(256),
///        ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<float, 1>& s) { ... });
template <class T, class... N>
constexpr scratch_t<T, sizeof...(N)> scratch(N... n) noexcept {
  static_assert(sizeof...(N) >= 1 && sizeof...(N) <= 3,
                "acc::scratch: give one to three extents, e.g. acc::scratch<float>(16, 17)");
  static_assert(((std::is_integral_v<N> && !std::is_same_v<N, bool>) && ...), "acc::scratch: extents must be integers");
  static_assert(!std::is_const_v<T> && !std::is_reference_v<T>,
                "acc::scratch: the element type must be a non-const object type; scratch memory is written by the body");
  static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_default_constructible_v<T>,
                "acc::scratch: T must be trivially default constructible and destructible (team memory is raw storage)");
  static_assert(alignof(T) <= detail::team_alignment,
                "acc::scratch: T is aligned to more than 16 bytes, which team memory does not guarantee");
  return {{static_cast<std::int64_t>(n)...}};
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

}  // namespace acc

#include <acc/detail/header_close.hpp>
