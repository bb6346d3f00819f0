//! @file Runs a tile_loop once its arguments are folded: checks the tile clauses' values, plans the
//! tiles and their shared memory, and hands the task to the one dispatch.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/host/tile.hpp>
#include <acc/detail/capture.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/task.hpp>
#include <acc/detail/tile_clauses.hpp>
#include <acc/detail/tile_plan.hpp>
#include <acc/error.hpp>

#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/tile.hpp>
#endif

#include <cstddef>
#include <type_traits>

namespace acc::detail {

template <class Extent, class Body, class Specs, std::size_t Rank>
void run_tile_loop(const Extent& extent, const tile_spec<Rank>& spec, const Body& body, const Specs& specs,
                   const call_site& site, nvtx_site* nvtx) {
  // The launch clauses are checked by the dispatch, as for every construct; the tile's own here.
  check_tile_spec(spec, specs, site);
  const auto [space, total] = space_of(extent, site);
  const auto geo = geometry_of(space, spec.shape, site);
  const Specs clipped = clip_ranges(specs, space);
  const auto layout = layout_of<Rank>(spec.shape, clipped, spec.cache_bytes);
  using task = tile_task<std::remove_const_t<decltype(geo)>, std::remove_const_t<decltype(layout)>>;
  dispatch(task{{}, geo, layout, spec.cache_bytes}, spec.launch, tile_closure<Body, Specs>{body, clipped}, site,
           nvtx);
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
