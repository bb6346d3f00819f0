//! @file Device selection: the OpenACC runtime API (OpenACC 3.3 §3.2.1-3.2.5).
#pragma once

#include <acc/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <acc/detail/present_table.hpp>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <source_location>
#include <string>
#include <type_traits>

#if defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#endif

#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/ops.hpp>
#endif

namespace acc {

/// OpenACC's `acc_device_t`. `gpu` is another name for `nvidia`; `multicore` is another name
/// for `host`, whose constructs run on every core when acc is built with OpenMP.
enum class device_type : int { none, default_, host, not_host, nvidia, gpu = nvidia, multicore = host };

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
  if (int d = detail::current_device(); d >= 0)
    detail::cuda_ops().to_device(d, dev, host, bytes, queue, detail::host_memory::unknown, site);
  else std::memmove(dev, host, bytes);
}

/// Copies `bytes` from device memory to host memory (`acc_memcpy_from_device[_async]`).
inline void memcpy_from_device(void* host, const void* dev, std::size_t bytes, int queue = detail::queue_sync,
                               std::source_location where = std::source_location::current()) {
  const detail::call_site site{"memcpy_from_device", where};
  detail::checked_queue(queue, site);
  if (bytes == 0) return;
  if (int d = detail::current_device(); d >= 0)
    detail::cuda_ops().to_host(d, host, dev, bytes, queue, detail::host_memory::unknown, site);
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

/// Copies `bytes` from device address `src` on device `src_device` to device address `dst` on
/// device `dst_device`, both numbers of the current device type (`acc_memcpy_d2d[_async]`);
/// with a queue the copy is ordered on that queue of `dst_device`, after what the same queue
/// of `src_device` holds, and the host does not wait. On the host device (number 0) it is memmove.
inline void memcpy_d2d(void* dst, const void* src, std::size_t bytes, int dst_device, int src_device,
                       int queue = detail::queue_sync, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"memcpy_d2d", where};
  detail::checked_queue(queue, site);
  const bool gpu = detail::current_target() == detail::target::nvidia;
  const int count = gpu ? detail::nvidia_device_count() : 1;
  for (int d : {dst_device, src_device})
    if (d < 0 || d >= count)
      detail::fail<bad_clause>(site, "device " + std::to_string(d) + " does not exist; there " +
                                         (count == 1 ? std::string("is 1 device") : "are " + std::to_string(count) + " devices") +
                                         " of the current type");
  if (bytes == 0) return;
  if (gpu) detail::cuda_ops().peer_copy(dst_device, dst, src_device, src, bytes, queue, site);
  else std::memmove(dst, src, bytes);
}

/// Enters `bytes` of host memory at `host` into the present table with device memory the
/// program allocated (acc::malloc) at `dev` as its device copy (`acc_map_data`). Data
/// clauses then find it present; updates copy between the two; acc never frees `dev`, and
/// exit_data leaves the mapping alone: only acc::unmap_data ends it. Throws
/// acc::bad_clause if any of the host range is already present. On the host device, where a
/// range is its own device copy, the contents of `dev` are copied into `host` here and back
/// by acc::unmap_data, so that what a program put in `dev` is what constructs see.
inline void map_data(void* host, void* dev, std::size_t bytes,
                     std::source_location where = std::source_location::current()) {
  detail::map_action(detail::current_device(), detail::host_span{host, bytes}, dev, {"map_data", where});
}

/// Ends a mapping made by acc::map_data (`acc_unmap_data`): the host data is no longer
/// present; the device memory stays the program's. Throws acc::not_present_error if `host`
/// does not begin a mapped range, acc::bad_clause while a data region still uses it.
inline void unmap_data(void* host, std::source_location where = std::source_location::current()) {
  detail::unmap_action(detail::current_device(), host, {"unmap_data", where});
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

// ---- init, shutdown and set (OpenACC 3.3 §2.14.1-2.14.3, §3.2.6-3.2.8) ------------------------

/// OpenACC's `default_async(q)` clause of acc::set.
struct default_async_t {
  int queue;
};
constexpr default_async_t default_async(int q) noexcept { return {q}; }

namespace detail {

/// What the clauses of one init / shutdown / set said.
struct device_directive {
  bool has_type = false;
  device_type type = device_type::default_;
  int num = -1;
  bool on = true;
  bool has_queue = false;
  int queue = 0;
};

template <bool Set, class C>
void fold_device_clause(device_directive& d, const C& c) {
  if constexpr (std::is_same_v<C, device_type>) {
    d.has_type = true;
    d.type = c;
  } else if constexpr (std::is_same_v<C, device_num_t>) {
    d.num = c.value;
  } else if constexpr (std::is_same_v<C, if_t>) {
    d.on = c.value;
  } else if constexpr (Set && std::is_same_v<C, default_async_t>) {
    d.has_queue = true;
    d.queue = c.queue;
  } else if constexpr (Set) {
    static_assert(sizeof(C) == 0, "acc::set takes only an acc::device_type, acc::device_num(n), "
                                  "acc::default_async(q) and acc::if_(b)");
  } else {
    static_assert(sizeof(C) == 0, "acc::init and acc::shutdown take only an acc::device_type, acc::device_num(n) "
                                  "and acc::if_(b)");
  }
}

template <bool Set, class... Clauses>
device_directive fold_device_clauses(const Clauses&... clauses) {
  device_directive d;
  (fold_device_clause<Set>(d, clauses), ...);
  return d;
}

/// Device `n` of target `t` for init / shutdown, checked; -1 for the host device.
inline int directive_device(target t, int n, const call_site& site) {
  if (t == target::host) {
    if (n > 0) fail<bad_clause>(site, "the host has only device 0, not " + std::to_string(n));
    return -1;
  }
  const int count = nvidia_device_count();
  if (n >= count && count > 0)
    fail<bad_clause>(site, "device " + std::to_string(n) + " does not exist; there are " + std::to_string(count) +
                               " NVIDIA devices");
  return n;
}

inline void init_one(target t, int n, const call_site& site) {
  const int d = directive_device(t, n, site);
  // Without a GPU, constructs for nvidia run on the host: nothing to prepare.
  if (d >= 0 && nvidia_device_count() > 0) cuda_ops().init_device(d, site);
}

inline void shutdown_one(target t, int n, const call_site& site) {
  const int d = directive_device(t, n, site);
  if (d >= 0 && nvidia_device_count() > 0) cuda_ops().shutdown_device(d, site);
}

}  // namespace detail

/// Prepares device n of type t (`acc_init_device`): acc initialises itself on first use, so
/// this only moves the cost of that (the GPU's context, acc's memory pool) to here. The host
/// device, or nvidia without a GPU (constructs then run on the host), needs nothing.
/// Throws acc::bad_clause if there is no device n.
inline void init_device(int n, device_type t, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"init_device", where};
  detail::init_one(detail::resolve(t, "init_device"), n, site);
}

/// OpenACC `init` (directive and `acc_init(t)`): prepares the current device of type t, or
/// device_num(n) of it; with no device_type, of the current type. e.g.
/// acc::init(acc::device_type::nvidia, acc::device_num(1), acc::if_(use_gpu)).
template <class... Clauses>
void init(const Clauses&... clauses) {
  const detail::device_directive d = detail::fold_device_clauses<false>(clauses...);
  if (!d.on) return;
  const device_type t = d.has_type ? d.type : get_device_type();
  const detail::call_site site{"init"};
  detail::init_one(detail::resolve(t, "init"), d.num >= 0 ? d.num : get_device_num(t), site);
}

/// Shuts device n of type t down (`acc_shutdown_device`): everything queued on it completes
/// and the memory acc keeps there for reuse is given back. acc stays usable: a later
/// construct or data clause on the device works as before, and present data stays present.
inline void shutdown_device(int n, device_type t, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"shutdown_device", where};
  detail::shutdown_one(detail::resolve(t, "shutdown_device"), n, site);
}

/// OpenACC `shutdown` (directive and `acc_shutdown(t)`): acc::shutdown_device on every device
/// of type t, or on device_num(n) only; with no device_type, the current type.
template <class... Clauses>
void shutdown(const Clauses&... clauses) {
  const detail::device_directive d = detail::fold_device_clauses<false>(clauses...);
  if (!d.on) return;
  const device_type t = d.has_type ? d.type : get_device_type();
  const detail::call_site site{"shutdown"};
  const detail::target target = detail::resolve(t, "shutdown");
  if (d.num >= 0) return detail::shutdown_one(target, d.num, site);
  const int count = target == detail::target::host ? 1 : detail::nvidia_device_count();
  for (int n = 0; n < count; ++n) detail::shutdown_one(target, n, site);
}

/// Makes q the calling thread's default async queue (`acc_set_default_async`): the queue that
/// acc::async() and acc::async_noval name from now on. acc::async_default restores the
/// initial one (queue 0). Throws acc::bad_clause for other negative q.
inline void set_default_async(int q, std::source_location where = std::source_location::current()) {
  if (q == async_default) q = detail::initial_default_queue;
  else if (q < 0)
    detail::fail<bad_clause>(detail::call_site{"set_default_async", where},
                             std::to_string(q) + " cannot be the default async queue; use a queue number >= 0 "
                                                 "or acc::async_default");
  detail::this_thread().default_async = q;
}

/// The calling thread's default async queue (`acc_get_default_async`): the queue acc::async()
/// and acc::async_noval name; 0 until acc::set_default_async changes it.
inline int get_default_async() noexcept { return detail::this_thread().default_async; }

/// OpenACC `set`: with device_type, acc::set_device_type; with device_num(n),
/// acc::set_device_num(n) of that type (else of the current type); with default_async(q),
/// acc::set_default_async(q). e.g. acc::set(acc::device_num(1), acc::default_async(2)).
template <class... Clauses>
void set(const Clauses&... clauses) {
  static_assert(sizeof...(Clauses) > 0, "acc::set needs a clause: acc::device_type, acc::device_num(n) or "
                                        "acc::default_async(q)");
  const detail::device_directive d = detail::fold_device_clauses<true>(clauses...);
  if (!d.on) return;
  if (d.num >= 0) set_device_num(d.num, d.has_type ? d.type : get_device_type());
  if (d.has_type) set_device_type(d.type);
  if (d.has_queue) set_default_async(d.queue);
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
