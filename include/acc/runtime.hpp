//! @file Device selection: the OpenACC runtime API (OpenACC 3.3 §3.2.1-3.2.5).
#pragma once

#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <string>

#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/ops.hpp>
#endif

namespace acc {

/// OpenACC's `acc_device_t`. `gpu` is another name for `nvidia`.
enum class device_type : int { none, default_, host, not_host, nvidia, gpu = nvidia };

namespace detail {

/// Which concrete target a device_type names; `default_` and `not_host` resolve as
/// OpenACC says (the implementation's default, any non-host device).
inline target resolve(device_type t, const char* fn) {
  switch (t) {
    case device_type::host: return target::host;
    case device_type::nvidia:
    case device_type::not_host: return target::nvidia;
    case device_type::default_: return nvidia_device_count() > 0 ? target::nvidia : target::host;
    default: throw bad_clause(std::string("acc::") + fn + ": device_type::none names no device");
  }
}

}  // namespace detail

/// Number of devices of type t (`acc_get_num_devices`): 1 for the host, the number of usable
/// NVIDIA GPUs for nvidia (0 when the program was not built with nvcc or no driver is there).
inline int get_num_devices(device_type t) {
  return detail::resolve(t, "get_num_devices") == detail::target::host ? 1 : detail::nvidia_device_count();
}

/// The device type constructs run on now (`acc_get_device_type`): nvidia or host.
inline device_type get_device_type() {
  return detail::current_target() == detail::target::nvidia ? device_type::nvidia : device_type::host;
}

/// Makes t the device type of the calling thread's constructs (`acc_set_device_type`).
/// Throws acc::error if t is nvidia and there is no GPU.
inline void set_device_type(device_type t) {
  auto target = detail::resolve(t, "set_device_type");
  if (target == detail::target::nvidia && detail::nvidia_device_count() == 0)
    throw error("acc::set_device_type: no NVIDIA GPU is available (not built with nvcc, or no driver)");
  detail::this_thread().type = target;
}

/// The device number used for type t (`acc_get_device_num`); 0 for the host.
inline int get_device_num(device_type t) {
  return detail::resolve(t, "get_device_num") == detail::target::host ? 0 : detail::current_nvidia_num();
}

/// Selects device n of type t for the calling thread (`acc_set_device_num`); a negative n
/// restores the default (ACC_DEVICE_NUM, else 0). Throws acc::bad_clause if n does not exist.
inline void set_device_num(int n, device_type t) {
  if (detail::resolve(t, "set_device_num") == detail::target::host) {
    if (n > 0) throw bad_clause("acc::set_device_num: the host has only device 0, not " + std::to_string(n));
    return;
  }
  if (n >= detail::nvidia_device_count())
    throw bad_clause("acc::set_device_num: device " + std::to_string(n) + " does not exist; there are " +
                     std::to_string(detail::nvidia_device_count()) + " NVIDIA devices");
  detail::this_thread().nvidia_num = n < 0 ? -1 : n;
}

}  // namespace acc

#if ACC_DETAIL_RUNTIME_INLINE
#  include <acc/detail/runtime-inl.hpp>
#endif
