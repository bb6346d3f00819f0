//! @file CUDA side of acc::graph: a queue's stream captured into a CUDA graph, instantiated
//! once, launched on the queue at every replay.
#pragma once

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/runtime.hpp>

#include <cuda_runtime.h>

namespace acc::detail::cuda {

/// Starts capturing `queue`'s stream on `device`. Thread-local capture mode: other host
/// threads keep using the GPU as usual; this thread's own unsafe calls fail the capture.
inline void begin_capture(int device, int queue, const call_site& site) {
  if (capturing.active) fail<bad_clause>(site, "acc::graph::record is already recording on this thread");
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, queue, site);
  ACC_DETAIL_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), site);
  capturing = {true, device, queue};
}

/// Ends the capture begun by begin_capture. keep: returns the instantiated graph
/// (cudaGraphExec_t); else (the recording threw) discards what was captured, returns nullptr.
inline void* end_capture(int device, int queue, bool keep, const call_site& site) {
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

/// Queues one run of the graph on `queue`; the host does not wait.
inline void launch_graph(int device, int queue, void* graph, const call_site& site) {
  if (capturing.active) fail_in_capture(site, "replaying a graph");
  use_device(device, site);
  ACC_DETAIL_CUDA_CHECK(cudaGraphLaunch(static_cast<cudaGraphExec_t>(graph), queue_stream(device, queue, site)), site);
}

/// Frees an instantiated graph; CUDA lets runs already queued finish first.
inline void destroy_graph(int device, void* graph) noexcept {
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || (current != device && cudaSetDevice(device) != cudaSuccess) ||
      cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(graph)) != cudaSuccess)
    (void)cudaGetLastError();
}

}  // namespace acc::detail::cuda
