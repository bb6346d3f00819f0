//! @file The CUDA side of the runtime: device count, async queues as streams, waits.
#pragma once

#include <acc/backend/cuda/check.hpp>
#include <acc/detail/runtime_state.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace acc::detail::cuda {

/// The queue this host thread is recording into an acc::graph (stream capture), if any. While
/// it is set, work may only be queued on that queue, and only kernels: a transfer or an
/// allocation would be recorded too (and replayed), or would run at once outside the graph.
struct capture_state {
  bool active = false;
  int device = -1, queue = 0;
};
inline thread_local capture_state capturing;

/// Fails with a message naming the graph rule a construct broke while its thread records.
[[noreturn]] inline void fail_in_capture(const call_site& site, const std::string& what) {
  fail<bad_clause>(site, what + " while acc::graph::record records queue " + std::to_string(capturing.queue) +
                             "; inside a recording, constructs must be async on that queue and their data "
                             "present (enter it with acc::data or acc::enter_data before recording)");
}

/// Any failure to count devices (no driver: error 35, no device: error 100, a broken
/// install) means "no GPU": the program then runs on the host, as OpenACC's host fallback.
inline int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

/// Makes `device` current for this thread; cheap when it already is.
inline void use_device(int device, const call_site& site) {
  int current = -1;
  ACC_DETAIL_CUDA_CHECK(cudaGetDevice(&current), site);
  if (current != device) ACC_DETAIL_CUDA_CHECK(cudaSetDevice(device), site);
}

/// A queue's stream, on the current device (queue_handle calls it under the queues' lock).
inline void* create_stream(const call_site& site) {
  cudaStream_t stream = nullptr;
  ACC_DETAIL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), site);
  return stream;
}

/// The stream behind an OpenACC queue on `device` (current). The synchronous queue is the
/// per-thread default stream, so host threads do not serialise each other; every other queue
/// is a non-blocking stream of its own, created on first use, so queues never wait for one
/// another unless told to (wait_async).
inline cudaStream_t queue_stream(int device, int queue, const call_site& site) {
  if (queue == queue_sync) return cudaStreamPerThread;
  queue = resolved_queue(queue);
  // Streams are never destroyed, so a thread may remember the last one it looked up; a
  // stream of async launches then skips the lock and the map (bench/launch).
  struct last_queue {
    int device = -1, queue = 0;
    cudaStream_t stream = nullptr;
  };
  static thread_local last_queue last;
  if (last.device == device && last.queue == queue) return last.stream;
  void* stream = queue_handle(device, queue, &create_stream, site);
  last = {device, queue, static_cast<cudaStream_t>(stream)};
  return last.stream;
}

/// The stream of a queue that already exists, or nullptr: waiting on a queue that was never
/// used has nothing to wait for and must not create it.
inline cudaStream_t existing_queue(int device, int queue) {
  if (queue == queue_sync) return cudaStreamPerThread;
  queue = resolved_queue(queue);
  return static_cast<cudaStream_t>(existing_queue_handle(device, queue));
}

inline void wait(int device, int queue, const call_site& site) {
  if (cudaStream_t st = existing_queue(device, queue)) {
    use_device(device, site);
    ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(st), site);
  }
}

inline void wait_all(int device, const call_site& site) {
  use_device(device, site);
  cudaError_t first = cudaSuccess;  // the first failure, reported once the lock is released
  for_each_queue(
      device,
      [](void* stream, void* context) {
        const cudaError_t e = cudaStreamSynchronize(static_cast<cudaStream_t>(stream));
        auto& f = *static_cast<cudaError_t*>(context);
        if (f == cudaSuccess) f = e;
      },
      &first);
  ACC_DETAIL_CUDA_CHECK(first, site);
}

inline bool test(int device, int queue, const call_site& site) {
  cudaStream_t st = existing_queue(device, queue);
  if (!st) return true;
  use_device(device, site);
  cudaError_t e = cudaStreamQuery(st);
  if (e == cudaErrorNotReady) return false;
  ACC_DETAIL_CUDA_CHECK(e, site);
  return true;
}

inline bool test_all(int device, const call_site& site) {
  use_device(device, site);
  struct result {
    bool done = true;
    cudaError_t error = cudaSuccess;
  } r;
  for_each_queue(
      device,
      [](void* stream, void* context) {
        auto& x = *static_cast<result*>(context);
        const cudaError_t e = cudaStreamQuery(static_cast<cudaStream_t>(stream));
        if (e == cudaErrorNotReady) x.done = false;
        else if (e != cudaSuccess && x.error == cudaSuccess) x.error = e;
      },
      &r);
  (void)cudaGetLastError();
  ACC_DETAIL_CUDA_CHECK(r.error, site);
  return r.done;
}

/// Queue `waiting` will not run further work until what is queued now on `waited` is done;
/// the host does not block (OpenACC `wait(waited) async(waiting)`).
inline void wait_async(int device, int waited, int waiting, const call_site& site) {
  cudaStream_t from = existing_queue(device, waited);
  if (!from || waited == waiting) return;
  use_device(device, site);
  cudaStream_t to = queue_stream(device, waiting, site);
  cudaEvent_t done = nullptr;
  ACC_DETAIL_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), site);
  cudaError_t e = cudaEventRecord(done, from);
  if (e == cudaSuccess) e = cudaStreamWaitEvent(to, done, 0);
  // Destroying right away is allowed: CUDA releases the event once the wait has consumed it.
  (void)cudaEventDestroy(done);
  ACC_DETAIL_CUDA_CHECK(e, site);
}

/// Queue `waiting` will not run further work until what every other queue of `device` holds
/// now is done; the host does not block (OpenACC `wait async(waiting)`, acc_wait_all_async).
/// The synchronous queue has nothing pending: its work is complete when its calls return.
inline void wait_all_async(int device, int waiting, const call_site& site) {
  use_device(device, site);
  struct context {
    cudaStream_t to;
    cudaError_t error = cudaSuccess;
  } c{queue_stream(device, waiting, site)};
  for_each_queue(
      device,
      [](void* stream, void* p) {
        auto& x = *static_cast<context*>(p);
        auto from = static_cast<cudaStream_t>(stream);
        if (from == x.to || x.error != cudaSuccess) return;
        cudaEvent_t done = nullptr;
        cudaError_t e = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
        if (e == cudaSuccess) {
          e = cudaEventRecord(done, from);
          if (e == cudaSuccess) e = cudaStreamWaitEvent(x.to, done, 0);
          (void)cudaEventDestroy(done);
        }
        x.error = e;
      },
      &c);
  ACC_DETAIL_CUDA_CHECK(c.error, site);
}

}  // namespace acc::detail::cuda
