//! @file Host backend of acc::tile_loop: tiles over OpenMP threads (or one after another), a
//! tile's iterations in order. Included by acc/tile.hpp after the tile types.
#pragma once

#include <acc/backend/host/loop.hpp>
#include <acc/detail/config.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// Fetch-only clauses read the array in place (nothing can write it through them); every
/// other mode gets storage of its own, so that halos keep the values from the tile's start
/// and writes reach the array only through write_back, as on a GPU.
inline bool aliases(cache_mode_t m) { return m == fetch; }

/// Stages cached clause K for tile t: a view of the array, or of this thread's buffer
/// (loaded when the mode has fetch).
template <std::size_t Rank, class Index, class Spec>
auto stage(const Spec& s, const tile_t<Rank, Index>& t, void* buffer) {
  using T = typename Spec::element_type;
  using U = std::remove_cv_t<T>;
  const cache_box<Rank> b = box_of(t, s.range, s.source, last_dim_align_v<Spec>);
  if (aliases(s.mode)) return view_alias<T, Rank>(s.source, b, s.label);
  U* storage = static_cast<U*>(buffer);
  if (s.mode.has(fetch)) load_box<Rank>(s.source, storage, b);
  return view_on<T, Rank>(storage, b, s.label);
}

template <std::size_t Rank, class Index, class Spec>
void unstage(const Spec& s, const tile_t<Rank, Index>& t, const void* buffer) {
  using T = typename Spec::element_type;
  if constexpr (!std::is_const_v<T>) {
    if (aliases(s.mode) || !s.mode.has(write_back)) return;
    const cache_box<Rank> b = box_of(t, s.range, s.source, last_dim_align_v<Spec>);
    std::int64_t lo[Rank] = {}, hi[Rank] = {};
    own_range(t, s.range, b, lo, hi);
    store_box<Rank>(s.source, static_cast<const T*>(buffer), b, lo, hi);
  }
}

/// Runs tile `num` on the calling thread: stage, body, write back.
template <class Index, std::size_t Rank, class Body, class... S, std::size_t... K>
void run_tile(const tile_geometry<Index, Rank>& g, std::uint64_t num, std::size_t cache_bytes,
              const tile_closure<Body, std::tuple<S...>>& c, host_tile_scratch& scratch, void* const* buffers,
              std::index_sequence<K...>) {
  scratch.next = 0;
  const tile_t<Rank, Index> t(g, num, nullptr, cache_bytes, &scratch);
  const std::tuple<view_of_spec_t<S>...> views{host::stage(std::get<K>(c.specs), t, buffers[K])...};
  call_tile_body(c.body, t, std::get<K>(views)...);
  (host::unstage(std::get<K>(c.specs), t, buffers[K]), ...);
}

/// Runs every tile of g. Each thread owns its buffers (one per cached clause that does not
/// alias its array, sized for a whole tile) and its per_iteration storage, reused across tiles.
template <class Index, std::size_t Rank, class Body, class... S, std::size_t N>
void run_tiles(const tile_geometry<Index, Rank>& g, int num_gangs, const tile_layout<N>& layout, std::size_t cache_bytes,
               const tile_closure<Body, std::tuple<S...>>& c) {
  [[maybe_unused]] const int threads = thread_count(num_gangs);
  first_error error;
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp parallel num_threads(threads) if (threads > 1)
#endif
  {
    host_tile_scratch scratch;
    std::unique_ptr<std::max_align_t[]> storage;
    void* buffers[sizeof...(S) + 1] = {};
    bool failed = false;
    try {
      const std::size_t bytes = layout.cache_offset;
      if (bytes) storage = std::make_unique<std::max_align_t[]>((bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
      if constexpr (sizeof...(S) > 0)
        for (std::size_t k = 0; k < sizeof...(S); ++k)
          buffers[k] = reinterpret_cast<unsigned char*>(storage.get()) + layout.offset[k];
    } catch (...) {
      failed = true;
      error.keep();
    }
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp for schedule(static)
#endif
    for (std::uint64_t num = 0; num < g.total; ++num) {
      if (failed) continue;
      try {
        run_tile(g, num, cache_bytes, c, scratch, buffers, std::index_sequence_for<S...>{});
      } catch (...) {
        failed = true;
        error.keep();
      }
    }
  }
  error.rethrow();
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
