//! @file The runtime's definitions of acc/runtime.hpp (the OpenACC runtime routines). Compiled
//! with detail/runtime-inl.hpp, which includes it.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_ROUTINES_INL)
#define ACC_DETAIL_ROUTINES_INL

#include <acc/runtime.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <source_location>
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#endif

// Out of line: each does far more work (a device call, an allocation, a copy) than the call
// costs, and inline their checks and messages were compiled in every translation unit that
// includes acc (bench/results/compile.txt).
namespace acc {

namespace detail {

ACC_DETAIL_RUNTIME_FN target resolve(device_type t, const call_site& site) {
  switch (t) {
    case device_type::host: return target::host;
    case device_type::nvidia:
    case device_type::not_host: return target::nvidia;
    case device_type::default_: return nvidia_device_count() > 0 ? target::nvidia : target::host;
    default: fail<bad_clause>(site, "device_type::none names no device");
  }
}

ACC_DETAIL_RUNTIME_FN void set_device_type(device_type t, const call_site& site) {
  const target target = resolve(t, site);
  if (target == target::nvidia && nvidia_device_count() == 0)
    fail(site, state().cuda.load(std::memory_order_acquire)
                   ? "no NVIDIA GPU is available (no device, or no driver)"
                   : "no NVIDIA GPU is available: this program has no CUDA backend (none of its source files "
                     "was compiled as CUDA: a .cu file, or nvcc -x cu)");
  this_thread().type = target;
}

ACC_DETAIL_RUNTIME_FN void set_device_num(int n, device_type t, const call_site& site) {
  if (resolve(t, site) == target::host) {
    if (n > 0) fail<bad_clause>(site, "the host has only device 0, not " + std::to_string(n));
    return;
  }
  if (n >= nvidia_device_count())
    fail<bad_clause>(site, "device " + std::to_string(n) + " does not exist; there are " +
                               std::to_string(nvidia_device_count()) + " NVIDIA devices");
  this_thread().nvidia_num = n < 0 ? -1 : n;
}

ACC_DETAIL_RUNTIME_FN void set_default_async(int q, const call_site& site) {
  if (q == async_default) q = initial_default_queue;
  else if (q < 0)
    fail<bad_clause>(site, std::to_string(q) + " cannot be the default async queue; use a queue number >= 0 "
                                               "or acc::async_default");
  this_thread().default_async = q;
}

}  // namespace detail

ACC_DETAIL_RUNTIME_FN int get_num_devices(device_type t, std::source_location where) {
  return detail::resolve(t, {"get_num_devices", where}) == detail::target::host ? 1 : detail::nvidia_device_count();
}

ACC_DETAIL_RUNTIME_FN device_type get_device_type() {
  return detail::current_target() == detail::target::nvidia ? device_type::nvidia : device_type::host;
}

ACC_DETAIL_RUNTIME_FN void set_device_type(device_type t, std::source_location where) {
  detail::set_device_type(t, {"set_device_type", where});
}

ACC_DETAIL_RUNTIME_FN int get_device_num(device_type t, std::source_location where) {
  return detail::resolve(t, {"get_device_num", where}) == detail::target::host ? 0 : detail::current_nvidia_num();
}

ACC_DETAIL_RUNTIME_FN void set_device_num(int n, device_type t, std::source_location where) {
  detail::set_device_num(n, t, {"set_device_num", where});
}

namespace detail {

ACC_DETAIL_RUNTIME_FN int checked_queue(int q, const call_site& site) {
  if (q < 0 && q != queue_noval && q != queue_sync)
    fail<bad_clause>(site, std::to_string(q) + " is not a queue; use a number >= 0 or acc::async_noval");
  return q;
}

}  // namespace detail

ACC_DETAIL_RUNTIME_FN void* malloc(std::size_t bytes, std::source_location where) {
  const detail::call_site site{"malloc", where};
  if (bytes == 0) return nullptr;
  const int d = detail::current_device();
  void* p = d >= 0 ? detail::cuda_ops().device_malloc(d, bytes, site) : std::malloc(bytes);
  if (p) {
    auto& st = detail::state();
    std::lock_guard lock(st.malloc_blocks_mutex);
    st.malloc_blocks[{d, p}] = bytes;
  }
  return p;
}

ACC_DETAIL_RUNTIME_FN void free(void* p, std::source_location where) {
  if (!p) return;
  const int d = detail::current_device();
  const detail::call_site site{"free", where};
  auto& st = detail::state();
  std::size_t bytes = 0;  // 0: a block acc::malloc did not record
  {
    std::lock_guard lock(st.malloc_blocks_mutex);
    if (auto it = st.malloc_blocks.find({d, p}); it != st.malloc_blocks.end()) bytes = it->second;
  }
  detail::check_unmapped(d, p, bytes ? bytes : 1, site);
  if (bytes == 0 && d < 0) {
    char at[32];
    std::snprintf(at, sizeof at, "%p", p);
    detail::fail<bad_clause>(site, std::string(at) +
                                       " is not a block of acc::malloc on the host device: freed already, or "
                                       "allocated while another device was current");
  }
  {
    std::lock_guard lock(st.malloc_blocks_mutex);
    st.malloc_blocks.erase({d, p});
  }
  if (d >= 0) detail::cuda_ops().device_free(d, p);
  else std::free(p);
}

ACC_DETAIL_RUNTIME_FN void memcpy_to_device(void* dev, const void* host, std::size_t bytes, int queue,
                                            std::source_location where) {
  const detail::call_site site{"memcpy_to_device", where};
  detail::checked_queue(queue, site);
  if (bytes == 0) return;
  if (int d = detail::current_device(); d >= 0)
    detail::cuda_ops().to_device(d, dev, host, bytes, queue, detail::host_memory::unknown, site);
  else std::memmove(detail::host_side_of_mapped(dev, bytes), host, bytes);
}

ACC_DETAIL_RUNTIME_FN void memcpy_from_device(void* host, const void* dev, std::size_t bytes, int queue,
                                              std::source_location where) {
  const detail::call_site site{"memcpy_from_device", where};
  detail::checked_queue(queue, site);
  if (bytes == 0) return;
  if (int d = detail::current_device(); d >= 0)
    detail::cuda_ops().to_host(d, host, dev, bytes, queue, detail::host_memory::unknown, site);
  else std::memmove(host, detail::host_side_of_mapped(dev, bytes), bytes);
}

ACC_DETAIL_RUNTIME_FN void memcpy_device(void* dst, const void* src, std::size_t bytes, int queue,
                                         std::source_location where) {
  const detail::call_site site{"memcpy_device", where};
  detail::checked_queue(queue, site);
  if (bytes == 0) return;
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().peer_copy(d, dst, d, src, bytes, queue, site);
  else std::memmove(detail::host_side_of_mapped(dst, bytes), detail::host_side_of_mapped(src, bytes), bytes);
}

ACC_DETAIL_RUNTIME_FN void memcpy_d2d(void* dst, const void* src, std::size_t bytes, int dst_device, int src_device,
                                      int queue, std::source_location where) {
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
  else std::memmove(detail::host_side_of_mapped(dst, bytes), detail::host_side_of_mapped(src, bytes), bytes);
}

ACC_DETAIL_RUNTIME_FN void map_data(void* host, void* dev, std::size_t bytes,
                                    std::source_location where) {
  detail::map_action(detail::current_device(), detail::host_span{host, bytes}, dev, {"map_data", where});
}

ACC_DETAIL_RUNTIME_FN void unmap_data(void* host, std::source_location where) {
  detail::unmap_action(detail::current_device(), host, {"unmap_data", where});
}

ACC_DETAIL_RUNTIME_FN bool async_test_all(std::source_location where) {
  const detail::call_site site{"async_test_all", where};
  if (int d = detail::current_device(); d >= 0) return detail::cuda_ops().test_all(d, site);
  return true;
}

namespace detail {

ACC_DETAIL_RUNTIME_FN int directive_device(target t, int n, const call_site& site) {
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

ACC_DETAIL_RUNTIME_FN void init_one(target t, int n, const call_site& site) {
  const int d = directive_device(t, n, site);
  // Without a GPU, constructs for nvidia run on the host: nothing to prepare.
  if (d >= 0 && nvidia_device_count() > 0) cuda_ops().init_device(d, site);
}

ACC_DETAIL_RUNTIME_FN void shutdown_one(target t, int n, const call_site& site) {
  const int d = directive_device(t, n, site);
  if (d >= 0 && nvidia_device_count() > 0) cuda_ops().shutdown_device(d, site);
}

ACC_DETAIL_RUNTIME_FN void init_directive(const device_directive& d, const call_site& site) {
  if (!d.on) return;
  const device_type t = d.has_type ? d.type : get_device_type();
  const target target = resolve(t, site);
  init_one(target, d.num >= 0 ? d.num : get_device_num(t, site.where), site);
}

ACC_DETAIL_RUNTIME_FN void shutdown_directive(const device_directive& d, const call_site& site) {
  if (!d.on) return;
  const target target = resolve(d.has_type ? d.type : get_device_type(), site);
  if (d.num >= 0) return shutdown_one(target, d.num, site);
  const int count = target == target::host ? 1 : nvidia_device_count();
  for (int n = 0; n < count; ++n) shutdown_one(target, n, site);
}

ACC_DETAIL_RUNTIME_FN void set_directive(const device_directive& d, const call_site& site) {
  if (!d.on) return;
  if (d.num >= 0) set_device_num(d.num, d.has_type ? d.type : get_device_type(), site);
  if (d.has_type) set_device_type(d.type, site);
  if (d.has_queue) set_default_async(d.queue, site);
}

}  // namespace detail

ACC_DETAIL_RUNTIME_FN void init_device(int n, device_type t, std::source_location where) {
  const detail::call_site site{"init_device", where};
  detail::init_one(detail::resolve(t, site), n, site);
}

ACC_DETAIL_RUNTIME_FN void shutdown_device(int n, device_type t, std::source_location where) {
  const detail::call_site site{"shutdown_device", where};
  detail::shutdown_one(detail::resolve(t, site), n, site);
}

ACC_DETAIL_RUNTIME_FN void set_default_async(int q, std::source_location where) {
  detail::set_default_async(q, {"set_default_async", where});
}

ACC_DETAIL_RUNTIME_FN std::size_t get_property(int n, device_type t, device_property p, std::source_location where) {
  if (detail::resolve(t, {"get_property", where}) == detail::target::host) {
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

ACC_DETAIL_RUNTIME_FN std::string get_property_string(int n, device_type t, device_property p, std::source_location where) {
  if (detail::resolve(t, {"get_property_string", where}) == detail::target::host) {
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

#endif
