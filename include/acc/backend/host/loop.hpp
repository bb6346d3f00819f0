//! @file Host backend of parallel_loop: the executor's parts on OpenMP threads, or one part on
//! the calling thread.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/host/backend.hpp>
#include <acc/backend/host/executor.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/construct_entry.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <cstdint>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// Runs the iterations [t0, t1) of a loop's flat space: `task` is a loop_task, `body` its body.
using loop_chunk_fn = void (*)(const void* task, const void* body, std::uint64_t t0, std::uint64_t t1);

/// One chunk of a parallel_loop: the user's own loop (a row-by-row nest when collapsed), so the
/// compiler sees what it would see without acc. The only part of the host path made per body.
/// The rank-1 loop is written here rather than reached through for_each_flat: one function
/// fewer for the host compiler to optimise per body (bench/results/compile.txt).
template <class Space, class Body>
void loop_chunk(const void* task, const void* body, std::uint64_t t0, std::uint64_t t1) {
  const Space& s = static_cast<const loop_task<Space>*>(task)->space;
  const Body& f = *static_cast<const Body*>(body);
  if constexpr (Space::rank == 1) {
    for (auto i = index_at(s.lo[0], t0), end = index_at(s.lo[0], t1); i < end; ++i) f(i);
  } else {
    for_each_flat(s, t0, t1, f);
  }
}

/// The parts, the OpenMP region and the exceptions of every parallel_loop: not a template, so a
/// translation unit compiles them once rather than once per body (a chunk is at least
/// loop_chunk_min iterations, so the call through `chunk` costs nothing measurable).
ACC_DETAIL_NOINLINE inline void run_loop_chunks(loop_chunk_fn chunk, const void* task, const void* body,
                                                std::uint64_t total, const launch_context& ctx) {
  executor ex(parts_for(ctx.spec.num_gangs, total));
  ex.run_parts([&](std::size_t p) { ex.part_chunks(p, total, [&](std::uint64_t t0, std::uint64_t t1) { chunk(task, body, t0, t1); }); });
  ex.rethrow(ctx.site);
}

/// The dispatch's entry of parallel_loop, once per space type: `code` is the body's
/// loop_chunk_of, so that a body's whole host path is its loop_chunk.
template <class Space>
void run_loop_entry(const void* task, const void* body, const launch_context& ctx, void*, const void* code) {
  run_loop_chunks(*static_cast<const loop_chunk_fn*>(code), task, body, static_cast<const loop_task<Space>*>(task)->total,
                  ctx);
}

template <class Space, class Body>
inline constexpr loop_chunk_fn loop_chunk_of = &loop_chunk<Space, Body>;

/// parallel_loop on the host: the backend's entry of the construct, as every backend has one.
/// The dispatch calls run_loop_entry through backend_entry_of, which this forwards to.
template <class Space, class Body>
void run(backend, const loop_task<Space>& task, const Body& body, const launch_context& ctx) {
  run_loop_entry<Space>(&task, &body, ctx, nullptr, &loop_chunk_of<Space, Body>);
}

template <class Space, class Body>
constexpr backend_entry backend_entry_of(backend, const loop_task<Space>*, const Body*) {
  return {&run_loop_entry<Space>, &loop_chunk_of<Space, Body>};
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
