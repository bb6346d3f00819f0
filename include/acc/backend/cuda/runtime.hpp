//! @file The CUDA side of the runtime: device count, async queues as streams, waits.
#pragma once

#include <acc/detail/header_open.hpp>

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
[[noreturn]] ACC_DETAIL_CUDA_RUNTIME_FN void fail_in_capture(const call_site& site, const std::string& what);

/// Any failure to count devices (no driver: error 35, no device: error 100, a broken
/// install) means "no GPU": the program then runs on the host, as OpenACC's host fallback.
ACC_DETAIL_CUDA_RUNTIME_FN int device_count() noexcept;

/// Makes `device` current for this thread; cheap when it already is.
ACC_DETAIL_CUDA_RUNTIME_FN void use_device(int device, const call_site& site);

/// A queue's stream, on the current device (queue_handle calls it under the queues' lock).
ACC_DETAIL_CUDA_RUNTIME_FN void* create_stream(const call_site& site);

/// The stream behind an OpenACC queue on `device` (current). The synchronous queue is the
/// per-thread default stream, so host threads do not serialise each other; every other queue
/// is a non-blocking stream of its own, created on first use, so queues never wait for one
/// another unless told to (wait_async).
ACC_DETAIL_CUDA_RUNTIME_FN cudaStream_t queue_stream(int device, int queue, const call_site& site);

/// `kernel`'s handle on the current device, for launch_kernel; nullptr where the driver's launch
/// is not available (then launch_kernel takes the runtime's).
ACC_DETAIL_CUDA_RUNTIME_FN cudaFunction_t kernel_function(const void* kernel) noexcept;

/// Launches `kernel` as cudaLaunchKernel does. Given its handle on the current device
/// (kernel_function), through the driver's cuLaunchKernel, which skips the runtime's lookup of
/// the kernel by its host stub: about 0.3 us a launch on an H100 (bench/results/h100-launch.txt).
/// Where the driver refuses (a host thread with no current context yet, say), the runtime
/// launches it, and its error is the one reported.
ACC_DETAIL_CUDA_RUNTIME_FN cudaError_t launch_kernel(const void* kernel, cudaFunction_t function, dim3 grid, dim3 block,
                                                     void** args, std::size_t shared, cudaStream_t stream) noexcept;

/// The stream of a queue that already exists, or nullptr: waiting on a queue that was never
/// used has nothing to wait for and must not create it.
ACC_DETAIL_CUDA_RUNTIME_FN cudaStream_t existing_queue(int device, int queue);

ACC_DETAIL_CUDA_RUNTIME_FN void wait(int device, int queue, const call_site& site);

ACC_DETAIL_CUDA_RUNTIME_FN void wait_all(int device, const call_site& site);

ACC_DETAIL_CUDA_RUNTIME_FN bool test(int device, int queue, const call_site& site);

ACC_DETAIL_CUDA_RUNTIME_FN bool test_all(int device, const call_site& site);

/// Queue `waiting` will not run further work until what is queued now on `waited` is done;
/// the host does not block (OpenACC `wait(waited) async(waiting)`).
ACC_DETAIL_CUDA_RUNTIME_FN void wait_async(int device, int waited, int waiting, const call_site& site);

/// Queue `waiting` will not run further work until what every other queue of `device` holds
/// now is done; the host does not block (OpenACC `wait async(waiting)`, acc_wait_all_async).
/// The synchronous queue has nothing pending: its work is complete when its calls return.
ACC_DETAIL_CUDA_RUNTIME_FN void wait_all_async(int device, int waiting, const call_site& site);

/// acc::init on `device`: its primary context and acc's memory pool are made now rather than
/// by the first construct.
ACC_DETAIL_CUDA_RUNTIME_FN void init_device(int device, const call_site& site);

/// acc::shutdown on `device`: everything queued completes, and the memory acc's pool keeps for
/// reuse goes back to the device. Queues and present data stay valid (acc never tears down
/// what a later construct may use); the device is simply idle and holds only live data.
ACC_DETAIL_CUDA_RUNTIME_FN void shutdown_device(int device, const call_site& site);

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
