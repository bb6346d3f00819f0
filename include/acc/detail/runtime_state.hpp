//! @file The documented runtime state (device type and number, async queues), in one place.
#pragma once

#include <acc/error.hpp>

#include <atomic>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace acc::detail {

/// Where a construct runs. The public acc::device_type has OpenACC's wider vocabulary
/// (default, not_host, ...); the runtime only ever resolves to one of these.
enum class target : int { unset = -1, host = 0, nvidia = 1 };

/// Operations that need the CUDA runtime. Only translation units compiled by nvcc can
/// provide them, so the CUDA backend registers this table when it is linked in; code
/// compiled by g++ (the same program's .cpp files, or a host-only program) reaches the
/// GPU through it and sees no GPU when nothing registered it. Keeping CUDA types out of
/// this header keeps every definition here identical across g++ and nvcc translation
/// units, as the one-definition rule demands.
struct device_ops {
  int (*device_count)() noexcept;
  void (*wait)(int device, int queue, const call_site&);
  void (*wait_all)(int device, const call_site&);
  bool (*test)(int device, int queue, const call_site&);
  void (*wait_async)(int device, int waited, int waiting, const call_site&);
  // Device memory (the data environment, detail/present_table.hpp). `queue` orders each
  // operation as the queues above; queue_sync returns once it is complete. release never
  // throws: it runs from destructors and exception paths.
  void* (*alloc)(int device, std::size_t bytes, int queue, const std::string& what, const call_site&);
  void (*release)(int device, void* p, int queue) noexcept;
  void (*to_device)(int device, void* dst, const void* src, std::size_t bytes, int queue, const call_site&);
  void (*to_host)(int device, void* dst, const void* src, std::size_t bytes, int queue, const call_site&);
  // Page-locks a host range for full-speed DMA; false when it is small, already pinned, or refused.
  bool (*pin)(const void* host, std::size_t bytes) noexcept;
  void (*unpin)(const void* host) noexcept;
  void (*mem_info)(int device, std::size_t* free, std::size_t* total) noexcept;
};

/// One host range present on one device, with OpenACC's two reference counts (OpenACC 3.3
/// §2.6.7): the table maps its first host byte to this.
struct present_entry {
  std::uintptr_t end = 0;  // one past its last host byte
  char* device = nullptr;  // device address of its first byte; the host address on the host
  long structured = 0;     // data regions and compute constructs
  long dynamic = 0;        // enter_data / exit_data
  bool owned = true;       // false for deviceptr ranges: nothing to copy or free
  bool pinned = false;     // the host range was page-locked for this entry
  std::string label;
};

/// Per device (-1: the host, whose table keeps is_present observable when constructs run
/// there), host begin -> entry.
using present_map = std::map<std::uintptr_t, present_entry>;

struct capture_scope;  // detail/capture.hpp

/// OpenACC's queue ids: acc_async_noval and acc_async_sync (OpenACC 3.3 §3.2, openacc.h).
inline constexpr int queue_noval = -1;
inline constexpr int queue_sync = -2;

struct runtime_state {
  std::atomic<const device_ops*> cuda{nullptr};
  std::atomic<int> nvidia_count{-1};  // probed once, on first need
  target env_type = target::unset;    // ACC_DEVICE_TYPE
  int env_num = 0;                    // ACC_DEVICE_NUM
  std::string env_error;              // reported by the first construct, not at static init
  std::once_flag fallback_warning;

  // Async queues: (device, queue id) -> cudaStream_t, created on first use and kept for the
  // life of the process (as CUDA's own default streams are), because destroying streams
  // from a static destructor races the CUDA runtime's own teardown.
  std::mutex queue_mutex;
  std::map<std::pair<int, int>, void*> queues;

  // The present table (detail/present_table.hpp), one map per device.
  std::mutex present_mutex;
  std::map<int, present_map> present;

  runtime_state() {
    if (const char* v = std::getenv("ACC_DEVICE_TYPE"); v && *v) {
      std::string s(v);
      for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (s == "host") env_type = target::host;
      else if (s == "nvidia" || s == "gpu" || s == "not_host") env_type = target::nvidia;
      else if (s != "default")
        env_error = "acc: ACC_DEVICE_TYPE=" + std::string(v) + " is not a device type; use host or nvidia";
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

inline runtime_state& state() {
  static runtime_state s;
  return s;
}

/// acc_set_device_type / acc_set_device_num act per host thread (OpenACC 3.3 §2.3: the
/// current-device ICVs are per thread); unset values fall back to the environment.
struct thread_state {
  target type = target::unset;
  int nvidia_num = -1;
  capture_scope* capture = nullptr;  // set while a compute construct copies its body
};

inline thread_state& this_thread() {
  static thread_local thread_state t;
  return t;
}

inline int nvidia_device_count() {
  auto& s = state();
  int n = s.nvidia_count.load(std::memory_order_acquire);
  if (n >= 0) return n;
  const device_ops* ops = s.cuda.load(std::memory_order_acquire);
  if (!ops) return 0;  // not cached: an nvcc TU may still register during static initialisation
  n = ops->device_count();
  s.nvidia_count.store(n, std::memory_order_release);
  return n;
}

inline const device_ops& cuda_ops() {
  // Only called once nvidia_device_count() > 0, which implies a registered table.
  return *state().cuda.load(std::memory_order_acquire);
}

/// The device type constructs run on now: the thread's choice, else ACC_DEVICE_TYPE, else
/// a GPU when there is one.
inline target current_target() {
  if (target t = this_thread().type; t != target::unset) return t;
  auto& s = state();
  if (!s.env_error.empty()) throw error(s.env_error);
  const bool gpu = nvidia_device_count() > 0;
  if (s.env_type == target::nvidia && !gpu) {
    std::call_once(s.fallback_warning, [] {
      std::fputs("acc: ACC_DEVICE_TYPE=nvidia but no usable NVIDIA GPU was found; running on the host\n",
                 stderr);
    });
    return target::host;
  }
  if (s.env_type != target::unset) return s.env_type;
  return gpu ? target::nvidia : target::host;
}

inline int current_nvidia_num() {
  if (int n = this_thread().nvidia_num; n >= 0) return n;
  return state().env_num;
}

/// The device that data actions and waits refer to now: the current GPU, or -1 when constructs
/// run on the host (whose present table keeps presence observable there, and whose constructs
/// are complete when they return).
inline int current_device() { return current_target() == target::nvidia ? current_nvidia_num() : -1; }

}  // namespace acc::detail
