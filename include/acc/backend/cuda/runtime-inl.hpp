//! @file The CUDA side of the runtime (streams, device memory, staged transfers, graphs, the
//! errors of CUDA calls), declared in backend/cuda/{check,runtime,memory,graph}.hpp. The
//! device_ops table that every nvcc translation unit registers refers to all of it, so it is
//! compiled once, into acc_runtime by src/runtime_cuda.cpp, when the CMake targets say so
//! (ACC_SEPARATE_RUNTIME with ACC_RUNTIME_CUDA); otherwise it is inline in every translation
//! unit that nvcc compiles (config.hpp, ACC_DETAIL_CUDA_RUNTIME_INLINE). Plain host code over
//! the CUDA runtime API, so g++ compiles it as well as nvcc. Device memory and transfers are in
//! memory-inl.hpp, which this file includes at its end.
#pragma once

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/graph.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/per_device.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/copy_team.hpp>
#include <acc/detail/stream_copy.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <cuda.h>  // cuLaunchKernel's types (launch_kernel)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <string>

namespace acc::detail::cuda {

// ---- errors (check.hpp)

/// "acc/backend/cuda/loop.hpp:97" rather than the install prefix of whoever built it.
inline const char* library_path(const char* file) {
  const char* p = std::strstr(file, "acc/");
  return p ? p : file;
}

[[noreturn]] ACC_DETAIL_CUDA_RUNTIME_COLD ACC_DETAIL_CUDA_RUNTIME_FN void throw_cuda(cudaError_t e, const char* call, const call_site& site,
                                                                      const char* file, int line) {
  throw device_error(describe(site) + ": " + call + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) +
                     ") [" + library_path(file) + ":" + std::to_string(line) + "]");
}

// ---- devices, queues, waits (runtime.hpp)

[[noreturn]] ACC_DETAIL_CUDA_RUNTIME_FN void fail_in_capture(const call_site& site, const std::string& what) {
  fail<bad_clause>(site, what + " while acc::graph::record records queue " + std::to_string(capturing.queue) +
                             "; inside a recording, constructs must be async on that queue and their data "
                             "present (enter it with acc::data or acc::enter_data before recording)");
}

ACC_DETAIL_CUDA_RUNTIME_FN int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

ACC_DETAIL_CUDA_RUNTIME_FN void use_device(int device, const call_site& site) {
  // With one GPU it is always the current one, and cudaGetDevice costs a launch about 40 ns
  // (bench/results/h100-launch.txt).
  if (device == 0 && nvidia_device_count() == 1) return;
  int current = -1;
  ACC_DETAIL_CUDA_CHECK(cudaGetDevice(&current), site);
  if (current != device) ACC_DETAIL_CUDA_CHECK(cudaSetDevice(device), site);
}

ACC_DETAIL_CUDA_RUNTIME_FN void* create_stream(const call_site& site) {
  cudaStream_t stream = nullptr;
  ACC_DETAIL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), site);
  return stream;
}

ACC_DETAIL_CUDA_RUNTIME_FN cudaStream_t queue_stream(int device, int queue, const call_site& site) {
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

using driver_launch_fn = CUresult(CUDAAPI*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                            unsigned, CUstream, void**, void**);

/// cuLaunchKernel, found once through the runtime (so that nothing links libcuda itself);
/// nullptr where the driver does not give it.
inline driver_launch_fn driver_launch() noexcept {
  static const driver_launch_fn launch = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
#if CUDART_VERSION >= 12050
    const cudaError_t e = cudaGetDriverEntryPointByVersion("cuLaunchKernel", &fn, 12000, cudaEnableDefault, &found);
#else
    const cudaError_t e = cudaGetDriverEntryPoint("cuLaunchKernel", &fn, cudaEnableDefault, &found);
#endif
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();  // not the user's error: acc launches through the runtime instead
      return driver_launch_fn(nullptr);
    }
    return reinterpret_cast<driver_launch_fn>(fn);
  }();
  return launch;
}

ACC_DETAIL_CUDA_RUNTIME_FN cudaFunction_t kernel_function(const void* kernel) noexcept {
  cudaFunction_t function = nullptr;
  if (!driver_launch()) return nullptr;
  if (cudaGetFuncBySymbol(&function, kernel) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return function;
}

ACC_DETAIL_CUDA_RUNTIME_FN cudaError_t launch_kernel(const void* kernel, cudaFunction_t function, dim3 grid, dim3 block,
                                                     void** args, std::size_t shared, cudaStream_t stream) noexcept {
  if (function && driver_launch()(reinterpret_cast<CUfunction>(function), grid.x, grid.y, grid.z, block.x, block.y,
                                  block.z, static_cast<unsigned>(shared), stream, args, nullptr) == CUDA_SUCCESS)
    return cudaSuccess;
  return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

ACC_DETAIL_CUDA_RUNTIME_FN cudaStream_t existing_queue(int device, int queue) {
  if (queue == queue_sync) return cudaStreamPerThread;
  queue = resolved_queue(queue);
  return static_cast<cudaStream_t>(existing_queue_handle(device, queue));
}

ACC_DETAIL_CUDA_RUNTIME_FN void wait(int device, int queue, const call_site& site) {
  if (cudaStream_t st = existing_queue(device, queue)) {
    use_device(device, site);
    ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(st), site);
  }
}

ACC_DETAIL_CUDA_RUNTIME_FN void wait_all(int device, const call_site& site) {
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

ACC_DETAIL_CUDA_RUNTIME_FN bool test(int device, int queue, const call_site& site) {
  cudaStream_t st = existing_queue(device, queue);
  if (!st) return true;
  use_device(device, site);
  cudaError_t e = cudaStreamQuery(st);
  if (e == cudaErrorNotReady) return false;
  ACC_DETAIL_CUDA_CHECK(e, site);
  return true;
}

ACC_DETAIL_CUDA_RUNTIME_FN bool test_all(int device, const call_site& site) {
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

ACC_DETAIL_CUDA_RUNTIME_FN void wait_async(int device, int waited, int waiting, const call_site& site) {
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

ACC_DETAIL_CUDA_RUNTIME_FN void wait_all_async(int device, int waiting, const call_site& site) {
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

ACC_DETAIL_CUDA_RUNTIME_FN void init_device(int device, const call_site& site) {
  use_device(device, site);
  ACC_DETAIL_CUDA_CHECK(cudaFree(nullptr), site);
  (void)memory_pool(device, site);
}

ACC_DETAIL_CUDA_RUNTIME_FN void shutdown_device(int device, const call_site& site) {
  use_device(device, site);
  wait_all(device, site);
  ACC_DETAIL_CUDA_CHECK(cudaDeviceSynchronize(), site);
  ACC_DETAIL_CUDA_CHECK(cudaMemPoolTrimTo(memory_pool(device, site), 0), site);
}

// ---- graphs (graph.hpp)

ACC_DETAIL_CUDA_RUNTIME_FN void begin_capture(int device, int queue, const call_site& site) {
  if (capturing.active) fail<bad_clause>(site, "acc::graph::record is already recording on this thread");
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, queue, site);
  ACC_DETAIL_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), site);
  capturing = {true, device, queue};
}

ACC_DETAIL_CUDA_RUNTIME_FN void* end_capture(int device, int queue, bool keep, const call_site& site) {
  capturing = {};
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, queue, site);
  cudaGraph_t graph = nullptr;
  const cudaError_t e = cudaStreamEndCapture(stream, &graph);
  if (!keep || e != cudaSuccess) {
    if (graph) (void)cudaGraphDestroy(graph);
    (void)cudaGetLastError();
    if (!keep) return nullptr;
    ACC_DETAIL_CUDA_CHECK(e, site);  // a capture invalidated by a call CUDA does not allow in one
  }
  cudaGraphExec_t exec = nullptr;
  const cudaError_t i = cudaGraphInstantiate(&exec, graph, 0);
  (void)cudaGraphDestroy(graph);
  ACC_DETAIL_CUDA_CHECK(i, site);
  return exec;
}

ACC_DETAIL_CUDA_RUNTIME_FN void launch_graph(int device, int queue, void* graph, const call_site& site) {
  if (capturing.active) fail_in_capture(site, "replaying a graph");
  use_device(device, site);
  ACC_DETAIL_CUDA_CHECK(cudaGraphLaunch(static_cast<cudaGraphExec_t>(graph), queue_stream(device, queue, site)), site);
}

ACC_DETAIL_CUDA_RUNTIME_FN void destroy_graph(int device, void* graph) noexcept {
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || (current != device && cudaSetDevice(device) != cudaSuccess) ||
      cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(graph)) != cudaSuccess)
    (void)cudaGetLastError();
}

}  // namespace acc::detail::cuda

#include <acc/backend/cuda/memory-inl.hpp>
