//! @file What run_tile_loop settles before a backend runs the tiles: the clause values checked,
//! the tiling of the extent, where each cached clause lies in the gang's shared memory, and
//! the closure of body and clauses; and how a backend calls the body for one tile.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/detail/tile_box.hpp>
#include <acc/detail/tile_clauses.hpp>
#include <acc/detail/tile_fwd.hpp>
#include <acc/detail/tile_state.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>
#include <acc/tile_clauses.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail {

/// The view a body receives for a cached() clause.
template <class C> struct view_of_spec;
template <class T, std::size_t R, unsigned F> struct view_of_spec<cached_t<T, R, F>> {
  using type = cached_view<T, R>;
};
template <class T, std::size_t R> struct view_of_spec<scratch_t<T, R>> {
  using type = cached_view<T, R>;
};
template <class C>
using view_of_spec_t = typename view_of_spec<std::remove_cvref_t<C>>::type;

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
       if constexpr (is_scratch_v<C>) {
         for (std::size_t d = 0; d < C::rank; ++d) n *= static_cast<std::size_t>(c.extents[d]);
       } else {
         for (std::size_t d = 0; d < Rank; ++d) {
           const dim_range& r = c.range[d];
           n *= static_cast<std::size_t>(!r.is_fixed()      ? shape[d] + r.before() + r.after()
                                         : d == Rank - 1 ? widened_ext(r.lo(), r.count(), last_dim_align_v<C>)
                                                         : r.count());
         }
       }
       l.offset[K] = at;
       at += (n * sizeof(U) + 15) / 16 * 16;
     }()),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<Specs>>{});
  l.cache_offset = at;
  l.total = at + (cache_bytes + 15) / 16 * 16;
  return l;
}

/// A cached() clause with its ranges clipped to what the tile's iterations can reach of the
/// array, so that storage for a tile stays bounded whatever the clause says (halo(INT_MAX,
/// INT_MAX) or fixed(0, 1 << 40) on 100 elements). A tile's box is clipped to the array anyway:
/// a halo before the iterations need be no longer than the last iteration's distance from the
/// array's start (nor than the array itself, when the iterations lie inside it), one after
/// them no longer than the first iteration's distance from its end; a fixed range keeps only
/// its part inside the array. `space` gives the iterations of the tile loop, dimension d of a
/// clause following dimension d of the loop.
template <class Spec, class Index, std::size_t Rank>
void clip_ranges(Spec& spec, const index_space<Index, Rank>& space) {
  if constexpr (!is_scratch_v<Spec>) {
    for (std::size_t d = 0; d < Spec::rank; ++d) {
      const dim_range r = spec.range[d];
      const std::int64_t n = static_cast<std::int64_t>(spec.source.extent(d));
      if (r.is_fixed()) {
        // check_tile_spec refused a negative count. Of lo + count and n - lo, each computed only
        // where it cannot overflow: a sum of a negative lo and a count, a difference of two
        // non-negative values.
        const std::int64_t lo = r.lo() < 0 ? 0 : (r.lo() < n ? r.lo() : n);
        const std::int64_t hi = r.lo() < 0 ? (r.lo() + r.count() < n ? r.lo() + r.count() : n)
                                           : (r.count() > n - r.lo() ? n : r.lo() + r.count());
        spec.range[d] = dim_range::fixed(lo, hi > lo ? hi - lo : 0);
        continue;
      }
      if (d >= Rank || space.count[d] == 0) continue;
      const std::int64_t first = static_cast<std::int64_t>(space.lo[d]);
      const std::int64_t last = first + static_cast<std::int64_t>(space.count[d] - 1);
      const std::int64_t most_before = last > n ? last : n, most_after = n - first > n ? n - first : n;
      spec.range[d] = dim_range::halo(r.before() < most_before ? r.before() : most_before,
                                      r.after() < most_after ? r.after() : most_after);
    }
  }
}
template <class Index, std::size_t Rank, class... S>
std::tuple<S...> clip_ranges(std::tuple<S...> specs, const index_space<Index, Rank>& space) {
  std::apply([&](S&... c) { (clip_ranges(c, space), ...); }, specs);
  return specs;
}

/// The largest tile, in iterations, and the largest first extent of a 3D tile: NVIDIA GPUs'
/// limits on a block's threads (a tile is one block, one thread per iteration).
inline constexpr unsigned long long max_tile_iterations = 1024;
inline constexpr int max_tile_first_of_three = 64;

/// Clause values no device accepts.
template <std::size_t Rank, class Specs>
void check_tile_spec(const tile_spec<Rank>& s, const Specs& specs, const call_site& site) {
  for (std::size_t d = 0; d < Rank; ++d)
    if (s.shape[d] < 1)
      fail<bad_clause>(site, s.shape_from_vector_length
                                 ? "vector_length(" + std::to_string(s.shape[0]) +
                                       "), the tile's shape, must be at least 1"
                                 : "tile_size extent " + std::to_string(s.shape[d]) + " of dimension " +
                                       std::to_string(d) + " must be at least 1");
  // A GPU runs a tile's iterations as one block's threads; the host takes the same shapes, so
  // that a clause means the same on every backend.
  unsigned long long iterations = 1;
  bool overflow = false;  // three int extents can pass 64 bits
  for (std::size_t d = 0; d < Rank; ++d) {
    const auto e = static_cast<unsigned long long>(s.shape[d]);
    overflow = overflow || iterations > ~0ull / e;
    iterations *= e;
  }
  const bool too_many = overflow || iterations > max_tile_iterations;
  if (too_many || (Rank == 3 && s.shape[0] > max_tile_first_of_three)) {
    std::string shape = s.shape_from_vector_length ? "vector_length(" : "tile_size(";
    for (std::size_t d = 0; d < Rank; ++d) shape += (d ? ", " : "") + std::to_string(s.shape[d]);
    shape += ")";
    if (too_many)
      fail<bad_clause>(site, shape + " asks " + (overflow ? "more than 2^64" : std::to_string(iterations)) +
                                 " iterations per tile; at most " + std::to_string(max_tile_iterations) +
                                 " on every backend (a GPU runs a tile as one block of threads)");
    fail<bad_clause>(site, shape + ": the first of three extents may be at most " +
                               std::to_string(max_tile_first_of_three) +
                               " on every backend (a GPU runs it in a block's third thread dimension)");
  }
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (([&] {
       const auto& c = std::get<K>(specs);
       using C = std::remove_cvref_t<decltype(c)>;
       using T = typename C::element_type;
       if constexpr (is_scratch_v<C>) {
         std::size_t bytes = sizeof(T);
         for (std::size_t d = 0; d < C::rank; ++d) {
           if (c.extents[d] < 0)
             fail<bad_clause>(site, "scratch() clause " + std::to_string(K + 1) + ": extent " +
                                        std::to_string(c.extents[d]) + " of dimension " + std::to_string(d) +
                                        " is negative");
           // Team memory is small (kilobytes); a product past 2^40 bytes is a mistake, not a shape.
           if (c.extents[d] > 0 && bytes > (std::size_t(1) << 40) / static_cast<std::size_t>(c.extents[d]))
             fail<bad_clause>(site, "scratch() clause " + std::to_string(K + 1) + " asks more than 2^40 bytes per gang");
           bytes *= static_cast<std::size_t>(c.extents[d]);
         }
       } else {
         const std::string name = "cached() clause " + std::to_string(K + 1) +
                                  (c.label[0] ? " ('" + std::string(c.label) + "')" : std::string());
         for (std::size_t d = 0; d < Rank; ++d) {
           const dim_range& r = c.range[d];
           if (r.is_fixed() && r.count() < 0)
             fail<bad_clause>(site, name + ": fixed(" + std::to_string(r.lo()) + ", " + std::to_string(r.count()) +
                                        ") has a negative count");
           if (!r.is_fixed() && (r.before() < 0 || r.after() < 0))
             fail<bad_clause>(site, name + ": halo(" + std::to_string(r.before()) + ", " + std::to_string(r.after()) +
                                        ") is negative");
         }
         if (std::is_const_v<T> && c.mode.has(write_back))
           fail<bad_clause>(site, name + " has write_back but its elements are const");
       }
     }()),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<Specs>>{});
}

template <class Index, std::size_t Rank>
tile_geometry<Index, Rank> geometry_of(const index_space<Index, Rank>& space, const int* shape, const call_site& site) {
  tile_geometry<Index, Rank> g{};
  g.total = 1;
  // An empty dimension leaves no tiles, however many the others have.
  bool empty = false;
  for (std::size_t d = 0; d < Rank; ++d) empty = empty || space.count[d] == 0;
  for (std::size_t d = 0; d < Rank; ++d) {
    g.lo[d] = space.lo[d];
    g.count[d] = space.count[d];
    g.shape[d] = shape[d];
    g.tiles[d] = (space.count[d] + std::uint64_t(shape[d]) - 1) / std::uint64_t(shape[d]);
    if (empty) continue;
    if (g.total > UINT64_MAX / g.tiles[d]) fail<bad_clause>(site, "the number of tiles exceeds 2^64");
    g.total *= g.tiles[d];
  }
  if (empty) g.total = 0;
  return g;
}

/// Calls the body of one tile in the form it was written in (form 2: once; form 1: per
/// iteration inside the extent, through the backend's Ops), given the views.
template <class Ops, class Body, class Index, std::size_t Rank, class... V>
ACC_DETAIL_HD void call_tile_body(const Body& body, const tile_t<Rank, Index>& t, const V&... views) {
  if constexpr (std::is_invocable_v<const Body&, const tile_t<Rank, Index>&, const V&...>) {
    body(t, views...);
  } else {
    Ops::for_tile_iterations(t, [&](auto... i) { body(i..., views...); });
  }
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
