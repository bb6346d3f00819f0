//! @file The host backend's tag: constructs reach its entries through it (detail/dispatch.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <cstddef>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// The host backend: OpenMP threads when compiled with OpenMP, else the calling thread. Its
/// entries, one per task kind of detail/task.hpp, each `run(backend, const Task&, const Body&,
/// const launch_context&)`, are in the files named after the construct, as in every backend:
///   loop.hpp            loop_task (parallel_loop)
///   loop_reduction.hpp  loop_reduction_task (parallel_loop with reduction clauses)
///   region.hpp          region_task (parallel)
///   serial.hpp          serial_task (serial)
///   reduce.hpp          reduce_task (parallel_reduce)
///   scan.hpp            scan_task, parallel_scan_task
///   tile.hpp            tile_task (tile_loop)
/// and all of them run their work through executor.hpp (parts, chunks, OpenMP, exceptions).
/// A task kind whose entry can be written once for every body also has a
/// `backend_entry_of(backend, const Task*, const Body*)` (loop.hpp: parallel_loop), which the
/// dispatch then takes instead of an entry per body (detail/dispatch.hpp).
struct backend {};

/// A unit of host gang and tile memory, aligned for any type (a vector of std::max_align_t
/// itself, an unnamed struct in libstdc++, stops nvcc 13 with an internal error).
struct alignas(alignof(std::max_align_t)) aligned_word {
  unsigned char bytes[alignof(std::max_align_t)];
};

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
