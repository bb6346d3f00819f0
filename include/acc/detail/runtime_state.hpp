//! @file The documented runtime state (device type and number, async queues), in one place.
//! Declarations only: the state itself lives in detail/runtime-inl.hpp, compiled once.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/error.hpp>

#include <cstddef>
#include <string>

namespace acc::detail {

/// Where a construct runs. The public acc::device_type has OpenACC's wider vocabulary
/// (default, not_host, ...); the runtime only ever resolves to one of these.
enum class target : int { unset = -1, host = 0, nvidia = 1 };

/// What a transfer's host range is, as far as its caller knows: `unknown` lets the backend ask
/// (pageable memory is staged through pinned buffers), `page_locked` skips the question.
enum class host_memory : unsigned char { unknown, page_locked };

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
  // `host` says what the host range is when the caller knows (a range acc page-locked), which
  // saves the backend asking the driver on every transfer.
  void (*to_device)(int device, void* dst, const void* src, std::size_t bytes, int queue, host_memory host,
                    const call_site&);
  void (*to_host)(int device, void* dst, const void* src, std::size_t bytes, int queue, host_memory host,
                  const call_site&);
  // Page-locks a host range for full-speed DMA; false when it is small, already pinned, or refused.
  bool (*pin)(const void* host, std::size_t bytes) noexcept;
  void (*unpin)(const void* host) noexcept;
  void (*mem_info)(int device, std::size_t* free, std::size_t* total) noexcept;
  // The device address on `device` of the __device__ variable whose host shadow is `symbol`.
  void* (*symbol_address)(int device, const void* symbol, const call_site&);
  // Device -> device, on `queue` of the destination after what `queue` of the source holds.
  void (*peer_copy)(int to_device, void* dst, int from_device, const void* src, std::size_t bytes, int queue,
                    const call_site&);
  // acc::graph (acc/graph.hpp): capture a queue's work into a CUDA graph, run it, free it.
  void (*begin_capture)(int device, int queue, const call_site&);
  void* (*end_capture)(int device, int queue, bool keep, const call_site&);
  void (*launch_graph)(int device, int queue, void* graph, const call_site&);
  void (*destroy_graph)(int device, void* graph) noexcept;
  // Zero-fills device memory on `queue` (the `zero` modifier of create / copyout).
  void (*fill_zero)(int device, void* p, std::size_t bytes, int queue, const call_site&);
  // acc::malloc / acc::free: device memory the program owns, outside acc's pool, so that
  // freeing it gives it back to the device at once.
  void* (*device_malloc)(int device, std::size_t bytes, const call_site&);
  void (*device_free)(int device, void* p) noexcept;
  // Whether every queue of `device` is done (acc::async_test_all).
  bool (*test_all)(int device, const call_site&);
  // The device's name and the driver version, for acc::get_property_string.
  std::string (*device_name)(int device);
  std::string (*driver_version)();
  // acc::init: makes `device` ready (its context and acc's memory pool), so that the first
  // construct does not pay for it.
  void (*init_device)(int device, const call_site&);
  // acc::shutdown: completes everything queued on `device` and gives back the memory acc's
  // pool keeps for reuse.
  void (*shutdown_device)(int device, const call_site&);
  // acc::wait_all_async: queue `waiting` goes on once every other queue of `device` has done
  // what it holds now; the host does not block.
  void (*wait_all_async)(int device, int waiting, const call_site&);
};

struct capture_scope;  // detail/capture.hpp

/// OpenACC's queue ids: acc_async_noval and acc_async_sync (OpenACC 3.3 §3.2, openacc.h).
inline constexpr int queue_noval = -1;
inline constexpr int queue_sync = -2;
/// acc_async_default: acc::set_default_async(acc::async_default) restores the initial default queue.
inline constexpr int queue_default = -3;
/// The queue acc_async_noval names until acc::set_default_async changes it.
inline constexpr int initial_default_queue = 0;

/// acc_set_device_type / acc_set_device_num act per host thread (OpenACC 3.3 §2.3: the
/// current-device ICVs are per thread); unset values fall back to the environment.
struct thread_state {
  target type = target::unset;
  int nvidia_num = -1;
  int default_async = initial_default_queue;  // acc-default-async-var: the queue of `async` with no number
  capture_scope* capture = nullptr;  // set while a compute construct copies its body
};

ACC_DETAIL_PROGRAM_WIDE ACC_DETAIL_RUNTIME_FN thread_state& this_thread() noexcept;

/// The queue a queue id names: acc_async_noval is the thread's default async queue
/// (OpenACC 3.3 §2.16.1); every other id names itself.
ACC_DETAIL_RUNTIME_FN int resolved_queue(int queue) noexcept;

/// Installs the CUDA backend's table; the first one registered stays.
ACC_DETAIL_RUNTIME_FN void register_cuda_ops(const device_ops* ops) noexcept;

/// NVIDIA devices this program can use: 0 when no nvcc-compiled translation unit registered
/// the CUDA backend or there is no usable GPU. Counted once.
ACC_DETAIL_RUNTIME_FN int nvidia_device_count();

/// std::memcpy's signature: how a piece of a chunked_copy is copied (streaming stores into a
/// staging buffer, say).
using piece_copy_fn = void (*)(void* dst, const void* src, std::size_t bytes) noexcept;

/// The host half of a staged transfer: `bytes` from `src`, cut into chunks of `chunk` bytes
/// (the last one shorter), chunk k copied to `chunk_dst[k]` in pieces of at most `piece` bytes,
/// each by `copy`. As soon as all of chunk k is copied, and after chunk k - 1 was handed on,
/// `ready(context, k)` is called on the calling thread (it issues chunk k's DMA, say), so the
/// copy of later chunks overlaps what `ready` starts. `ready` may be null.
struct chunked_copy {
  /// The most chunks a job may have (the done counters live on the copying thread's stack).
  static constexpr std::size_t max_chunks = 64;

  char* const* chunk_dst = nullptr;
  const char* src = nullptr;
  std::size_t bytes = 0, chunk = 0, piece = 0;
  piece_copy_fn copy = nullptr;
  void (*ready)(void* context, std::size_t chunk) noexcept = nullptr;
  void* context = nullptr;

  std::size_t chunks() const noexcept { return chunk ? (bytes + chunk - 1) / chunk : 0; }
};

/// A chunked_copy over the program's OpenMP threads, registered by the first translation unit
/// compiled with OpenMP (backend/host/executor.hpp); false when it cannot run one (inside an
/// OpenMP region, fewer than 4 threads, another host thread's copy under way, or more than
/// chunked_copy::max_chunks chunks), and then it has copied nothing. Staged transfers use it in
/// place of their own copy team.
using openmp_copy_fn = bool (*)(const chunked_copy& job) noexcept;
ACC_DETAIL_RUNTIME_FN void register_openmp_copy(openmp_copy_fn f) noexcept;
ACC_DETAIL_RUNTIME_FN openmp_copy_fn openmp_copy() noexcept;

/// The registered CUDA operations; only called once nvidia_device_count() > 0.
ACC_DETAIL_RUNTIME_FN const device_ops& cuda_ops() noexcept;

/// The device type constructs run on now: the thread's choice, else ACC_DEVICE_TYPE, else
/// a GPU when there is one.
ACC_DETAIL_RUNTIME_FN target current_target();

/// The thread's NVIDIA device number, else ACC_DEVICE_NUM.
ACC_DETAIL_RUNTIME_FN int current_nvidia_num();

/// The device that data actions and waits refer to now: the current GPU, or -1 when constructs
/// run on the host (whose present table keeps presence observable there, and whose constructs
/// are complete when they return).
ACC_DETAIL_RUNTIME_FN int current_device();

/// The handle (a cudaStream_t) of queue `queue` on `device`, made by `create` on first use
/// and kept for the life of the process, as CUDA's own default streams are: destroying
/// streams from a static destructor races the CUDA runtime's own teardown.
ACC_DETAIL_RUNTIME_FN void* queue_handle(int device, int queue, void* (*create)(const call_site&),
                                         const call_site& site);

/// The handle of a queue that already exists, or nullptr.
ACC_DETAIL_RUNTIME_FN void* existing_queue_handle(int device, int queue);

/// Calls f(handle, context) for every queue of `device` that exists now, outside the queues' lock.
ACC_DETAIL_RUNTIME_FN void for_each_queue(int device, void (*f)(void* handle, void* context), void* context);

/// Runs `make(context)` once for slot `index` of `flags` (an array the caller owns, zero
/// before first use); concurrent callers of the same slot wait for the first. A `make` that
/// throws leaves the slot unset. Returns once the slot is set.
ACC_DETAIL_RUNTIME_FN void call_once_at(int* flags, int index, void (*make)(void* context), void* context);

/// Lets the host's other threads run while this one polls (acc::wait_any). Out of line so
/// that the public headers need not include <thread>, whose closure (<atomic>, <stop_token>,
/// <semaphore>, <chrono>, <ostream>) costs every nvcc translation unit about a second.
ACC_DETAIL_RUNTIME_FN void yield_thread() noexcept;

/// Whether call_once_at finished slot `index` of `flags` (an acquire load).
ACC_DETAIL_RUNTIME_FN bool done_at(const int* flags, int index) noexcept;

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
