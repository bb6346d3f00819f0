//! @file acc::cache, OpenACC's `cache` directive (OpenACC 3.3 §2.10) in tile-level code: one
//! array's range, or a list of array sections (acc::section(a, ranges...)) whose views come
//! back as an acc::cached_views_t for structured bindings.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/cached_view.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/tile_ops.hpp>
#include <acc/detail/tile_range.hpp>
#include <acc/detail/tile_sections.hpp>
#include <acc/section.hpp>
#include <acc/tile_clauses.hpp>
#include <acc/tile_level.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc {

/// The tile dimensions that the ranges of a lower-rank array follow in acc::cache:
/// acc::tile_dims<0> for a 1D array indexed by the first of a 2D tile's indices, <0, 2> for a
/// 2D array indexed (i, k) in an (i, j, k) tile. Without it an array of rank Ra follows the
/// tile's last Ra dimensions. Only halo ranges depend on it (fixed ranges are absolute).
template <int... D>
struct tile_dims_t {};
template <int... D>
inline constexpr tile_dims_t<D...> tile_dims{};

namespace detail {
/// tile_dims_t of the last Ra of R dimensions.
template <std::size_t R, std::size_t Ra>
ACC_DETAIL_HD constexpr auto trailing_tile_dims() noexcept {
  return []<std::size_t... K>(std::index_sequence<K...>) { return tile_dims_t<static_cast<int>(R - Ra + K)...>{}; }(
      std::make_index_sequence<Ra>{});
}
/// Whether D... are distinct dimensions of a rank-R tile.
template <std::size_t R, int... D>
constexpr bool distinct_tile_dims() noexcept {
  const int d[] = {D..., 0};
  for (std::size_t a = 0; a < sizeof...(D); ++a) {
    if (d[a] < 0 || d[a] >= static_cast<int>(R)) return false;
    for (std::size_t b = 0; b < a; ++b)
      if (d[a] == d[b]) return false;
  }
  return true;
}
}  // namespace detail

/// OpenACC's `cache` directive (OpenACC 3.3 §2.10) in tile-level code: the gang loads the
/// range of `a` given by one range per dimension (acc::fixed(lo, count), or acc::halo relative
/// to the tile's iterations) into the tile's acc::cache area and returns a read-only view,
/// acc::cached_view<const T, Ra>, with global indexing (on the host backend the view aliases
/// the array).
/// - Collective: every thread of the gang calls it, from tile-level code (a call inside
///   acc::tile_for is acc::error on the host, a message and a trap on a GPU).
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
/// - The array may have a lower rank than the tile, as in OpenACC, where `cache(x[j-1:3])` sits
///   in a loop nest over (i, j): its ranges are in the array's own dimensions, a halo range
///   following the tile's matching trailing dimension (x's halo(1, 1) follows j, the tile's
///   last), or the dimensions named by acc::tile_dims (acc::cache(t, acc::tile_dims<0>, y,
///   acc::halo(1, 1)) follows i). A lower-rank range is loaded by all the gang's threads.
/// - The view is read-only (a write through it does not compile): writes would stay in shared
///   memory on a GPU but reach the array on the host.
/// - Several arrays at once: the list form below, acc::cache(t, acc::section(a, ranges...), ...).
/// e.g. for (int jt = 0; jt < n; jt += 256) { auto p = acc::cache(t, pos, acc::fixed(jt, 256)); acc::tile_for(t, ...); }
template <std::size_t R, class I, class A, class... Ranges>
ACC_DETAIL_HD auto cache(const tile_t<R, I>& t, const A& a, Ranges... ranges) {
  static_assert(detail::cacheable<std::remove_cvref_t<A>>::value,
                "acc::cache: the array must be an acc::array or acc::view captured by the body");
  if constexpr (detail::cacheable<std::remove_cvref_t<A>>::value) {
    constexpr std::size_t rank = detail::cacheable<std::remove_cvref_t<A>>::rank;
    static_assert(rank <= R, "acc::cache: the array's rank exceeds the tile's; cache a section of at most the tile's rank");
    if constexpr (rank <= R) return cache(t, detail::trailing_tile_dims<R, rank>(), a, ranges...);
  }
}

/// acc::cache with the tile dimensions the array's halo ranges follow named:
/// acc::cache(t, acc::tile_dims<0>, y, acc::halo(1, 1)) in a 2D tile caches y[i - 1 .. i + 1]
/// for the tile's i. One distinct tile dimension per dimension of the array.
template <std::size_t R, class I, int... D, class A, class... Ranges>
ACC_DETAIL_HD auto cache(const tile_t<R, I>& t, tile_dims_t<D...>, const A& a, Ranges... ranges) {
  static_assert(detail::cacheable<std::remove_cvref_t<A>>::value,
                "acc::cache: the array must be an acc::array or acc::view captured by the body");
  if constexpr (detail::cacheable<std::remove_cvref_t<A>>::value) {
    constexpr std::size_t rank = detail::cacheable<std::remove_cvref_t<A>>::rank;
    static_assert(rank <= R, "acc::cache: the array's rank exceeds the tile's; cache a section of at most the tile's rank");
    static_assert(sizeof...(Ranges) == rank && (detail::is_range_v<Ranges> && ...),
                  "acc::cache: give one range per dimension of the array: acc::fixed(lo, count) or acc::halo(before, after)");
    static_assert(sizeof...(D) == rank, "acc::cache: acc::tile_dims names one tile dimension per dimension of the array");
    static_assert(detail::distinct_tile_dims<R, D...>(),
                  "acc::cache: acc::tile_dims<...> must name distinct dimensions of the tile, each below its rank");
    // Read-only: on a GPU a write would stay in shared memory, on the host it would reach the array.
    using T = const typename detail::cacheable<std::remove_cvref_t<A>>::element_type;
    const detail::dim_range range[] = {detail::to_dim_range(ranges)...};
    const int tile_dim[] = {D...};
    return detail::tile_ops::cache_one<T, rank>(t, a, range, tile_dim);
  }
}

/// What acc::cache's list form returns: the sections' views (acc::cached_view<const T, R>,
/// read-only), in the order of the sections, for structured bindings on the host and on a GPU:
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

/// OpenACC's `cache` directive with a list of array sections, `#pragma acc cache(a[i0:16][k0:16],
/// b[k0:16][j0:16])` (OpenACC 3.3 §2.10): acc::cache(t, acc::section(a, ranges...), ...) with
/// N >= 1 sections, each one range per dimension of its array (of at most the tile's rank, a
/// lower-rank section's halo ranges following the tile's trailing dimensions as in the single
/// call; element types may differ). Returns the N read-only views in order, an acc::cached_views_t
/// for structured bindings.
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
template <std::size_t R, class I, class T, std::size_t N, bool Rel, class... S>
ACC_DETAIL_HD auto cache(const tile_t<R, I>& t, const section_t<T, N, Rel>& first, const S&... rest) {
  static_assert((detail::is_section_v<S> && ...),
                "acc::cache: in the list form every argument after the tile is an acc::section(a, ranges...); write "
                "acc::cache(t, acc::section(a, ...), acc::section(b, ...)), or acc::cache(t, a, ranges...) for one array");
  if constexpr ((detail::is_section_v<S> && ...)) {
    constexpr bool ranks = N <= R &&
                           ((detail::section_rank<std::remove_cvref_t<S>>::value <= R) && ...);
    static_assert(ranks, "acc::cache: a section's array has a higher rank than the tile; cache sections of at most "
                         "the tile's rank");
    if constexpr (ranks)
      return detail::tile_ops::cache_sections(t, std::make_index_sequence<1 + sizeof...(S)>{}, first, rest...);
  }
}

}  // namespace acc

// The tuple protocol of acc::cached_views_t (structured bindings).
template <class... V>
struct std::tuple_size<acc::cached_views_t<V...>> : std::integral_constant<std::size_t, sizeof...(V)> {};
template <std::size_t K, class... V>
struct std::tuple_element<K, acc::cached_views_t<V...>> {
  using type = std::tuple_element_t<K, std::tuple<V...>>;  // a type computation only
};

#include <acc/detail/header_close.hpp>
