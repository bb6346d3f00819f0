//! @file Host backend of the operations inside a tile (cached views, tile_for, tile_barrier,
//! per_iteration, acc::cache): one thread runs a tile's iterations in order, so barriers are
//! no-ops and acc::cache's views alias the array. detail/tile_ops.hpp picks these everywhere
//! but in nvcc's device pass (backend/cuda/tile_ops.hpp, the same members).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/host/backend.hpp>
#include <acc/detail/body_error.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/tile_box.hpp>
#include <acc/detail/tile_range.hpp>
#include <acc/detail/tile_sections.hpp>
#include <acc/detail/tile_state.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

// Not in the ACC_DETAIL_HOST_ABI namespace: nothing here depends on OpenMP, and the public
// tile_t, cached_view and per_iteration, whose definitions serial and OpenMP translation units
// share, reach these.
namespace acc::detail::host {

/// Host storage a thread reuses for per_iteration arrays, a stack of slots: a per_iteration
/// takes the next slot and gives it back when destroyed (in reverse order of construction, as
/// C++ destroys locals), so that one declared in a loop of tile-level code reuses its slot at
/// every step, and the slots never outnumber the per_iteration values live at once. The slots
/// keep their memory from tile to tile.
struct tile_scratch {
  struct slot {
    std::vector<aligned_word> words;
    bool live = false;
  };
  std::vector<slot> slots;
  std::size_t next = 0;
  /// Slot `next`, of at least `bytes`; its number in `taken`.
  ACC_DETAIL_RUNTIME_FN void* take(std::size_t bytes, std::size_t& taken);
  /// Gives back slot k. Slots given back out of order (a per_iteration held by something that
  /// ends sooner than a later one) are reused once every later slot is given back too.
  void give_back(std::size_t k) noexcept {
    slots[k].live = false;
    while (next > 0 && !slots[next - 1].live) --next;
  }
};

struct tile_ops {
  /// The calling thread's position in the tile, and the step to its next one: the thread
  /// takes every position.
  template <std::size_t Rank>
  ACC_DETAIL_HD static constexpr int thread_pos(std::size_t) noexcept { return 0; }
  template <std::size_t Rank>
  ACC_DETAIL_HD static constexpr int thread_step(std::size_t) noexcept { return 1; }

  /// tile_barrier's wait: nothing to wait for.
  static void sync() noexcept {}

  /// Element (i...) of a cached view with storage p (element `origin`), strides in elements.
  template <class T, std::size_t Rank, class... I>
  static T& element(T* const& p, const std::int64_t* origin, const std::int64_t* stride, I... i) {
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    std::int64_t off = 0;
    for (std::size_t d = 0; d < Rank; ++d) off += (idx[d] - origin[d]) * stride[d];
    return p[off];
  }

  // The failures below throw from the runtime (tile_ops-inl.hpp): their messages would cost
  // every translation unit the string code (bench/results/compile.txt).
  [[noreturn]] ACC_DETAIL_RUNTIME_FN static void cache_index_error(const char* label, std::size_t dim, long long index,
                                                                  long long lo, long long hi);

  /// Takes `need` bytes of acc::cache's area after `used` of `total`, if they fit.
  static bool take_room(std::size_t& used, std::size_t need, std::size_t total) noexcept {
    if (need > total - used) return false;
    used += need;
    return true;
  }

  /// Nothing to check at a tile_for or tile_barrier: acc::cache reports a view that does not
  /// fit at the call (cache_overflow).
  template <std::size_t R, class I>
  static void check_cache_room(const tile_t<R, I>&) noexcept {}

  [[noreturn]] ACC_DETAIL_RUNTIME_FN static void cache_bad_range(long long a, long long b);
  [[noreturn]] ACC_DETAIL_RUNTIME_FN static void cache_in_tile_for();
  /// tile_for or tile_barrier (`what`) inside a tile_for's function: on a GPU only the
  /// iterations inside the extent would reach its barrier, so it is refused here too.
  [[noreturn]] ACC_DETAIL_RUNTIME_FN static void tile_level_in_tile_for(const char* what);

  /// An acc::cache view that does not fit the area: acc::bad_clause from the call.
  static constexpr bool overflow_at_call = true;
  [[noreturn]] ACC_DETAIL_RUNTIME_FN static void cache_overflow(std::size_t bytes, std::size_t used, std::size_t total);

  /// f(i[, j[, k]]) for all of the tile's iterations inside the extent, in order. No barrier.
  /// (Host and device: call_tile_body, which both backends share, calls it.)
  template <std::size_t R, class I, class F>
  ACC_DETAIL_HD static void for_tile_iterations(const tile_t<R, I>& t, const F& f) {
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
  }

  /// per_iteration's storage: an array of the tile's size() iterations from the thread's
  /// scratch, each element `init`.
  template <std::size_t R, class I, class T>
  static void iteration_storage(const tile_t<R, I>& t, const T& init, per_iteration_array<T>& s) {
    std::size_t n = 1;
    for (std::size_t d = R; d-- > 0;) {
      s.origin[d] = static_cast<std::int64_t>(t.origin(d));
      s.stride[d] = static_cast<std::int64_t>(n);
      s.shape[d] = t.size(d);
      n *= static_cast<std::size_t>(t.size(d));
    }
    s.scratch = tile_access::scratch(t);
    s.values = static_cast<T*>(s.scratch->take(n * sizeof(T), s.slot));
    for (std::size_t k = 0; k < n; ++k) s.values[k] = init;
  }
  /// Gives per_iteration's array back to the thread's scratch.
  template <class T>
  static void release_iteration_storage(per_iteration_array<T>& s) noexcept {
    if (s.scratch) s.scratch->give_back(s.slot);
  }
  /// How many per_iteration arrays the thread's scratch holds: the most that were live at once
  /// (tests check that it stays bounded).
  template <std::size_t R, class I>
  static std::size_t iteration_slots(const tile_t<R, I>& t) noexcept {
    return tile_access::scratch(t)->slots.size();
  }
  /// per_iteration indexed with `given` indices in a tile of rank `rank`.
  [[noreturn]] ACC_DETAIL_RUNTIME_FN static void iteration_rank_error(std::size_t given, int rank);
  /// per_iteration's value of iteration (i...), one index per dimension of the tile (checked).
  template <class T, class... I>
  static T& iteration_value(T&, const per_iteration_array<T>& s, I... i) {
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    std::int64_t off = 0;
    for (std::size_t d = 0; d < sizeof...(I); ++d) {
#if defined(ACC_BOUNDS_CHECK)
      if (idx[d] < s.origin[d] || idx[d] >= s.origin[d] + s.shape[d])
        throw body_error<error>("per_iteration: index " + std::to_string(idx[d]) + " of dimension " + std::to_string(d) +
                    " is not an iteration of this tile");
#endif
      off += (idx[d] - s.origin[d]) * s.stride[d];
    }
    return s.values[off];
  }

  /// acc::cache(t, a, ranges...): a view of the array itself, valid over the range's box (a
  /// fetch-only view has nothing to load). The array's rank Ra may be below the tile's;
  /// tile_dim names the tile dimension each halo range follows.
  template <class T, std::size_t Ra, std::size_t R, class I, class A>
  static cached_view<T, Ra> cache_one(const tile_t<R, I>& t, const A& a, const dim_range* range, const int* tile_dim) {
    const cache_piece<Ra> piece = place_in_cache<tile_ops, Ra>(t, a, range, tile_dim);
    return view_alias<T, Ra>(a, piece.box, a.label());
  }
  /// acc::cache(t, acc::section(a, ...), ...): as N single calls (sections of lower rank than
  /// the tile follow its trailing dimensions).
  template <std::size_t R, class I, class... S, std::size_t... K>
  static auto cache_sections(const tile_t<R, I>& t, std::index_sequence<K...>, const S&... s) {
    view_pack<cache_piece<section_rank<S>::value>...> piece{};
    // In order (a comma fold), as N single calls: the same pieces, the same overflow report.
    ((pack_get<K>(piece) = place_in_cache<tile_ops, section_rank<S>::value>(
          t, s.source, s.range, trailing_dims<R, section_rank<S>::value>().d)),
     ...);
    using views = cached_views_t<typename section_view<S>::type...>;
    return views{pack_views(view_alias<typename section_view<S>::element_type, section_rank<S>::value>(
        s.source, pack_get<K>(piece).box, s.source.label())...)};
  }
};

}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
