//! @file The one path of every compute construct: plan (checked clauses and iteration space),
//! place (host or which GPU), map (implicit data of what the body captured), run (one backend
//! entry per construct kind), finish (copy out, free).
#pragma once

#include <acc/detail/capture.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <acc/backend/host/backend.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/backend.hpp>
#endif

#include <cstdint>
#include <string>
#include <type_traits>

namespace acc::detail {

struct placement {
  target where;
  int device;  // for nvidia; 0 on the host
};

/// if_(false) and the host device type run on the host; otherwise the device named by
/// device_num, else the thread's current one, which must exist.
ACC_DETAIL_NOINLINE inline placement place(const launch_spec& s, const call_site& site) {
  if (!s.if_ || current_target() == target::host) return {target::host, 0};
  const int count = nvidia_device_count();
  const int device = s.device_num >= 0 ? s.device_num : current_nvidia_num();
  if (device >= count)
    fail<bad_clause>(site, (s.device_num >= 0 ? "device_num(" + std::to_string(device) + ")"
                                              : "device " + std::to_string(device) + " (ACC_DEVICE_NUM)") +
                               " does not exist; there are " + std::to_string(count) + " NVIDIA devices");
  return {target::nvidia, device};
}

/// The host path of dispatch. In a translation unit that nvcc compiled it is the fallback for
/// a machine without a GPU, so it is compiled for size there (cold): the host compiler then
/// spends little time on a path that GPU runs never take (bench/compile).
template <class Task, class Body>
#if defined(ACC_DETAIL_CUDA)
ACC_DETAIL_COLD
#endif
auto run_on_host(const Task& task, const launch_spec& spec, const Body& body, const call_site& site) {
  if (spec.default_present && spec.if_) check_present(body, spec, site);
  if (task.empty()) return task.empty_result();
  return run(host::backend{}, task, body, launch_context{spec, 0, site});
}

/// Runs `task` with `body` where the clauses place it and returns the task's result.
///
/// Each backend provides `run(backend, const Task&, const Body&, const launch_context&)` for
/// every task kind (detail/task.hpp); the call below is unqualified so that it finds them by
/// argument-dependent lookup in the backend's namespace when a construct instantiates it,
/// which lets each public header include only its own constructs' backend entries.
/// A translation unit that nvcc did not compile has no kernels: it runs on the host even when
/// the program's current device is a GPU, as OpenACC's host fallback.
template <class Task, class Body>
auto dispatch(const Task& task, const launch_spec& spec, const Body& body, const call_site& site) {
  check_spec(spec, site);
  [[maybe_unused]] const placement p = place(spec, site);
#if defined(ACC_DETAIL_CUDA)
  if (p.where == target::nvidia) {
    // The construct's own copy of the body, with the arrays it captured on the device
    // (implicit data, default_present: detail/capture.hpp); copied out by finish().
    mapped_body<Body> mapped(body, p.device, spec, !task.empty(), site);
    const launch_context ctx{spec, p.device, site};
    using result = typename Task::result_type;
    if constexpr (std::is_void_v<result>) {
      if (!task.empty()) run(cuda::backend{}, task, mapped.get(), ctx);
      mapped.finish();
      return;
    } else {
      result r = task.empty() ? task.empty_result() : run(cuda::backend{}, task, mapped.get(), ctx);
      mapped.finish();
      return r;
    }
  }
#endif
  return run_on_host(task, spec, body, site);
}

}  // namespace acc::detail
