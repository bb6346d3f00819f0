//! @file Host backend of acc::tile_loop: tiles split over the executor's parts (OpenMP threads,
//! or the calling thread), a tile's iterations in order (backend/host/tile_ops.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/host/backend.hpp>
#include <acc/backend/host/executor.hpp>
#include <acc/backend/host/tile_ops.hpp>
#include <acc/detail/task.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/tile_box.hpp>
#include <acc/detail/tile_fwd.hpp>
#include <acc/detail/tile_plan.hpp>
#include <acc/detail/tile_state.hpp>
#include <acc/tile_clauses.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// Fetch-only clauses of const elements read the array in place (nothing can write it through
/// them); every other clause gets storage of its own, so that halos keep the values from the
/// tile's start and writes (to a dist_firstprivate copy, say) reach the array only through
/// write_back, as on a GPU.
template <class T>
bool aliases(cache_mode_t m) {
  return std::is_const_v<T> && m == fetch;
}

/// Stages cached clause K for tile t: a view of the array, or of this thread's buffer
/// (loaded when the mode has fetch); a scratch clause's view of the buffer, from 0.
template <std::size_t Rank, class Index, class Spec>
auto stage(const Spec& s, [[maybe_unused]] const tile_t<Rank, Index>& t, void* buffer) {
  using T = typename Spec::element_type;
  using U = std::remove_cv_t<T>;
  if constexpr (is_scratch_v<Spec>) {
    return scratch_view<T, Spec::rank>(static_cast<T*>(buffer), s.extents);
  } else {
    const cache_box<Rank> b = box_of(t, s.range, s.source, last_dim_align_v<Spec>);
    if (aliases<T>(s.mode)) return view_alias<T, Rank>(s.source, b, s.label);
    U* storage = static_cast<U*>(buffer);
    if (s.mode.has(fetch)) load_box<Rank, host::tile_ops>(s.source, storage, b);
    return view_on<T, Rank>(storage, b, s.label);
  }
}

template <std::size_t Rank, class Index, class Spec>
void unstage(const Spec& s, const tile_t<Rank, Index>& t, const void* buffer) {
  using T = typename Spec::element_type;
  if constexpr (!std::is_const_v<T> && !is_scratch_v<Spec>) {
    if (aliases<T>(s.mode) || !s.mode.has(write_back)) return;
    const cache_box<Rank> b = box_of(t, s.range, s.source, last_dim_align_v<Spec>);
    std::int64_t lo[Rank] = {}, hi[Rank] = {};
    own_range(t, s.range, b, lo, hi);
    store_box<Rank, host::tile_ops>(s.source, static_cast<const T*>(buffer), b, lo, hi);
  }
}

/// Runs tile `num` on the calling thread: stage, body, write back.
template <class Index, std::size_t Rank, class Body, class... S, std::size_t... K>
void run_tile(const tile_geometry<Index, Rank>& g, std::uint64_t num, std::size_t cache_bytes,
              const tile_closure<Body, std::tuple<S...>>& c, tile_scratch& scratch, void* const* buffers,
              std::index_sequence<K...>) {
  const tile_t<Rank, Index> t(g, num, nullptr, cache_bytes, &scratch);
  const std::tuple<view_of_spec_t<S>...> views{host::stage(std::get<K>(c.specs), t, buffers[K])...};
  call_tile_body<host::tile_ops>(c.body, t, std::get<K>(views)...);
  (host::unstage(std::get<K>(c.specs), t, buffers[K]), ...);
}

/// Runs every tile of g. Each part owns its buffers (one per cached clause that does not alias
/// its array, sized for a whole tile) and its per_iteration storage, reused across its tiles.
template <class Index, std::size_t Rank, std::size_t N, class Body, class... S>
void run(backend, const tile_task<tile_geometry<Index, Rank>, tile_layout<N>>& task,
         const tile_closure<Body, std::tuple<S...>>& c, const launch_context& ctx) {
  const tile_geometry<Index, Rank>& g = task.geometry;
  const tile_layout<N>& layout = task.layout;
  executor ex(parts_for(ctx.spec.num_gangs, g.total));
  ex.run_parts([&](std::size_t p) {
    tile_scratch scratch;
    std::vector<aligned_word> storage;
    void* buffers[sizeof...(S) + 1] = {};
    const std::size_t bytes = layout.cache_offset;
    if (bytes) storage.resize((bytes + sizeof(aligned_word) - 1) / sizeof(aligned_word));
    if constexpr (sizeof...(S) > 0)
      for (std::size_t k = 0; k < sizeof...(S); ++k)
        buffers[k] = reinterpret_cast<unsigned char*>(storage.data()) + layout.offset[k];
    ex.part_chunks(p, g.total, [&](std::uint64_t n0, std::uint64_t n1) {
      for (std::uint64_t num = n0; num < n1; ++num)
        run_tile(g, num, task.cache_bytes, c, scratch, buffers, std::index_sequence_for<S...>{});
    }, gang_chunk_min);
  });
  ex.rethrow(ctx.site);
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
