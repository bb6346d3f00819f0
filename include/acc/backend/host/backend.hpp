//! @file The host backend's tag: constructs reach its entries through it (detail/dispatch.hpp).
#pragma once

#include <acc/detail/config.hpp>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// The host backend: OpenMP threads when compiled with OpenMP, else the calling thread. Its
/// entries, one per task kind of detail/task.hpp, each `run(backend, const Task&, const Body&,
/// const launch_context&)`, are in the files named after the construct, as in every backend:
///   loop.hpp            loop_task (parallel_loop)
///   loop_reduction.hpp  loop_reduction_task (parallel_loop with reduction clauses)
///   region.hpp          region_task (parallel)
///   reduce.hpp          reduce_task (parallel_reduce)
///   scan.hpp            scan_task, parallel_scan_task
///   tile.hpp            tile_task (tile_loop)
/// and all of them run their work through executor.hpp (parts, chunks, OpenMP, exceptions).
struct backend {};

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
