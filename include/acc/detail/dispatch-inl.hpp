//! @file The runtime's definitions, third part: the one dispatch path of compute constructs
//! (detail/construct_entry.hpp). Compiled with detail/runtime-inl.hpp, which includes this file.
#pragma once

#include <acc/detail/capture.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/construct_entry.hpp>
#include <acc/detail/runtime-inl.hpp>
#include <acc/detail/runtime_state.hpp>

#include <string>

namespace acc::detail {

namespace dispatch_impl {

struct placement {
  target where;
  int device;  // for nvidia; 0 on the host
};

/// if_(false) and the host device type run on the host; otherwise the device named by
/// device_num, else the thread's current one, which must exist.
inline placement place(const launch_spec& s, const call_site& site) {
  if (!s.if_ || current_target() == target::host) return {target::host, 0};
  const int count = nvidia_device_count();
  const int device = s.device_num >= 0 ? s.device_num : current_nvidia_num();
  if (device >= count)
    fail<bad_clause>(site, (s.device_num >= 0 ? "device_num(" + std::to_string(device) + ")"
                                              : "device " + std::to_string(device) + " (ACC_DEVICE_NUM)") +
                               " does not exist; there are " + std::to_string(count) + " NVIDIA devices");
  return {target::nvidia, device};
}

/// A construct's own copy of its body, made while `scope` records the arrays it captures, and
/// destroyed on every way out.
class body_copy {
public:
  body_copy(const construct_entry& e, capture_scope& scope, const void* body, void* storage)
      : e_(e), p_(e.captures ? storage : const_cast<void*>(body)) {
    if (e.captures) e.copy_body(storage, body);
    scope.close();
  }
  body_copy(const body_copy&) = delete;
  body_copy& operator=(const body_copy&) = delete;
  ~body_copy() {
    if (e_.captures) e_.destroy_body(p_);
  }
  void* get() const noexcept { return p_; }

private:
  const construct_entry& e_;
  void* p_;
};

}  // namespace dispatch_impl

ACC_DETAIL_RUNTIME_FN void run_construct(const construct_entry& e, const void* task, bool empty,
                                         const launch_spec& spec, const void* body, void* copy, void* result,
                                         const call_site& site) {
  check_spec(spec, site);
  const dispatch_impl::placement p = dispatch_impl::place(spec, site);
  if (p.where == target::nvidia && e.run_nvidia) {
    // The construct's own copy of the body, with the arrays it captured on the device
    // (implicit data, default_present: detail/capture.hpp), copied out by finish().
    capture_scope scope;
    const dispatch_impl::body_copy mapped(e, scope, body, copy);
    implicit_data data(scope, mapped.get(), e.body_size, p.device, spec, !empty, site);
    if (!empty) e.run_nvidia(task, mapped.get(), launch_context{spec, p.device, site}, result);
    data.finish();
    return;
  }
  // default_present on the host: the same presence check as on a GPU (against the current
  // device's table), so programs fail the same way everywhere.
  if (spec.default_present && spec.if_ && e.captures) {
    capture_scope scope;
    const dispatch_impl::body_copy checked(e, scope, body, copy);
    implicit_data data(scope, checked.get(), e.body_size, current_device(), spec, false, site);
  }
  if (!empty) e.run_host(task, body, launch_context{spec, 0, site}, result);
}

}  // namespace acc::detail
