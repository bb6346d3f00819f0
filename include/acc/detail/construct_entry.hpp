//! @file A compute construct's task and body behind function pointers, for the one dispatch
//! path (detail/dispatch.hpp builds the entry of each construct; detail/dispatch-inl.hpp is
//! the path).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/task.hpp>

#include <cstddef>
#include <cstdint>
#include <typeinfo>

namespace acc::detail {

/// One backend's entry for a construct: `run(task, body, ctx, result, code)` runs the task with
/// the body, storing a result (when the task has one) at `result`. Most entries are one function
/// per body and need no `code`; an entry written once per task kind reaches the body's own code
/// through `code` (a rank-1 parallel_loop's host chunk, its kernel), so that a body adds no
/// function to the build beyond that code (bench/results/compile.txt).
struct backend_entry {
  void (*run)(const void* task, const void* body, const launch_context& ctx, void* result, const void* code) = nullptr;
  const void* code = nullptr;
};

/// What the one dispatch path needs of a construct's task and body, behind function pointers.
/// The path itself (run_construct) is compiled once, in the runtime; per body only these small
/// functions are instantiated, so a program's build pays for each construct little more than
/// its kernel (bench/compile).
struct construct_entry {
  std::size_t body_size;
  bool captures;  // false: the body is an empty class, with no data to map
  /// Per body type, set once a copy of the body recorded no array or view: a closure's
  /// captures are the same on every call, so its later constructs need no copy to map.
  unsigned char* captures_no_arrays;
  bool selectable;  // ACC_DEVICE_TYPE=auto may run it on the host (detail/task.hpp, task_selectable)
  void (*copy_body)(void* to, const void* from);
  void (*destroy_body)(void* body) noexcept;
  backend_entry host;
  /// Empty in a translation unit that nvcc did not compile: it has no kernels, so it runs on
  /// the host even when the program's current device is a GPU, as OpenACC's host fallback.
  backend_entry nvidia;
  /// The body type (its mangled name tells apart, in the tune cache, the bodies of a helper
  /// that wraps a construct at one line): a constant, so no function per body.
  const std::type_info* body_type;

  void run_host(const void* task, const void* body, const launch_context& ctx, void* result) const {
    host.run(task, body, ctx, result, host.code);
  }
  void run_nvidia(const void* task, const void* body, const launch_context& ctx, void* result) const {
    nvidia.run(task, body, ctx, result, nvidia.code);
  }
};

/// check_spec, place, map the body's captures (into `copy`, storage for one Body), run where
/// placed, finish. `empty`: the task has no iterations (nothing runs, data still checked);
/// `size`: what acc::adaptive and acc::tuned measure it by (detail/task.hpp, task_size);
/// `nvtx`: the construct's NVTX range, pushed for the run (none: the caller holds one).
ACC_DETAIL_RUNTIME_FN void run_construct(const construct_entry& entry, const void* task, bool empty,
                                         std::uint64_t size, const launch_spec& spec, const void* body, void* copy, void* result,
                                         const call_site& site, nvtx_site* nvtx);

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
