//! @file The present table: which host ranges are on which device, with OpenACC's reference counts.
#pragma once

#include <acc/error.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/runtime_state.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iterator>
#include <mutex>
#include <string>

namespace acc::detail {

/// A host byte range named by a clause, an update or a capture, and what messages call it.
struct host_span {
  const void* p = nullptr;
  std::size_t bytes = 0;
  const char* label = nullptr;
  bool read_only = false;

  std::uintptr_t begin() const noexcept { return reinterpret_cast<std::uintptr_t>(p); }
  std::uintptr_t end() const noexcept { return begin() + bytes; }
};

/// "'temperature'" or "8000 bytes at 0x7f..": how errors name data.
inline std::string describe(const host_span& s) {
  if (s.label && *s.label) return "'" + std::string(s.label) + "'";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%zu bytes at %p", s.bytes, s.p);
  return buf;
}

/// The NVTX name of a transfer: "copyin 'temperature' 8388608 bytes", so profiles show which
/// array moved.
inline std::string transfer_name(const char* action, const host_span& s) {
  return std::string(action) + " " + describe(s) + " " + std::to_string(s.bytes) + " bytes";
}

inline std::string describe_device(int device) {
  return device < 0 ? std::string("the host device") : "device " + std::to_string(device);
}

/// What a data clause does on entry and exit (OpenACC 3.3 §2.7.4-§2.7.12).
enum class data_kind : unsigned char { copy, copyin, copyout, create, present, no_create, deviceptr, delete_ };
enum class ref_counter : unsigned char { structured, dynamic };

/// The entry holding all of `s`, or m.end(). Data that is only partly present is an error
/// (OpenACC 3.3 §2.7.2), reported rather than silently given a second copy.
inline present_map::iterator find_present(present_map& m, const host_span& s, int device, const call_site& site) {
  const std::uintptr_t b = s.begin(), e = s.end();
  auto next = m.upper_bound(b);
  if (next != m.begin()) {
    auto it = std::prev(next);
    if (b < it->second.end || (b == it->first && s.bytes == 0)) {
      if (e <= it->second.end) return it;
      fail<not_present_error>(site, describe(s) + " is only partly present on " + describe_device(device) +
                                        " (it extends past the present " + describe(host_span{
                                            reinterpret_cast<const void*>(it->first), it->second.end - it->first,
                                            it->second.label.c_str()}) +
                                        "); enter the whole range at once");
    }
  }
  if (s.bytes && next != m.end() && next->first < e)
    fail<not_present_error>(site, describe(s) + " is only partly present on " + describe_device(device) +
                                      " (it overlaps the present " +
                                      describe(host_span{reinterpret_cast<const void*>(next->first),
                                                         next->second.end - next->first, next->second.label.c_str()}) +
                                      "); enter the whole range at once");
  return m.end();
}

/// Frees an entry's device memory after `queue` is done with it; never throws.
inline void drop_entry(int device, present_map& m, present_map::iterator it, int queue) noexcept {
  present_entry& e = it->second;
  if (device >= 0 && e.owned) {
    const device_ops& ops = cuda_ops();
    ops.release(device, e.device, queue);
    if (e.pinned) {
      // Unregistering under an in-flight async copy would fault it: let the queue drain first.
      if (queue != queue_sync) {
        try {
          ops.wait(device, queue, call_site{});
        } catch (...) {
        }
      }
      ops.unpin(reinterpret_cast<const void*>(it->first));
    }
  }
  m.erase(it);
}

[[noreturn]] inline void fail_absent(const host_span& s, int device, const char* hint, const call_site& site) {
  fail<not_present_error>(site, describe(s) + " is not present on " + describe_device(device) + "; " + hint);
}

/// The entry part of a data clause. Returns whether it took a reference, which the matching
/// exit_action must give back (no_create of absent data takes none).
inline bool enter_action(int device, data_kind kind, const host_span& s, ref_counter counter, int queue,
                         const call_site& site) {
  if (s.bytes == 0) return false;  // zero-length data needs no device copy (OpenACC 3.3 §2.7.1)
  auto& st = state();
  std::lock_guard lock(st.present_mutex);
  present_map& m = st.present[device];
  if (auto it = find_present(m, s, device, site); it != m.end()) {
    ++(counter == ref_counter::structured ? it->second.structured : it->second.dynamic);
    return true;
  }
  if (kind == data_kind::present)
    fail_absent(s, device, "enter it first with acc::copyin / acc::create (acc::data or acc::enter_data)", site);
  if (kind == data_kind::no_create) return false;

  present_entry e;
  e.end = s.end();
  if (s.label) e.label = s.label;
  (counter == ref_counter::structured ? e.structured : e.dynamic) = 1;
  if (device < 0 || kind == data_kind::deviceptr) {
    // On the host the "device copy" is the data itself; a deviceptr range already is device memory.
    e.device = static_cast<char*>(const_cast<void*>(s.p));
    e.owned = kind != data_kind::deviceptr;
  } else {
    const device_ops& ops = cuda_ops();
    e.device = static_cast<char*>(ops.alloc(device, s.bytes, queue, describe(s), site));
    try {
      e.pinned = ops.pin(s.p, s.bytes);
      if (kind == data_kind::copy || kind == data_kind::copyin) {
        const nvtx_text_range range(transfer_name("copyin", s));
        ops.to_device(device, e.device, s.p, s.bytes, queue, site);
      }
    } catch (...) {
      ops.release(device, e.device, queue);
      if (e.pinned) ops.unpin(s.p);
      throw;
    }
  }
  m.emplace(s.begin(), std::move(e));
  return true;
}

/// The exit part: gives back one reference (all dynamic ones with finalize); when none is left,
/// copies out (copy, copyout) and frees. Exiting data that is not present is an error for
/// exit_data; data present only through regions (dynamic count 0) is left alone, as OpenACC says.
inline void exit_action(int device, data_kind kind, const host_span& s, ref_counter counter, bool finalize, int queue,
                        const call_site& site) {
  if (s.bytes == 0) return;
  auto& st = state();
  std::lock_guard lock(st.present_mutex);
  present_map& m = st.present[device];
  auto it = find_present(m, s, device, site);
  if (it == m.end()) {
    // A region's data can be gone only if its host memory was freed inside the region
    // (forget_host_range): nothing is left to give back.
    if (counter == ref_counter::structured) return;
    fail_absent(s, device, "acc::exit_data needs data entered by acc::enter_data (or present in an acc::data region)",
                site);
  }
  present_entry& e = it->second;
  if (counter == ref_counter::dynamic) {
    if (e.dynamic == 0) return;
    e.dynamic = finalize ? 0 : e.dynamic - 1;
  } else if (e.structured > 0) {
    --e.structured;
  }
  if (e.structured > 0 || e.dynamic > 0) return;
  if (device >= 0 && e.owned && (kind == data_kind::copy || kind == data_kind::copyout)) {
    try {
      const nvtx_text_range range(transfer_name("copyout", s));
      cuda_ops().to_host(device, const_cast<void*>(s.p), e.device + (s.begin() - it->first), s.bytes, queue, site);
    } catch (...) {
      drop_entry(device, m, it, queue);
      throw;
    }
  }
  drop_entry(device, m, it, queue);
}

/// update_device / update_self of a present range (OpenACC 3.3 §2.14.4). The transfer runs
/// outside the table's lock so that one thread's large update does not stall other threads.
inline void update_action(int device, const host_span& s, bool to_device, int queue, const call_site& site) {
  if (s.bytes == 0) return;
  char* dev = nullptr;
  {
    auto& st = state();
    std::lock_guard lock(st.present_mutex);
    present_map& m = st.present[device];
    auto it = find_present(m, s, device, site);
    if (it == m.end())
      fail_absent(s, device, "enter it with acc::enter_data or an acc::data region before updating it", site);
    if (device < 0 || !it->second.owned) return;
    dev = it->second.device + (s.begin() - it->first);
  }
  const device_ops& ops = cuda_ops();
  const nvtx_text_range range(transfer_name(to_device ? "update_device" : "update_self", s));
  if (to_device)
    ops.to_device(device, dev, s.p, s.bytes, queue, site);
  else
    ops.to_host(device, const_cast<void*>(s.p), dev, s.bytes, queue, site);
}

/// The device address of s on `device`, or nullptr when s is not (wholly) present.
inline void* present_address(int device, const host_span& s) noexcept {
  auto& st = state();
  std::lock_guard lock(st.present_mutex);
  auto table = st.present.find(device);
  if (table == st.present.end()) return nullptr;
  present_map& m = table->second;
  auto next = m.upper_bound(s.begin());
  if (next == m.begin()) return nullptr;
  auto it = std::prev(next);
  const bool inside = s.begin() < it->second.end || (s.bytes == 0 && s.begin() == it->first);
  if (!inside || s.end() > it->second.end) return nullptr;
  return it->second.device + (s.begin() - it->first);
}

/// Drops every entry that overlaps host memory about to be freed (an acc::array's last owner),
/// so that a later allocation at the same address is not mistaken for present data.
inline void forget_host_range(const void* p, std::size_t bytes) noexcept {
  if (bytes == 0) return;
  const auto b = reinterpret_cast<std::uintptr_t>(p), e = b + bytes;
  auto& st = state();
  std::lock_guard lock(st.present_mutex);
  for (auto& [device, m] : st.present) {
    auto it = m.upper_bound(b);
    if (it != m.begin() && std::prev(it)->second.end > b) --it;
    while (it != m.end() && it->first < e) drop_entry(device, m, it++, queue_sync);
  }
}

}  // namespace acc::detail
