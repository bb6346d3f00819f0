//! @file Device selection: the OpenACC runtime API (OpenACC 3.3 §3.2.1-3.2.5).
#pragma once

#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <acc/detail/present_table.hpp>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <source_location>
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#endif

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

// ---- Device memory the program manages itself (OpenACC 3.3 §3.2.19-3.2.27) -------------------
// Addresses here are device addresses of the current device; on the host device they are host
// memory, and the copies are plain memcpy.

namespace detail {
inline int checked_queue(int q, const call_site& site) {
  if (q < 0 && q != queue_noval && q != queue_sync)
    fail<bad_clause>(site, std::to_string(q) + " is not a queue; use a number >= 0 or acc::async_noval");
  return q;
}
}  // namespace detail

/// Allocates `bytes` of memory on the current device (`acc_malloc`); nullptr when it cannot.
/// The memory is not in the present table: use it through acc::deviceptr clauses or views,
/// acc::memcpy_* and acc::map_data. Give it back with acc::free.
inline void* malloc(std::size_t bytes, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"malloc", where};
  if (bytes == 0) return nullptr;
  if (int d = detail::current_device(); d >= 0) return detail::cuda_ops().device_malloc(d, bytes, site);
  return std::malloc(bytes);
}

/// Frees memory from acc::malloc on the current device (`acc_free`); nullptr does nothing.
inline void free(void* p) {
  if (!p) return;
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().device_free(d, p);
  else std::free(p);
}

/// Copies `bytes` from host memory to device memory (`acc_memcpy_to_device[_async]`); with a
/// queue (>= 0 or acc::async_noval) it is ordered on that queue and the host does not wait.
inline void memcpy_to_device(void* dev, const void* host, std::size_t bytes, int queue = detail::queue_sync,
                             std::source_location where = std::source_location::current()) {
  const detail::call_site site{"memcpy_to_device", where};
  detail::checked_queue(queue, site);
  if (bytes == 0) return;
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().to_device(d, dev, host, bytes, queue, site);
  else std::memmove(dev, host, bytes);
}

/// Copies `bytes` from device memory to host memory (`acc_memcpy_from_device[_async]`).
inline void memcpy_from_device(void* host, const void* dev, std::size_t bytes, int queue = detail::queue_sync,
                               std::source_location where = std::source_location::current()) {
  const detail::call_site site{"memcpy_from_device", where};
  detail::checked_queue(queue, site);
  if (bytes == 0) return;
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().to_host(d, host, dev, bytes, queue, site);
  else std::memmove(host, dev, bytes);
}

/// Copies `bytes` between two device addresses of the current device (`acc_memcpy_device[_async]`).
inline void memcpy_device(void* dst, const void* src, std::size_t bytes, int queue = detail::queue_sync,
                          std::source_location where = std::source_location::current()) {
  const detail::call_site site{"memcpy_device", where};
  detail::checked_queue(queue, site);
  if (bytes == 0) return;
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().peer_copy(d, dst, d, src, bytes, queue, site);
  else std::memmove(dst, src, bytes);
}

/// The host address whose device copy holds device address `dev` (`acc_hostptr`); nullptr
/// when no present data holds it. On the host device data is its own copy: `dev` itself.
template <class T>
T* hostptr(T* dev) {
  const int d = detail::current_device();
  if (d < 0) return dev;
  return static_cast<T*>(detail::host_address(d, dev));
}

/// Whether everything queued on every queue of the current device is done, without blocking
/// (`acc_async_test_all`). On the host device constructs are complete when they return.
inline bool async_test_all(std::source_location where = std::source_location::current()) {
  const detail::call_site site{"async_test_all", where};
  if (int d = detail::current_device(); d >= 0) return detail::cuda_ops().test_all(d, site);
  return true;
}

/// Whether the code runs on a device of type t (`acc_on_device`); usable in compute bodies.
/// In a kernel nvcc compiled for the GPU it is true for nvidia (and not_host); elsewhere,
/// including bodies the host backend runs, for host.
ACC_ROUTINE constexpr bool on_device(device_type t) noexcept {
#if defined(__CUDA_ARCH__)
  return t == device_type::nvidia || t == device_type::not_host;
#else
  return t == device_type::host;
#endif
}

/// What acc::get_property / get_property_string report (`acc_device_property_t`).
enum class device_property : int { memory, free_memory, shared_memory_support, name, vendor, driver };

/// A numeric property of device n of type t (`acc_get_property`): memory and free_memory in
/// bytes; shared_memory_support 1 on the host device. 0 when unknown or not numeric.
inline std::size_t get_property(int n, device_type t, device_property p) {
  if (detail::resolve(t, "get_property") == detail::target::host) {
    if (n != 0) return 0;
#if defined(_SC_PHYS_PAGES) && defined(_SC_AVPHYS_PAGES)
    const long page = sysconf(_SC_PAGESIZE);
    if (p == device_property::memory) return std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(page);
    if (p == device_property::free_memory) return std::size_t(sysconf(_SC_AVPHYS_PAGES)) * std::size_t(page);
#endif
    return p == device_property::shared_memory_support ? 1 : 0;
  }
  if (n < 0 || n >= detail::nvidia_device_count()) return 0;
  std::size_t free = 0, total = 0;
  detail::cuda_ops().mem_info(n, &free, &total);
  if (p == device_property::memory) return total;
  if (p == device_property::free_memory) return free;
  return 0;
}

/// A text property of device n of type t (`acc_get_property_string`): name, vendor, driver;
/// empty when unknown or not text.
inline std::string get_property_string(int n, device_type t, device_property p) {
  if (detail::resolve(t, "get_property_string") == detail::target::host) {
    if (n != 0) return {};
    if (p == device_property::name) return "host";
    if (p == device_property::vendor) return "acc";
    if (p == device_property::driver) return "acc host backend";
    return {};
  }
  if (n < 0 || n >= detail::nvidia_device_count()) return {};
  if (p == device_property::name) return detail::cuda_ops().device_name(n);
  if (p == device_property::vendor) return "NVIDIA";
  if (p == device_property::driver) return detail::cuda_ops().driver_version();
  return {};
}

}  // namespace acc


#if ACC_DETAIL_RUNTIME_INLINE
#  include <acc/detail/runtime-inl.hpp>
#endif
