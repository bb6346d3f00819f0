//! @file Device selection: the OpenACC runtime API (OpenACC 3.3 §3.2.1-3.2.5).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <acc/detail/present_table.hpp>

#include <cstddef>
#include <source_location>
#include <string>
#include <type_traits>

#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/ops.hpp>
#endif

namespace acc {

/// OpenACC's `acc_device_t`. `gpu` is another name for `nvidia`; `multicore` is another name
/// for `host`, whose constructs run on every core when acc is built with OpenMP.
enum class device_type : int { none, default_, host, not_host, nvidia, gpu = nvidia, multicore = host };

namespace detail {

/// Which concrete target a device_type names; `default_` and `not_host` resolve as
/// OpenACC says (the implementation's default, any non-host device). Throws acc::bad_clause,
/// naming `site`, for device_type::none.
ACC_DETAIL_RUNTIME_FN target resolve(device_type t, const call_site& site);

// acc::set_device_num, set_device_type and set_default_async, their errors naming `site` (the
// routine, or the `set` directive that does their work).
ACC_DETAIL_RUNTIME_FN void set_device_num(int n, device_type t, const call_site& site);
ACC_DETAIL_RUNTIME_FN void set_device_type(device_type t, const call_site& site);
ACC_DETAIL_RUNTIME_FN void set_default_async(int q, const call_site& site);

}  // namespace detail

/// Number of devices of type t (`acc_get_num_devices`): 1 for the host, the number of usable
/// NVIDIA GPUs for nvidia (0 when the program was not built with nvcc or no driver is there).
ACC_DETAIL_RUNTIME_FN int get_num_devices(device_type t, std::source_location where = std::source_location::current());

/// The device type constructs run on now (`acc_get_device_type`): nvidia or host.
ACC_DETAIL_RUNTIME_FN device_type get_device_type();

/// Makes t the device type of the calling thread's constructs (`acc_set_device_type`).
/// Throws acc::error if t is nvidia and there is no GPU.
ACC_DETAIL_RUNTIME_FN void set_device_type(device_type t,
                                           std::source_location where = std::source_location::current());

/// The device number used for type t (`acc_get_device_num`); 0 for the host.
ACC_DETAIL_RUNTIME_FN int get_device_num(device_type t, std::source_location where = std::source_location::current());

/// Selects device n of type t for the calling thread (`acc_set_device_num`); a negative n
/// restores the default (ACC_DEVICE_NUM, else 0). Throws acc::bad_clause if n does not exist.
ACC_DETAIL_RUNTIME_FN void set_device_num(int n, device_type t,
                                          std::source_location where = std::source_location::current());

// ---- Device memory the program manages itself (OpenACC 3.3 §3.2.19-3.2.27) -------------------
// Addresses here are device addresses of the current device; on the host device they are host
// memory, and the copies are plain memcpy.

namespace detail {
ACC_DETAIL_RUNTIME_FN int checked_queue(int q, const call_site& site);
}  // namespace detail

/// Allocates `bytes` of memory on the current device (`acc_malloc`); nullptr when it cannot.
/// The memory is not in the present table: use it through acc::deviceptr clauses or views,
/// acc::memcpy_* and acc::map_data. Give it back with acc::free.
ACC_DETAIL_RUNTIME_FN void* malloc(std::size_t bytes, std::source_location where = std::source_location::current());

/// Frees memory from acc::malloc on the current device (`acc_free`); nullptr does nothing.
/// Memory still mapped by acc::map_data is an acc::bad_clause: unmap it first.
ACC_DETAIL_RUNTIME_FN void free(void* p, std::source_location where = std::source_location::current());

/// Copies `bytes` from host memory to device memory (`acc_memcpy_to_device[_async]`); with a
/// queue (>= 0 or acc::async_noval) it is ordered on that queue and the host does not wait.
ACC_DETAIL_RUNTIME_FN void memcpy_to_device(void* dev, const void* host, std::size_t bytes,
                                            int queue = detail::queue_sync,
                                            std::source_location where = std::source_location::current());

/// Copies `bytes` from device memory to host memory (`acc_memcpy_from_device[_async]`).
ACC_DETAIL_RUNTIME_FN void memcpy_from_device(void* host, const void* dev, std::size_t bytes,
                                              int queue = detail::queue_sync,
                                              std::source_location where = std::source_location::current());

/// Copies `bytes` between two device addresses of the current device (`acc_memcpy_device[_async]`).
ACC_DETAIL_RUNTIME_FN void memcpy_device(void* dst, const void* src, std::size_t bytes, int queue = detail::queue_sync,
                                         std::source_location where = std::source_location::current());

/// Copies `bytes` from device address `src` on device `src_device` to device address `dst` on
/// device `dst_device`, both numbers of the current device type (`acc_memcpy_d2d[_async]`);
/// with a queue the copy is ordered on that queue of `dst_device`, after what the same queue
/// of `src_device` holds, and the host does not wait. On the host device (number 0) it is memmove.
ACC_DETAIL_RUNTIME_FN void memcpy_d2d(void* dst, const void* src, std::size_t bytes, int dst_device, int src_device,
                                      int queue = detail::queue_sync,
                                      std::source_location where = std::source_location::current());

/// Enters `bytes` of host memory at `host` into the present table with device memory the
/// program allocated (acc::malloc) at `dev` as its device copy (`acc_map_data`). Data
/// clauses then find it present; updates copy between the two; acc never frees `dev`, and
/// exit_data leaves the mapping alone: only acc::unmap_data ends it. Throws
/// acc::bad_clause if any of the host range is already present. On the host device, where a
/// range is its own device copy, the contents of `dev` are copied into `host` here and back
/// by acc::unmap_data, so that what a program put in `dev` is what constructs see; meanwhile
/// acc::memcpy_* and acc::hostptr given an address in `dev` use the host range instead.
ACC_DETAIL_RUNTIME_FN void map_data(void* host, void* dev, std::size_t bytes,
                                    std::source_location where = std::source_location::current());

/// Ends a mapping made by acc::map_data (`acc_unmap_data`): the host data is no longer
/// present; the device memory stays the program's. Throws acc::not_present_error if `host`
/// does not begin a mapped range, acc::bad_clause while a data region still uses it.
ACC_DETAIL_RUNTIME_FN void unmap_data(void* host, std::source_location where = std::source_location::current());

/// The host address whose device copy holds device address `dev` (`acc_hostptr`); nullptr
/// when no present data holds it. On the host device data is its own copy: `dev` itself (for
/// the device memory of an acc::map_data mapping, the mapped host range).
template <class T>
T* hostptr(T* dev) {
  const int d = detail::current_device();
  if (d < 0) return static_cast<T*>(detail::host_side_of_mapped(dev, 0));
  return static_cast<T*>(detail::host_address(d, dev));
}

/// Whether everything queued on every queue of the current device is done, without blocking
/// (`acc_async_test_all`). On the host device constructs are complete when they return.
ACC_DETAIL_RUNTIME_FN bool async_test_all(std::source_location where = std::source_location::current());

/// Whether the code runs on a device of type t (`acc_on_device`); usable in compute bodies.
/// In a kernel nvcc compiled for the GPU it is true for nvidia (and not_host); elsewhere,
/// including bodies the host backend runs, for host.
ACC_ROUTINE constexpr bool on_device(device_type t) noexcept {
  return detail::device_pass ? t == device_type::nvidia || t == device_type::not_host : t == device_type::host;
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

/// `d` with `clauses` folded in after what it holds.
template <bool Set, class... Clauses>
device_directive fold_device_clauses(device_directive d, const Clauses&... clauses) {
  (fold_device_clause<Set>(d, clauses), ...);
  return d;
}

/// A directive's first clause, folded, with the user's line: no defaulted std::source_location
/// can follow the clause pack, but the default of this conversion is taken where the call is
/// written (as acc::async's queue_here), whichever clause comes first.
template <bool Set>
struct first_device_clause {
  device_directive d;
  std::source_location where;
  template <class C>
  first_device_clause(const C& c, std::source_location w = std::source_location::current()) : where(w) {
    fold_device_clause<Set>(d, c);
  }
};

// What init, shutdown and set do once their clauses are folded (detail/routines-inl.hpp).
ACC_DETAIL_RUNTIME_FN void init_directive(const device_directive& d, const call_site& site);
ACC_DETAIL_RUNTIME_FN void shutdown_directive(const device_directive& d, const call_site& site);
ACC_DETAIL_RUNTIME_FN void set_directive(const device_directive& d, const call_site& site);

}  // namespace detail

/// Prepares device n of type t (`acc_init_device`): acc initialises itself on first use, so
/// this only moves the cost of that (the GPU's context, acc's memory pool) to here. The host
/// device, or nvidia without a GPU (constructs then run on the host), needs nothing.
/// Throws acc::bad_clause if there is no device n.
ACC_DETAIL_RUNTIME_FN void init_device(int n, device_type t,
                                       std::source_location where = std::source_location::current());

/// OpenACC `init` (directive and `acc_init(t)`): prepares the current device of type t, or
/// device_num(n) of it; with no device_type, of the current type. e.g.
/// acc::init(acc::device_type::nvidia, acc::device_num(1), acc::if_(use_gpu)).
inline void init(std::source_location where = std::source_location::current()) {
  detail::init_directive({}, {"init", where});
}
template <class... Clauses>
void init(detail::first_device_clause<false> first, const Clauses&... clauses) {
  detail::init_directive(detail::fold_device_clauses<false>(first.d, clauses...), {"init", first.where});
}

/// Shuts device n of type t down (`acc_shutdown_device`): everything queued on it completes
/// and the memory acc keeps there for reuse is given back. acc stays usable: a later
/// construct or data clause on the device works as before, and present data stays present.
ACC_DETAIL_RUNTIME_FN void shutdown_device(int n, device_type t,
                                           std::source_location where = std::source_location::current());

/// OpenACC `shutdown` (directive and `acc_shutdown(t)`): acc::shutdown_device on every device
/// of type t, or on device_num(n) only; with no device_type, the current type.
inline void shutdown(std::source_location where = std::source_location::current()) {
  detail::shutdown_directive({}, {"shutdown", where});
}
template <class... Clauses>
void shutdown(detail::first_device_clause<false> first, const Clauses&... clauses) {
  detail::shutdown_directive(detail::fold_device_clauses<false>(first.d, clauses...), {"shutdown", first.where});
}

/// Makes q the calling thread's default async queue (`acc_set_default_async`): the queue that
/// acc::async() and acc::async_noval name from now on. acc::async_default restores the
/// initial one (queue 0). Throws acc::bad_clause for other negative q.
ACC_DETAIL_RUNTIME_FN void set_default_async(int q, std::source_location where = std::source_location::current());

/// The calling thread's default async queue (`acc_get_default_async`): the queue acc::async()
/// and acc::async_noval name; 0 until acc::set_default_async changes it.
inline int get_default_async() noexcept { return detail::this_thread().default_async; }

/// OpenACC `set`: with device_type, acc::set_device_type; with device_num(n),
/// acc::set_device_num(n) of that type (else of the current type); with default_async(q),
/// acc::set_default_async(q). e.g. acc::set(acc::device_num(1), acc::default_async(2)).
template <class... Clauses>
void set(detail::first_device_clause<true> first, const Clauses&... clauses) {
  detail::set_directive(detail::fold_device_clauses<true>(first.d, clauses...), {"set", first.where});
}
template <class None = void>
void set() {
  static_assert(sizeof(None*) == 0, "acc::set needs a clause: acc::device_type, acc::device_num(n) or "
                                    "acc::default_async(q)");
}

/// What acc::get_property / get_property_string report (`acc_device_property_t`).
enum class device_property : int { memory, free_memory, shared_memory_support, name, vendor, driver };

/// A numeric property of device n of type t (`acc_get_property`): memory and free_memory in
/// bytes; shared_memory_support 1 on the host device. 0 when unknown or not numeric.
ACC_DETAIL_RUNTIME_FN std::size_t get_property(int n, device_type t, device_property p,
                                               std::source_location where = std::source_location::current());

/// A text property of device n of type t (`acc_get_property_string`): name, vendor, driver;
/// empty when unknown or not text.
ACC_DETAIL_RUNTIME_FN std::string get_property_string(int n, device_type t, device_property p,
                                                      std::source_location where = std::source_location::current());

}  // namespace acc

#include <acc/detail/header_close.hpp>
