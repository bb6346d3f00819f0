//! @file The runtime's definitions of the present table (detail/present_table.hpp). Compiled with
//! detail/runtime-inl.hpp, which includes this file.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_PRESENT_TABLE_INL)
#define ACC_DETAIL_PRESENT_TABLE_INL

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace acc::detail {

/// The present table's lock, held to change it: entries made, dropped or resized. Moves the
/// table's generation, which the constructs' memo of their lookups (resolved_captures) checks.
class table_change {
public:
  explicit table_change(runtime_state& st) : lock_(st.present_mutex) {
    st.present_generation.fetch_add(1, std::memory_order_release);
  }

private:
  std::lock_guard<std::mutex> lock_;
};

// ---- the present table -----------------------------------------------------------------------

/// "'temperature'" or "8000 bytes at 0x7f..": how errors name data.
ACC_DETAIL_RUNTIME_FN std::string describe(const host_span& s) {
  if (s.label && *s.label) return "'" + std::string(s.label) + "'";
  char buf[64];
  if (s.bytes == 0) std::snprintf(buf, sizeof buf, "the address %p", s.p);  // deviceptr(p), is_present(p, 0)
  else std::snprintf(buf, sizeof buf, "%zu bytes at %p", s.bytes, s.p);
  return buf;
}

/// describe(s) with its bytes: the partly present messages compare two ranges, often of one label.
inline std::string describe_with_range(const host_span& s) {
  if (!s.label || !*s.label) return describe(s);
  char buf[64];
  std::snprintf(buf, sizeof buf, " (%zu bytes at %p)", s.bytes, s.p);
  return describe(s) + buf;
}

/// The NVTX name of a transfer: "copyin 'temperature' 8388608 bytes", so profiles show which
/// array moved.
ACC_DETAIL_RUNTIME_FN std::string transfer_name(const char* action, const host_span& s) {
  return std::string(action) + " " + describe(s) + " " + std::to_string(s.bytes) + " bytes";
}

ACC_DETAIL_RUNTIME_FN std::string describe_device(int device) {
  return device < 0 ? std::string("the host device") : "device " + std::to_string(device);
}

/// The entry holding all of `s`, or m.end(). Data that is only partly present is an error
/// (OpenACC 3.3 §2.7.2), reported rather than silently given a second copy.
inline present_map::iterator find_present(present_map& m, const host_span& s, int device, const call_site& site) {
  const std::uintptr_t b = s.begin(), e = s.end();
  auto next = m.upper_bound(b);
  if (next != m.begin()) {
    auto it = std::prev(next);
    if (b < it->second.end || (b == it->first && s.bytes == 0)) {
      if (e <= it->second.end) return it;
      fail<not_present_error>(site, describe_with_range(s) + " is only partly present on " + describe_device(device) +
                                        " (it extends past the present " + describe_with_range(host_span{
                                            reinterpret_cast<const void*>(it->first), it->second.end - it->first,
                                            it->second.label.c_str()}) +
                                        "); enter the whole range at once");
    }
  }
  if (s.bytes && next != m.end() && next->first < e)
    fail<not_present_error>(site, describe_with_range(s) + " is only partly present on " + describe_device(device) +
                                      " (it overlaps the present " +
                                      describe_with_range(host_span{reinterpret_cast<const void*>(next->first),
                                                         next->second.end - next->first, next->second.label.c_str()}) +
                                      "); enter the whole range at once");
  return m.end();
}

ACC_DETAIL_RUNTIME_FN bool declare_global(const void* p, std::size_t bytes, const char* label, bool symbol) noexcept {
  try {
    auto& st = state();
    const table_change lock(st);
    const auto b = reinterpret_cast<std::uintptr_t>(p);
    st.declared.push_back(declared_global{b, b + bytes, label, symbol});
    return true;
  } catch (...) {
    return false;
  }
}

/// The entry of the ACC_DECLARE variable holding all of `s` on `device`, made on its first use
/// there (the variable is present for the whole program, OpenACC 3.3 §2.13 `declare create`);
/// m.end() if `s` is not inside one. `for_kernels`: only a variable with a device copy a kernel
/// can address counts on a GPU (one of a g++-compiled file has none there).
inline present_map::iterator enter_declared(present_map& m, const host_span& s, int device, const call_site& site,
                                            bool for_kernels = false) {
  for (const declared_global& g : state().declared) {
    if (s.begin() < g.begin || s.end() > g.end || (s.bytes == 0 && s.begin() == g.end)) continue;
    if (for_kernels && device >= 0 && !g.symbol) return m.end();
    present_entry e;
    e.end = g.end;
    e.label = g.label;
    e.structured = 1L << 40;  // never given back
    e.owned = false;
    if (device >= 0 && g.symbol) {
      e.device = static_cast<char*>(cuda_ops().symbol_address(device, reinterpret_cast<const void*>(g.begin), site));
      e.global = true;
    } else {
      // The host device, or a variable of a g++-compiled file (whose constructs run on the host).
      e.device = reinterpret_cast<char*>(g.begin);
    }
    state().present_generation.fetch_add(1, std::memory_order_release);
    return m.emplace(g.begin, std::move(e)).first;
  }
  return m.end();
}

/// The first entry that overlaps `s`, or m.end().
inline present_map::iterator find_overlapping(present_map& m, const host_span& s) {
  auto next = m.upper_bound(s.begin());
  if (next != m.begin() && std::prev(next)->second.end > s.begin()) return std::prev(next);
  if (next != m.end() && next->first < s.end()) return next;
  return m.end();
}

/// find_present, counting ACC_DECLARE variables as present (`for_kernels`: see enter_declared).
inline present_map::iterator find_present_or_declared(present_map& m, const host_span& s, int device,
                                                      const call_site& site, bool for_kernels = false) {
  if (auto it = find_present(m, s, device, site); it != m.end()) return it;
  return enter_declared(m, s, device, site, for_kernels);
}

/// How many transfers of a present range are staged before it is page-locked (cudaHostRegister,
/// about 2.5 pinned copies' time): a range moved more often than this earns it back.
inline constexpr int pin_after_transfers = 2;

/// Frees an entry's device memory after `queue` is done with it; never throws.
inline void free_entry(int device, std::uintptr_t host, const present_entry& e, int queue) noexcept {
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
      ops.unpin(reinterpret_cast<const void*>(host));
    }
  }
}

/// free_entry, and the entry out of the table (under its lock).
inline void drop_entry(int device, present_map& m, present_map::iterator it, int queue) noexcept {
  free_entry(device, it->first, it->second, queue);
  m.erase(it);
}

/// Entries taken out of the table under its lock and freed when this goes, after the lock (a
/// free can wait for a queue): one thread's frees do not stall the other threads. Declare it
/// before the lock.
class entries_to_free {
public:
  entries_to_free() = default;
  entries_to_free(const entries_to_free&) = delete;
  entries_to_free& operator=(const entries_to_free&) = delete;
  ~entries_to_free() {
    for (const item& i : items_) free_entry(i.device, i.host, i.entry, i.queue);
  }

  /// Takes `it` out of `m` (under the lock); with no memory to keep it, frees it at once.
  void take(int device, present_map& m, present_map::iterator it, int queue) noexcept {
    try {
      items_.reserve(items_.size() + 1);
    } catch (...) {
      drop_entry(device, m, it, queue);
      return;
    }
    // Reserved: no reallocation, so this cannot throw.
    items_.push_back(item{device, queue, it->first, std::move(it->second)});
    m.erase(it);
  }

private:
  struct item {
    int device = 0, queue = 0;
    std::uintptr_t host = 0;
    present_entry entry;
  };
  std::vector<item> items_;
};

[[noreturn]] ACC_DETAIL_RUNTIME_FN void fail_absent(const host_span& s, int device, const char* hint, const call_site& site) {
  fail<not_present_error>(site, describe(s) + " is not present on " + describe_device(device) + "; " + hint);
}

/// Whether another thread is entering a range of `device` that overlaps `s` (under the lock).
inline bool overlaps_entering(const runtime_state& st, int device, const host_span& s) {
  return std::any_of(st.entering.begin(), st.entering.end(), [&](const entering_range& r) {
    return r.device == device && r.begin < s.end() && s.begin() < r.end;
  });
}

/// Keeps a range on runtime_state::entering while it lives (made and destroyed under the table's
/// lock); its end wakes the enters waiting on the range.
class entering_mark {
public:
  entering_mark(runtime_state& st, int device, const host_span& s) : st_(st) {
    st.entering.push_back(entering_range{device, s.begin(), s.end()});
    at_ = st.entering.back();
  }
  ~entering_mark() {
    auto it = std::find_if(st_.entering.begin(), st_.entering.end(), [&](const entering_range& r) {
      return r.device == at_.device && r.begin == at_.begin && r.end == at_.end;
    });
    if (it != st_.entering.end()) st_.entering.erase(it);
    st_.present_entered.notify_all();
  }
  entering_mark(const entering_mark&) = delete;
  entering_mark& operator=(const entering_mark&) = delete;

private:
  runtime_state& st_;
  entering_range at_;
};

/// The entry part of a data clause. Returns the serial of the entry it took a reference of,
/// which the matching exit_action must give back, or 0 (no_create of absent data takes none).
ACC_DETAIL_RUNTIME_FN std::uint64_t enter_action(int device, data_kind kind, const host_span& s, ref_counter counter, int queue,
                         const call_site& site, bool zero) {
  if (s.bytes == 0) return 0;  // zero-length data needs no device copy (OpenACC 3.3 §2.7.1)
  auto& st = state();
  std::unique_lock lock(st.present_mutex);
  present_map& m = st.present[device];
  for (;;) {
    if (auto it = find_present_or_declared(m, s, device, site); it != m.end()) {
      ++(counter == ref_counter::structured ? it->second.structured : it->second.dynamic);
      return it->second.serial;
    }
    // Another thread is giving this data (or data it overlaps) its device copy: the enter finds
    // that copy, or the partial overlap, once it is in the table.
    if (!overlaps_entering(st, device, s)) break;
    st.present_entered.wait(lock);
  }
  if (kind == data_kind::present)
    fail_absent(s, device, "enter it first with acc::copyin / acc::create (acc::data or acc::enter_data)", site);
  if (kind == data_kind::no_create) return 0;

  present_entry e;
  e.end = s.end();
  if (s.label) e.label = s.label;
  (counter == ref_counter::structured ? e.structured : e.dynamic) = 1;
  if (device < 0 || kind == data_kind::deviceptr) {
    // On the host the "device copy" is the data itself; a deviceptr range already is device memory.
    e.device = static_cast<char*>(const_cast<void*>(s.p));
    e.owned = kind != data_kind::deviceptr;
    st.present_generation.fetch_add(1, std::memory_order_release);
    const std::uint64_t serial = e.serial;
    m.emplace(s.begin(), std::move(e));
    return serial;
  }
  // The allocation and the copy-in run outside the table's lock, so that one thread's large
  // enter does not stall the other threads' data actions and constructs (one thread per GPU,
  // say). Until the entry is in the table the data is not present: enters of overlapping data
  // wait for it (above), other lookups see it absent, as they would have just before the call.
  const entering_mark mark(st, device, s);
  lock.unlock();
  const device_ops& ops = cuda_ops();
  try {
    e.device = static_cast<char*>(ops.alloc(device, s.bytes, queue, describe(s), site));
    // Not page-locked here: the backend stages a pageable range through its pinned buffers,
    // which costs about a pinned copy, where registering it would cost twice that again.
    if (kind == data_kind::copy || kind == data_kind::copyin) {
      const nvtx_text_range range([&] { return transfer_name("copyin", s); });
      ops.to_device(device, e.device, s.p, s.bytes, queue, host_memory::unknown, site);
      e.transfers = 1;
    } else if (zero && (kind == data_kind::create || kind == data_kind::copyout)) {
      ops.fill_zero(device, e.device, s.bytes, queue, site);
    }
  } catch (...) {
    if (e.device) ops.release(device, e.device, queue);
    lock.lock();  // the mark leaves the list under the lock
    throw;
  }
  lock.lock();
  st.present_generation.fetch_add(1, std::memory_order_release);
  const std::uint64_t serial = e.serial;
  m.emplace(s.begin(), std::move(e));
  return serial;
}

ACC_DETAIL_RUNTIME_FN void* host_address(int device, const void* device_address) {
  const auto d = reinterpret_cast<std::uintptr_t>(device_address);
  auto& st = state();
  std::lock_guard lock(st.present_mutex);
  auto m = st.present.find(device);
  if (m == st.present.end()) return nullptr;
  for (const auto& [begin, e] : m->second) {
    const auto dev = reinterpret_cast<std::uintptr_t>(e.device);
    if (d >= dev && d - dev < e.end - begin) return reinterpret_cast<void*>(begin + (d - dev));
  }
  return nullptr;
}

/// The exit part: gives back one reference (all dynamic ones with finalize); when none is left,
/// copies out (copy, copyout) and frees. Data that is not present is no action, and data
/// present only through regions (dynamic count 0) is left alone (OpenACC 3.3 §2.7.1, §2.14.7);
/// a range that overlaps present data without lying inside it is still an error (find_present).
ACC_DETAIL_RUNTIME_FN void exit_action(int device, data_kind kind, const host_span& s, ref_counter counter, bool finalize, int queue,
                        const call_site& site, std::uint64_t serial) {
  if (s.bytes == 0) return;
  auto& st = state();
  present_entry gone;  // the entry this exit ends: out of the table, copied out and freed after the lock
  std::uintptr_t gone_at = 0;
  {
    const table_change lock(st);
    present_map& m = st.present[device];
    auto it = find_present_or_declared(m, s, device, site);
    // exit_data of absent data does nothing; a region's data can be gone only if its host memory
    // was freed inside the region (forget_host_range): nothing is left to give back either way.
    if (it == m.end()) return;
    present_entry& e = it->second;
    if (serial != 0 && e.serial != serial) return;  // another entry since, at the same address
    if (e.mapped) {
      // A mapping ends only by acc::unmap_data; regions give back their references.
      if (counter == ref_counter::structured && e.structured > 0) --e.structured;
      return;
    }
    if (counter == ref_counter::dynamic) {
      if (e.dynamic == 0) return;
      e.dynamic = finalize ? 0 : e.dynamic - 1;
    } else if (e.structured > 0) {
      --e.structured;
    }
    if (e.structured > 0 || e.dynamic > 0) return;
    gone_at = it->first;
    gone = std::move(e);
    m.erase(it);
  }
  // The copy-out and the free run outside the table's lock, as updates do, so that one thread's
  // copy-out (say, one thread per GPU) does not stall the other threads' data and constructs.
  if (device >= 0 && gone.owned && (kind == data_kind::copy || kind == data_kind::copyout)) {
    try {
      const nvtx_text_range range([&] { return transfer_name("copyout", s); });
      cuda_ops().to_host(device, const_cast<void*>(s.p), gone.device + (s.begin() - gone_at), s.bytes, queue,
                         gone.pinned ? host_memory::page_locked : host_memory::unknown, site);
    } catch (...) {
      free_entry(device, gone_at, gone, queue);
      throw;
    }
  }
  free_entry(device, gone_at, gone, queue);
}

/// update_device / update_self of a present range (OpenACC 3.3 §2.14.4). The transfer runs
/// outside the table's lock so that one thread's large update does not stall other threads.
ACC_DETAIL_RUNTIME_FN void update_action(int device, const host_span& s, bool to_device, int queue, const call_site& site,
                                         bool if_present) {
  if (s.bytes == 0) return;
  char* dev = nullptr;
  host_memory host = host_memory::unknown;
  {
    auto& st = state();
    std::lock_guard lock(st.present_mutex);
    present_map& m = st.present[device];
    auto it = find_present_or_declared(m, s, device, site);
    if (it == m.end()) {
      if (if_present) return;
      fail_absent(s, device,
                  "enter it with acc::enter_data or an acc::data region before updating it, or give the update "
                  "acc::if_present to skip data that is not present",
                  site);
    }
    present_entry& e = it->second;
    if (device < 0 || !(e.owned || e.global || e.mapped)) return;
    dev = e.device + (s.begin() - it->first);
    // A range updated again and again (once per time step, say) is page-locked, so that its
    // updates run at pinned bandwidth with no host copy; ranges moved fewer times stay
    // pageable and are staged. Under the lock, so that drop_entry sees `pinned` right.
    // Tried once: a range that cannot be registered (a page shared with a registered
    // neighbour) stays staged rather than paying a failed attempt on every update.
    if (e.owned && !e.pinned && e.transfers <= pin_after_transfers && ++e.transfers > pin_after_transfers)
      e.pinned = cuda_ops().pin(reinterpret_cast<const void*>(it->first), e.end - it->first);
    if (e.pinned) host = host_memory::page_locked;
  }
  const device_ops& ops = cuda_ops();
  const nvtx_text_range range([&] { return transfer_name(to_device ? "update_device" : "update_self", s); });
  if (to_device)
    ops.to_device(device, dev, s.p, s.bytes, queue, host, site);
  else
    ops.to_host(device, const_cast<void*>(s.p), dev, s.bytes, queue, host, site);
}

ACC_DETAIL_RUNTIME_FN bool host_coherence::take(const host_span& s, bool fetch) {
  if (s.bytes == 0 || !present_address(device_, s)) return false;
  if (!waited_ && queue_ != queue_sync) cuda_ops().wait(device_, queue_, site_);
  waited_ = true;
  if (fetch) update_action(device_, s, false, queue_sync, site_);
  if (!s.read_only) written_.push_back(s);
  return true;
}

ACC_DETAIL_RUNTIME_FN void host_coherence::finish() {
  for (const host_span& s : written_) update_action(device_, s, true, queue_sync, site_);
}

/// update_peer (Xu et al.'s `update peer`): device copy to device copy. Like update_action,
/// the lookups hold the table's lock and the transfer does not.
ACC_DETAIL_RUNTIME_FN void peer_action(int from, int to, const host_span& s, int queue, const call_site& site) {
  if (s.bytes == 0) return;
  char* src = nullptr;
  char* dst = nullptr;
  {
    auto& st = state();
    std::lock_guard lock(st.present_mutex);
    const auto lookup = [&](int device) -> char* {
      present_map& m = st.present[device];
      auto it = find_present_or_declared(m, s, device, site);
      if (it == m.end())
        fail_absent(s, device, "enter it on both devices (acc::enter_data or acc::data with acc::device_num) first",
                    site);
      return it->second.device + (s.begin() - it->first);
    };
    src = lookup(from);
    dst = lookup(to);
  }
  if (from == to || src == dst) return;
  const nvtx_text_range range([&] { return transfer_name("update_peer", s); });
  cuda_ops().peer_copy(to, dst, from, src, s.bytes, queue, site);
}

ACC_DETAIL_RUNTIME_FN void map_action(int device, const host_span& s, void* device_address, const call_site& site) {
  if (!s.p || !device_address) fail<bad_clause>(site, "the host and device addresses must not be null");
  if (s.bytes == 0) fail<bad_clause>(site, "cannot map 0 bytes");
  auto& st = state();
  std::unique_lock lock(st.present_mutex);
  st.present_entered.wait(lock, [&] { return !overlaps_entering(st, device, s); });
  st.present_generation.fetch_add(1, std::memory_order_release);
  present_map& m = st.present[device];
  if (auto it = find_overlapping(m, s); it != m.end())
    fail<bad_clause>(site, describe(s) + " is already present on " + describe_device(device) + " (" +
                               describe(host_span{reinterpret_cast<const void*>(it->first), it->second.end - it->first,
                                                  it->second.label.c_str()}) +
                               "); OpenACC maps only data that is not present");
  present_entry e;
  e.end = s.end();
  e.owned = false;
  e.mapped = true;
  e.dynamic = 1;
  if (device < 0) {
    e.device = static_cast<char*>(const_cast<void*>(s.p));
    e.mapped_to = static_cast<char*>(device_address);
    std::memmove(const_cast<void*>(s.p), device_address, s.bytes);
  } else {
    e.device = static_cast<char*>(device_address);
  }
  m.emplace(s.begin(), std::move(e));
}

ACC_DETAIL_RUNTIME_FN void* host_side_of_mapped(const void* device_address, std::size_t bytes) noexcept {
  const auto d = reinterpret_cast<std::uintptr_t>(device_address);
  auto& st = state();
  std::lock_guard lock(st.present_mutex);
  if (auto m = st.present.find(-1); m != st.present.end())
    for (const auto& [begin, e] : m->second) {
      const auto to = reinterpret_cast<std::uintptr_t>(e.mapped_to);
      if (e.mapped_to && d >= to && d - to <= e.end - begin && bytes <= e.end - begin - (d - to))
        return reinterpret_cast<void*>(begin + (d - to));
    }
  return const_cast<void*>(device_address);
}

ACC_DETAIL_RUNTIME_FN void unmap_action(int device, const void* host, const call_site& site) {
  auto& st = state();
  const table_change lock(st);
  present_map& m = st.present[device];
  auto it = m.find(reinterpret_cast<std::uintptr_t>(host));
  if (it == m.end() || !it->second.mapped)
  {
    char at[32];
    std::snprintf(at, sizeof at, "%p", host);
    fail<not_present_error>(site, std::string("host address ") + at + " does not begin a range mapped by acc::map_data on " +
                                      describe_device(device));
  }
  present_entry& e = it->second;
  if (e.structured > 0)
    fail<bad_clause>(site, "the mapped range at " + describe(host_span{host, e.end - it->first}) +
                               " is still in use by a data region or construct");
  if (e.mapped_to) std::memmove(e.mapped_to, host, e.end - it->first);
  m.erase(it);
}

ACC_DETAIL_RUNTIME_FN void check_unmapped(int device, const void* device_address, std::size_t bytes,
                                          const call_site& site) {
  const auto d = reinterpret_cast<std::uintptr_t>(device_address);
  auto& st = state();
  std::lock_guard lock(st.present_mutex);
  const auto m = st.present.find(device);
  if (m == st.present.end()) return;
  for (const auto& [begin, e] : m->second) {
    if (!e.mapped) continue;
    // On the host device the range itself is the copy; the program's block is `mapped_to`.
    const auto block = reinterpret_cast<std::uintptr_t>(device < 0 ? e.mapped_to : e.device);
    if (d < block + (e.end - begin) && block < d + bytes) {
      char at[32];
      std::snprintf(at, sizeof at, "%p", device_address);
      fail<bad_clause>(site, std::string("the device memory at ") + at + " is still mapped to " +
                                 describe(host_span{reinterpret_cast<const void*>(begin), e.end - begin,
                                                    e.label.c_str()}) +
                                 " by acc::map_data; acc::unmap_data it before freeing it");
    }
  }
}

/// The device address of s on `device`, or nullptr when s is not (wholly) present.
ACC_DETAIL_RUNTIME_FN void* present_address(int device, const host_span& s) noexcept {
  auto& st = state();
  std::lock_guard lock(st.present_mutex);
  present_map& m = st.present[device];
  auto next = m.upper_bound(s.begin());
  if (next != m.begin()) {
    auto it = std::prev(next);
    const bool inside = s.begin() < it->second.end || (s.bytes == 0 && s.begin() == it->first);
    if (inside) return s.end() > it->second.end ? nullptr : it->second.device + (s.begin() - it->first);
  }
  try {
    if (auto it = enter_declared(m, s, device, call_site{"deviceptr"}); it != m.end())
      return it->second.device + (s.begin() - it->first);
  } catch (...) {  // no device address to be had: not present
  }
  return nullptr;
}

/// Drops every entry that overlaps host memory about to be freed (an acc::array's last owner),
/// so that a later allocation at the same address is not mistaken for present data.
ACC_DETAIL_RUNTIME_FN void forget_host_range(const void* p, std::size_t bytes) noexcept {
  if (bytes == 0) return;
  const auto b = reinterpret_cast<std::uintptr_t>(p), e = b + bytes;
  auto& st = state();
  entries_to_free gone;
  const table_change lock(st);
  for (auto& [device, m] : st.present) {
    auto it = m.upper_bound(b);
    if (it != m.begin() && std::prev(it)->second.end > b) --it;
    while (it != m.end() && it->first < e) gone.take(device, m, it++, queue_sync);
  }
}

}  // namespace acc::detail

#endif  // ACC_DETAIL_PRESENT_TABLE_INL
