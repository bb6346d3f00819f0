//! @file Host backend of parallel_loop: the executor's parts on OpenMP threads, or one part on
//! the calling thread.
#pragma once

#include <acc/backend/host/backend.hpp>
#include <acc/backend/host/executor.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <cstdint>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// parallel_loop on the host: each chunk is the user's own loop (a row-by-row nest when
/// collapsed), so the compiler sees what it would see without acc.
template <class Space, class Body>
void run(backend, const loop_task<Space>& task, const Body& body, const launch_context& ctx) {
  executor ex(static_cast<int>(smaller<std::uint64_t>(thread_count(ctx.spec.num_gangs), task.total)));
  ex.run_parts([&](int p) {
    ex.part_chunks(p, task.total, [&](std::uint64_t t0, std::uint64_t t1) { for_each_flat(task.space, t0, t1, body); });
  });
  ex.rethrow(ctx.site);
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
