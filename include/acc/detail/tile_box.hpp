//! @file The part of an array a tile caches (cache_box): its bounds for a tile, its storage
//! layout, its place in the tile's acc::cache area, the loops that load and store it, and
//! views on it. The loops take the backend's thread positions (`Threads`: the gang's threads
//! on a GPU, one thread on the host).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/detail/tile_fwd.hpp>
#include <acc/detail/tile_range.hpp>
#include <acc/detail/tile_state.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace acc::detail {

/// The part of an array a tile caches: storage layout (origin, ext) and the valid range
/// [lo, hi) = the box clipped to the array.
template <std::size_t R>
struct cache_box {
  std::int64_t origin[R];
  std::int64_t ext[R];
  std::int64_t lo[R];
  std::int64_t hi[R];
};

/// Where one acc::cache view lies in the tile's area (byte `at`), its box, and whether it fit.
template <std::size_t R>
struct cache_piece {
  cache_box<R> box;
  std::size_t at;
  bool room;
};

/// Calls f(off, g0[, g1[, g2]]) for every element (g0, g1, g2) of [lo, hi), where off is the
/// element's offset in storage laid out as box b, spread over Threads' positions: on a GPU the
/// gang's threads, the last dimension over the block's x threads (coalesced); on the host in
/// order.
template <std::size_t R, class Threads, class F>
ACC_DETAIL_HD void for_each_in_box(const cache_box<R>& b, const std::int64_t* lo, const std::int64_t* hi, const F& f) {
  int n[R] = {}, base[R] = {}, stride[R] = {};
  stride[R - 1] = 1;
  for (std::size_t d = R - 1; d-- > 0;) stride[d] = stride[d + 1] * static_cast<int>(b.ext[d + 1]);
  for (std::size_t d = 0; d < R; ++d) {
    n[d] = hi[d] > lo[d] ? static_cast<int>(hi[d] - lo[d]) : 0;
    base[d] = static_cast<int>(lo[d] - b.origin[d]);
  }
  if constexpr (R == 1) {
    for (int a = Threads::template thread_pos<R>(0); a < n[0]; a += Threads::template thread_step<R>(0))
      f(base[0] + a, lo[0] + a);
  } else if constexpr (R == 2) {
    for (int a = Threads::template thread_pos<R>(0); a < n[0]; a += Threads::template thread_step<R>(0))
      for (int c = Threads::template thread_pos<R>(1); c < n[1]; c += Threads::template thread_step<R>(1))
        f((base[0] + a) * stride[0] + base[1] + c, lo[0] + a, lo[1] + c);
  } else {
    for (int a = Threads::template thread_pos<R>(0); a < n[0]; a += Threads::template thread_step<R>(0))
      for (int c = Threads::template thread_pos<R>(1); c < n[1]; c += Threads::template thread_step<R>(1))
        for (int e = Threads::template thread_pos<R>(2); e < n[2]; e += Threads::template thread_step<R>(2))
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

/// The box of a section of rank Ra for a tile of rank R >= Ra: halo dimensions follow the
/// tile's dimension tile_dim[d] (d itself when tile_dim is null), fixed ones do not; extents
/// of the array clip lo/hi.
template <std::size_t Ra, std::size_t R, class Index, class A>
ACC_DETAIL_HD cache_box<Ra> section_box(const tile_t<R, Index>& t, const dim_range* range, const A& a,
                                        const int* tile_dim) {
  cache_box<Ra> b{};
  for (std::size_t d = 0; d < Ra; ++d) {
    if (range[d].is_fixed()) {
      b.origin[d] = range[d].lo();
      b.ext[d] = range[d].count();
    } else {
      const std::size_t td = tile_dim ? static_cast<std::size_t>(tile_dim[d]) : d;
      b.origin[d] = static_cast<std::int64_t>(t.origin(td)) - range[d].before();
      b.ext[d] = t.size(td) + range[d].before() + range[d].after();
    }
    const std::int64_t n = static_cast<std::int64_t>(a.extent(d));
    b.lo[d] = b.origin[d] < 0 ? 0 : b.origin[d];
    const std::int64_t end = b.origin[d] + b.ext[d];
    b.hi[d] = end < n ? end : n;
    if (b.hi[d] < b.lo[d]) b.hi[d] = b.lo[d];
  }
  return b;
}

/// The box of one range set for a tile (of the tile's rank, dimension d following tile
/// dimension d). With align_last > 1 a fixed last dimension is widened (last_dim_align_v).
template <std::size_t R, class Index, class A>
ACC_DETAIL_HD cache_box<R> box_of(const tile_t<R, Index>& t, const dim_range* range, const A& a,
                                  std::int64_t align_last = 1) {
  cache_box<R> b = section_box<R>(t, range, a, nullptr);
  if (range[R - 1].is_fixed() && align_last > 1) {
    b.ext[R - 1] = widened_ext(range[R - 1].lo(), range[R - 1].count(), align_last);
    b.origin[R - 1] = widened_origin(range[R - 1].lo(), align_last);
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
    if (!range[d].is_fixed()) {
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

/// The part of acc::cache before the load: checks that it runs in tile-level code and the
/// ranges, computes the box (of the array's rank Ra; halo dimension d follows tile dimension
/// tile_dim[d]) and takes the view's piece of the tile's area. Ops (the backend's tile_ops)
/// reports a call inside tile_for, a negative range, and a piece that does not fit here if
/// Ops::overflow_at_call (the host, with acc::bad_clause).
template <class Ops, std::size_t Ra, std::size_t R, class I, class A>
ACC_DETAIL_HD cache_piece<Ra> place_in_cache(const tile_t<R, I>& t, const A& a, const dim_range* range,
                                             const int* tile_dim) {
  using U = std::remove_cv_t<typename cacheable<std::remove_cvref_t<A>>::element_type>;
  if (tile_access::in_tile_for(t)) Ops::cache_in_tile_for();
  for (std::size_t d = 0; d < Ra; ++d) {
    // Of before(), after() and count() none may be negative (lo() may).
    const dim_range& r = range[d];
    if ((r.is_fixed() ? r.count() : r.after()) < 0 || (!r.is_fixed() && r.before() < 0))
      Ops::cache_bad_range(r.is_fixed() ? r.lo() : r.before(), r.is_fixed() ? r.count() : r.after());
  }
  cache_piece<Ra> piece{section_box<Ra>(t, range, a, tile_dim), 0, false};
  const std::size_t bytes = box_volume(piece.box) * sizeof(U);
  piece.room = tile_access::take_cache<Ops>(t, bytes, piece.at);
  if constexpr (Ops::overflow_at_call)
    if (!piece.room) Ops::cache_overflow(bytes, piece.at, tile_access::cache_bytes(t));
  return piece;
}

/// The tile dimensions a section of rank Ra follows in a tile of rank R when none are named:
/// the trailing ones (a 1D section in a 2D tile follows dimension 1, as OpenACC's
/// `cache(b[j-1:3])` inside `for i { for j {...} }` follows the inner loop).
template <std::size_t Ra>
struct dim_map {
  int d[Ra];
};
template <std::size_t R, std::size_t Ra>
ACC_DETAIL_HD constexpr dim_map<Ra> trailing_dims() noexcept {
  dim_map<Ra> m{};
  for (std::size_t k = 0; k < Ra; ++k) m.d[k] = static_cast<int>(R - Ra + k);
  return m;
}

template <class T, std::size_t R>
ACC_DETAIL_HD cached_view<T, R> view_on(T* storage, const cache_box<R>& b, const char* label) {
  std::int64_t stride[R] = {};
  box_strides(b, stride);
  return cached_view<T, R>(storage, b.origin, stride, b.lo, b.hi, label);
}

/// The view of an acc::scratch clause: its storage, row-major, indexed from 0 to its extents.
template <class T, std::size_t R>
ACC_DETAIL_HD cached_view<T, R> scratch_view(T* storage, const std::int64_t* extents) {
  std::int64_t origin[R] = {}, stride[R] = {};
  stride[R - 1] = 1;
  for (std::size_t d = R - 1; d-- > 0;) stride[d] = stride[d + 1] * extents[d + 1];
  return cached_view<T, R>(storage, origin, stride, origin, extents, "scratch");
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
template <std::size_t R, class Threads, class A, class U>
ACC_DETAIL_HD void load_box(const A& a, U* storage, const cache_box<R>& b) {
  for_each_in_box<R, Threads>(b, b.lo, b.hi, [&](int off, auto... g) { storage[off] = a(g...); });
}

/// a(g[0], ..., g[R - 1]).
template <class A, class G, std::size_t... D>
ACC_DETAIL_HD decltype(auto) element_at(const A& a, const G* g, std::index_sequence<D...>) {
  return a(g[D]...);
}

/// Loads the box's valid range of a into storage laid out as the box, its elements numbered
/// in row-major order and taken by `threads` positions from `first` (a box of lower rank than
/// the gang: every thread of the gang takes a share, none loads an element twice).
template <std::size_t R, class A, class U>
ACC_DETAIL_HD void load_box_spread(const A& a, U* storage, const cache_box<R>& b, std::int64_t first,
                                   std::int64_t threads) {
  std::int64_t n[R], stride[R], total = 1;
  box_strides(b, stride);
  for (std::size_t d = 0; d < R; ++d) {
    n[d] = b.hi[d] - b.lo[d];
    total *= n[d];
  }
  for (std::int64_t k = first; k < total; k += threads) {
    std::int64_t rest = k, off = 0, g[R];
    for (std::size_t d = R; d-- > 0;) {
      g[d] = b.lo[d] + rest % n[d];
      rest /= n[d];
      off += (g[d] - b.origin[d]) * stride[d];
    }
    storage[off] = element_at(a, g, std::make_index_sequence<R>{});
  }
}

/// Stores [lo, hi) of the box's storage to a (collective on a GPU).
template <std::size_t R, class Threads, class A, class U>
ACC_DETAIL_HD void store_box(const A& a, const U* storage, const cache_box<R>& b, const std::int64_t* lo,
                             const std::int64_t* hi) {
  for_each_in_box<R, Threads>(b, lo, hi, [&](int off, auto... g) { a(g...) = storage[off]; });
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
