//! @file The runtime's definitions: the state behind detail/runtime_state.hpp, the present
//! table, implicit data, NVTX. Compiled once into the acc_runtime library (src/runtime.cpp),
//! or included inline by those headers when a program uses acc without the CMake targets
//! (config.hpp, ACC_DETAIL_RUNTIME_INLINE). Only this file needs <map>, <mutex>,
//! <condition_variable> and NVTX.
#pragma once

#include <acc/detail/array_owner.hpp>
#include <acc/detail/capture.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/memory_order.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/detail/selection.hpp>
#include <acc/error.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <map>
#include <memory>
#include <new>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

// acc::atomic_ref passes std::memory_order values on by number (detail/memory_order.hpp).
static_assert(int(std::memory_order_relaxed) == int(acc::detail::memory_order::relaxed) &&
                  int(std::memory_order_consume) == int(acc::detail::memory_order::consume) &&
                  int(std::memory_order_acquire) == int(acc::detail::memory_order::acquire) &&
                  int(std::memory_order_release) == int(acc::detail::memory_order::release) &&
                  int(std::memory_order_acq_rel) == int(acc::detail::memory_order::acq_rel) &&
                  int(std::memory_order_seq_cst) == int(acc::detail::memory_order::seq_cst) &&
                  __ATOMIC_RELAXED == 0 && __ATOMIC_SEQ_CST == 5,
              "acc: this standard library numbers std::memory_order differently from acc::detail::memory_order");

#if !defined(ACC_NO_NVTX) && __has_include(<nvtx3/nvToolsExt.h>)
#  define ACC_DETAIL_RUNTIME_NVTX_HEADERS 1
#  include <nvtx3/nvToolsExt.h>
#else
#  define ACC_DETAIL_RUNTIME_NVTX_HEADERS 0
#endif

namespace acc::detail {

ACC_DETAIL_RUNTIME_FN std::string describe(const call_site& site) {
  std::string file = site.where.file_name();
  if (auto slash = file.find_last_of("/\\"); slash != std::string::npos) file.erase(0, slash + 1);
  return std::string("acc::") + site.construct + " at " + file + ":" + std::to_string(site.where.line());
}

[[noreturn]] ACC_DETAIL_RUNTIME_FN void throw_error(error_kind kind, const call_site& site, const std::string& what) {
  std::string message = describe(site) + ": " + what;
  switch (kind) {
    case error_kind::device_error: throw device_error(message);
    case error_kind::bad_clause: throw bad_clause(message);
    case error_kind::not_present_error: throw not_present_error(message);
    case error_kind::error: break;
  }
  throw error(message);
}

/// A number no entry had before (present_entry::serial).
inline std::uint64_t new_entry_serial() noexcept {
  static std::atomic<std::uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

/// One host range present on one device, with OpenACC's two reference counts (OpenACC 3.3
/// §2.6.7): the table maps its first host byte to this.
struct present_entry {
  // Which entry this is: a data region gives its reference back only to the entry it took it
  // from, not to a later one at the same address (its array freed inside the region, and new
  // data entered where it was).
  std::uint64_t serial = new_entry_serial();
  std::uintptr_t end = 0;  // one past its last host byte
  char* device = nullptr;  // device address of its first byte; the host address on the host
  long structured = 0;     // data regions and compute constructs
  long dynamic = 0;        // enter_data / exit_data
  bool owned = true;       // false for deviceptr ranges: nothing to copy or free
  bool global = false;     // an ACC_DECLARE variable's device copy: updated, never freed
  bool pinned = false;     // the host range was page-locked for this entry
  bool mapped = false;     // acc::map_data: device memory the program owns, updated, never freed
  char* mapped_to = nullptr;  // on the host device, where acc::unmap_data copies the range back
  int transfers = 0;       // copies between the host range and its device copy so far
  std::string label;
};

/// A namespace-scope variable made by ACC_DECLARE; `symbol`: nvcc made it a __device__
/// variable, whose host shadow is this range.
struct declared_global {
  std::uintptr_t begin = 0, end = 0;
  const char* label = nullptr;
  bool symbol = false;
};

/// A range on its way into the present table (runtime_state::entering).
struct entering_range {
  int device = 0;
  std::uintptr_t begin = 0, end = 0;
};

/// Per device (-1: the host, whose table keeps is_present observable when constructs run
/// there), host begin -> entry.
using present_map = std::map<std::uintptr_t, present_entry>;

struct runtime_state {
  std::atomic<const device_ops*> cuda{nullptr};
  std::atomic<openmp_copy_fn> openmp_copy{nullptr};
  std::atomic<int> nvidia_count{-1};  // probed once, on first need
  target env_type = target::unset;    // ACC_DEVICE_TYPE
  bool env_auto = false;              // ACC_DEVICE_TYPE=auto: acc::adaptive everywhere (GPU if any)
  int env_num = 0;                    // ACC_DEVICE_NUM
  std::string env_error;              // reported by the first construct, not at static init
  std::once_flag fallback_warning;

  // acc::malloc's blocks and their sizes, by (device, address): acc::free refuses a block that
  // a mapping still uses, and on the host device anything else than such a block (one freed
  // already, or one from a GPU), which the C library would abort on.
  std::mutex malloc_blocks_mutex;
  std::map<std::pair<int, const void*>, std::size_t> malloc_blocks;

  // Async queues: (device, queue id) -> cudaStream_t (queue_handle).
  std::mutex queue_mutex;
  std::map<std::pair<int, int>, void*> queues;

  // The present table, one map per device. present_generation moves (under the lock) with
  // every change of an entry's existence or extent, so that a construct can reuse what it
  // looked up before while the number is the same (resolved_captures).
  std::mutex present_mutex;
  std::map<int, present_map> present;
  std::atomic<std::uint64_t> present_generation{1};
  // Ranges that enter_action is allocating and copying in outside the lock, not yet in `present`;
  // an enter of overlapping data waits on present_entered until they are (or have failed).
  std::vector<entering_range> entering;
  std::condition_variable present_entered;
  // ACC_DECLARE variables (host ranges), entered into a device's table on first use there.
  std::vector<declared_global> declared;

  // call_once_at: one lock for every first-time initialisation; recursive because one may
  // need another (a kernel's limits need the device's memory pool).
  std::recursive_mutex once_mutex;

  // acc::adaptive and acc::tuned: call sites measured so far, the tune cache (detail/selection.hpp).
  selection_registry selection;

  runtime_state() {
    if (const char* v = std::getenv("ACC_DEVICE_TYPE"); v && *v) {
      std::string s(v);
      for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      // multicore: acc's host device runs on every core when built with OpenMP (NVIDIA's
      // compilers take ACC_DEVICE_TYPE=multicore for theirs).
      if (s == "host" || s == "multicore") env_type = target::host;
      else if (s == "nvidia" || s == "gpu" || s == "not_host") env_type = target::nvidia;
      else if (s == "auto") env_auto = true;
      else if (s != "default")
        env_error = "acc: ACC_DEVICE_TYPE=" + std::string(v) + " is not a device type; use host, multicore, nvidia or auto";
    }
    if (const char* v = std::getenv("ACC_DEVICE_NUM"); v && *v) {
      char* end = nullptr;
      long n = std::strtol(v, &end, 10);
      if (*end != '\0' || n < 0 || n > 1 << 20)
        env_error = "acc: ACC_DEVICE_NUM=" + std::string(v) + " is not a device number (0, 1, ...)";
      else
        env_num = static_cast<int>(n);
    }
  }
};

// Never destroyed: an acc::array with static storage (a global, a function's static) may be
// destroyed after this would be, and its destructor still takes its range out of the present
// table. What the state holds (maps, queue handles) goes with the process.
ACC_DETAIL_PROGRAM_WIDE inline runtime_state& state() {
  static runtime_state& s = *new runtime_state;
  return s;
}

ACC_DETAIL_RUNTIME_FN selection_registry& selection_state() noexcept { return state().selection; }
ACC_DETAIL_RUNTIME_FN bool selection_registry_env_auto() noexcept { return state().env_auto; }

ACC_DETAIL_PROGRAM_WIDE ACC_DETAIL_RUNTIME_FN thread_state& this_thread() noexcept {
  static thread_local thread_state t;
  return t;
}

ACC_DETAIL_RUNTIME_FN int resolved_queue(int queue) noexcept {
  return queue == queue_noval ? this_thread().default_async : queue;
}

ACC_DETAIL_RUNTIME_FN void register_cuda_ops(const device_ops* ops) noexcept {
  const device_ops* expected = nullptr;
  state().cuda.compare_exchange_strong(expected, ops, std::memory_order_acq_rel);
}

ACC_DETAIL_RUNTIME_FN int nvidia_device_count() {
  auto& s = state();
  int n = s.nvidia_count.load(std::memory_order_acquire);
  if (n >= 0) return n;
  const device_ops* ops = s.cuda.load(std::memory_order_acquire);
  if (!ops) return 0;  // not cached: an nvcc TU may still register during static initialisation
  n = ops->device_count();
  s.nvidia_count.store(n, std::memory_order_release);
  return n;
}

ACC_DETAIL_RUNTIME_FN const device_ops& cuda_ops() noexcept { return *state().cuda.load(std::memory_order_acquire); }

ACC_DETAIL_RUNTIME_FN void register_openmp_copy(openmp_copy_fn f) noexcept {
  openmp_copy_fn expected = nullptr;
  state().openmp_copy.compare_exchange_strong(expected, f, std::memory_order_acq_rel);
}

ACC_DETAIL_RUNTIME_FN openmp_copy_fn openmp_copy() noexcept { return state().openmp_copy.load(std::memory_order_acquire); }

ACC_DETAIL_RUNTIME_FN target current_target() {
  if (target t = this_thread().type; t != target::unset) return t;
  auto& s = state();
  if (!s.env_error.empty()) throw error(s.env_error);
  const bool gpu = nvidia_device_count() > 0;
  if (s.env_type == target::nvidia && !gpu) {
    std::call_once(s.fallback_warning, [&s] {
      std::fputs(s.cuda.load(std::memory_order_acquire)
                     ? "acc: ACC_DEVICE_TYPE=nvidia but no usable NVIDIA GPU was found; running on the host\n"
                     : "acc: ACC_DEVICE_TYPE=nvidia but this program has no CUDA backend (none of its source files "
                       "was compiled as CUDA: a .cu file, or nvcc -x cu); running on the host\n",
                 stderr);
    });
    return target::host;
  }
  if (s.env_type != target::unset) return s.env_type;
  return gpu ? target::nvidia : target::host;
}

ACC_DETAIL_RUNTIME_FN int current_nvidia_num() {
  if (int n = this_thread().nvidia_num; n >= 0) return n;
  return state().env_num;
}

ACC_DETAIL_RUNTIME_FN int current_device() {
  return current_target() == target::nvidia ? current_nvidia_num() : -1;
}

ACC_DETAIL_RUNTIME_FN void* queue_handle(int device, int queue, void* (*create)(const call_site&),
                                         const call_site& site) {
  auto& s = state();
  std::lock_guard lock(s.queue_mutex);
  void*& slot = s.queues[{device, queue}];
  if (!slot) slot = create(site);
  return slot;
}

ACC_DETAIL_RUNTIME_FN void* existing_queue_handle(int device, int queue) {
  auto& s = state();
  std::lock_guard lock(s.queue_mutex);
  auto it = s.queues.find({device, queue});
  return it == s.queues.end() ? nullptr : it->second;
}

ACC_DETAIL_RUNTIME_FN void for_each_queue(int device, void (*f)(void* handle, void* context), void* context) {
  // f runs after the lock is released (queues live as long as the process): a wait_all must not
  // keep other threads' async_test or wait from finding their own queue meanwhile.
  std::vector<void*> handles;
  {
    auto& s = state();
    std::lock_guard lock(s.queue_mutex);
    for (auto& [key, handle] : s.queues)
      if (key.first == device) handles.push_back(handle);
  }
  for (void* handle : handles) f(handle, context);
}

ACC_DETAIL_RUNTIME_FN void yield_thread() noexcept { std::this_thread::yield(); }

ACC_DETAIL_RUNTIME_FN bool done_at(const int* flags, int index) noexcept {
  return std::atomic_ref<int>(const_cast<int&>(flags[index])).load(std::memory_order_acquire) == 1;
}

ACC_DETAIL_RUNTIME_FN void call_once_at(int* flags, int index, void (*make)(void* context), void* context) {
  if (done_at(flags, index)) return;
  std::lock_guard lock(state().once_mutex);
  if (flags[index] == 1) return;
  make(context);
  std::atomic_ref<int>(flags[index]).store(1, std::memory_order_release);
}

ACC_DETAIL_RUNTIME_FN array_owner* make_array_owner(std::size_t bytes, std::string_view label) {
  auto* owner = new array_owner;
  owner->label = label;
  owner->bytes = bytes;
  owner->align = bytes >= 4096 ? 4096 : 64;
  try {
    if (bytes) owner->storage = ::operator new(bytes, std::align_val_t(owner->align));
  } catch (...) {
    delete owner;
    throw;
  }
  return owner;
}

// A borrowed handle is the owner's address with its low bit set (array_owner is allocated by new,
// so that bit is free).
static_assert(alignof(array_owner) >= 2);

ACC_DETAIL_RUNTIME_FN array_owner* copy_array_owner(array_owner* owner) noexcept {
  const auto bits = reinterpret_cast<std::uintptr_t>(owner);
  if (bits == 0) return nullptr;
  if (this_thread().capture) return reinterpret_cast<array_owner*>(bits | 1);
  auto* const held = reinterpret_cast<array_owner*>(bits & ~std::uintptr_t(1));
  std::atomic_ref<long>(held->refs).fetch_add(1, std::memory_order_relaxed);
  return held;
}

inline void free_array_owner(array_owner* owner) noexcept {
  forget_host_range(owner->storage, owner->bytes);
  if (owner->storage) ::operator delete(owner->storage, std::align_val_t(owner->align));
  delete owner;
}

ACC_DETAIL_RUNTIME_FN void release_array_owner(array_owner* owner) noexcept {
  if (!owner || (reinterpret_cast<std::uintptr_t>(owner) & 1) ||
      std::atomic_ref<long>(owner->refs).fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  if (capture_scope* s = this_thread().capture) {
    owner->next_freed = s->freed;
    s->freed = owner;
    return;
  }
  free_array_owner(owner);
}

// ---- NVTX ------------------------------------------------------------------------------------

inline namespace ACC_DETAIL_NVTX_ABI {
#if ACC_DETAIL_RUNTIME_NVTX_HEADERS
inline nvtxDomainHandle_t nvtx_domain() {
  static const nvtxDomainHandle_t domain = nvtxDomainCreateA("acc");
  return domain;
}

inline nvtx_name make_nvtx_name(const call_site& site) {
  std::string file = site.where.file_name();
  if (auto slash = file.find_last_of("/\\"); slash != std::string::npos) file.erase(0, slash + 1);
  const std::string text = file + ":" + std::to_string(site.where.line()) + " " + site.construct;
  return nvtxDomainRegisterStringA(nvtx_domain(), text.c_str());
}

ACC_DETAIL_RUNTIME_FN void nvtx_push(nvtx_name name) noexcept {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  a.message.registered = static_cast<nvtxStringHandle_t>(name);
  nvtxDomainRangePushEx(nvtx_domain(), &a);
}

ACC_DETAIL_RUNTIME_FN void nvtx_push_site(nvtx_site& s, const call_site& site) noexcept {
  try {
    if (!done_at(&s.registered, 0)) {
      struct context {
        nvtx_site* s;
        const call_site* site;
      } c{&s, &site};
      call_once_at(&s.registered, 0, [](void* p) {
        auto& x = *static_cast<context*>(p);
        x.s->name = make_nvtx_name(*x.site);
      }, &c);
    }
  } catch (...) {  // no name (out of memory): the range is pushed unnamed
  }
  nvtx_push(s.name);
}

ACC_DETAIL_RUNTIME_FN void nvtx_push_text(const char* text) noexcept {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = text;
  nvtxDomainRangePushEx(nvtx_domain(), &a);
}

ACC_DETAIL_RUNTIME_FN void nvtx_pop() noexcept { nvtxDomainRangePop(nvtx_domain()); }

ACC_DETAIL_RUNTIME_FN bool nvtx_recording() noexcept {
  static const bool recording =
      std::getenv(sizeof(void*) == 8 ? "NVTX_INJECTION64_PATH" : "NVTX_INJECTION32_PATH") != nullptr;
  return recording;
}
#else
ACC_DETAIL_RUNTIME_FN bool nvtx_recording() noexcept { return false; }
ACC_DETAIL_RUNTIME_FN void nvtx_push_site(nvtx_site&, const call_site&) noexcept {}
ACC_DETAIL_RUNTIME_FN void nvtx_push(nvtx_name) noexcept {}
ACC_DETAIL_RUNTIME_FN void nvtx_push_text(const char*) noexcept {}
ACC_DETAIL_RUNTIME_FN void nvtx_pop() noexcept {}
#endif
}  // namespace ACC_DETAIL_NVTX_ABI

}  // namespace acc::detail

// The other parts, in order: the present table; the implicit data of constructs; acc::adaptive
// and the record of selections; acc::tuned's search and the tune cache; the dispatch path of compute constructs, which uses both; what
// the host backend's headers would otherwise instantiate in every translation unit (the tile
// scratch and acc::cache's messages, gang-shared memory); acc::devices_of; the OpenACC runtime
// routines of acc/runtime.hpp.
#define ACC_DETAIL_RUNTIME_PARTS 1
#include <acc/detail/present_table-inl.hpp>
#include <acc/detail/capture-inl.hpp>
#include <acc/detail/selection-inl.hpp>
#include <acc/detail/tune-inl.hpp>
#include <acc/detail/dispatch-inl.hpp>
#include <acc/backend/host/tile_ops-inl.hpp>
#include <acc/backend/host/region-inl.hpp>
#include <acc/detail/devices-inl.hpp>
#include <acc/detail/routines-inl.hpp>

