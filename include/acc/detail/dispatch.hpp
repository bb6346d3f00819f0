//! @file The one path of every compute construct: plan (checked clauses and iteration space),
//! place (host or which GPU), map (implicit data of what the body captured), run (one backend
//! entry per construct kind), finish (copy out, free).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/construct_entry.hpp>
#include <acc/detail/task.hpp>

#include <acc/backend/host/backend.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/backend.hpp>
#endif

#include <cstddef>
#include <new>
#include <type_traits>
#include <typeinfo>

namespace acc::detail {

// The per-body functions of construct_entry (detail/construct_entry.hpp).
// Each backend provides `run(backend, const Task&, const Body&, const launch_context&)` for
// every task kind (detail/task.hpp); the calls below are unqualified so that they find them by
// argument-dependent lookup in the backend's namespace when a construct instantiates them,
// which lets each public header include only its own constructs' backend entries. A backend
// may also provide `backend_entry_of(backend, const Task*, const Body*)` for a task kind whose
// entry it writes once per kind rather than once per body (found the same way; below, the
// default).

template <class Body>
void copy_body(void* to, const void* from) {
  ::new (to) Body(*static_cast<const Body*>(from));
}

template <class Body>
void destroy_body(void* body) noexcept {
  static_cast<Body*>(body)->~Body();
}

/// The host entry. In a translation unit that nvcc compiled it is the fallback for a machine
/// without a GPU, so it is compiled for size there (cold): the host compiler then spends little
/// time on a path that GPU runs never take.
template <class Task, class Body>
#if defined(ACC_DETAIL_CUDA)
ACC_DETAIL_COLD
#endif
void run_task_on_host(const void* task, const void* body, const launch_context& ctx, void* result, const void*) {
  const Task& t = *static_cast<const Task*>(task);
  const Body& b = *static_cast<const Body*>(body);
  if constexpr (std::is_void_v<typename Task::result_type>) run(host::backend{}, t, b, ctx);
  else *static_cast<typename Task::result_type*>(result) = run(host::backend{}, t, b, ctx);
}

#if defined(ACC_DETAIL_CUDA)
template <class Task, class Body>
void run_task_on_nvidia(const void* task, const void* body, const launch_context& ctx, void* result, const void*) {
  const Task& t = *static_cast<const Task*>(task);
  const Body& b = *static_cast<const Body*>(body);
  if constexpr (std::is_void_v<typename Task::result_type>) run(cuda::backend{}, t, b, ctx);
  else *static_cast<typename Task::result_type*>(result) = run(cuda::backend{}, t, b, ctx);
}
#endif

/// A backend's entry of Task with Body, by default one function per body (run_task_on_*).
template <class Task, class Body>
constexpr backend_entry backend_entry_of(host::backend, const Task*, const Body*) {
  return {&run_task_on_host<Task, Body>, nullptr};
}
#if defined(ACC_DETAIL_CUDA)
template <class Task, class Body>
constexpr backend_entry backend_entry_of(cuda::backend, const Task*, const Body*) {
  return {&run_task_on_nvidia<Task, Body>, nullptr};
}
#endif

/// construct_entry::captures_no_arrays of each body type (read and set by the dispatch
/// through std::atomic_ref).
template <class Body>
inline unsigned char captures_no_arrays = 0;

// nvcc's device pass generates no host code, so there the entry names only the GPU entry,
// which instantiates the kernels (the one part both passes must agree on): the host entries'
// instantiations would be parsed and checked there for nothing (bench/results/compile.txt).
template <class Task, class Body>
inline constexpr construct_entry entry_of{
    sizeof(Body), !std::is_empty_v<Body>, &captures_no_arrays<Body>, task_selectable<Task>(),
#if defined(ACC_DETAIL_DEVICE_PASS)
    nullptr, nullptr, {},
#else
    &copy_body<Body>, &destroy_body<Body>,
    backend_entry_of(host::backend{}, static_cast<const Task*>(nullptr), static_cast<const Body*>(nullptr)),
#endif
#if defined(ACC_DETAIL_CUDA)
    backend_entry_of(cuda::backend{}, static_cast<const Task*>(nullptr), static_cast<const Body*>(nullptr)),
#else
    {},
#endif
    &typeid(Body),
};

/// Runs `task` with `body` where the clauses place it and returns the task's result (its
/// empty_result() when it has no iterations), inside the construct's NVTX range `nvtx` (the
/// static nvtx_site of its call site; none where the caller holds the range).
template <class Task, class Body>
auto dispatch(const Task& task, const launch_spec& spec, const Body& body, const call_site& site,
              nvtx_site* nvtx = nullptr) {
  alignas(Body) unsigned char copy[sizeof(Body)];
  using result = typename Task::result_type;
  if constexpr (std::is_void_v<result>) {
    run_construct(entry_of<Task, Body>, &task, task.empty(), task_size(task), spec, &body, copy, nullptr, site, nvtx);
  } else {
    result r = task.empty_result();
    run_construct(entry_of<Task, Body>, &task, task.empty(), task_size(task), spec, &body, copy, &r, site, nvtx);
    return r;
  }
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
