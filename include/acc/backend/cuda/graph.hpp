//! @file CUDA side of acc::graph: a queue's stream captured into a CUDA graph, instantiated
//! once, launched on the queue at every replay.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/runtime.hpp>

#include <cuda_runtime.h>

namespace acc::detail::cuda {

/// Starts capturing `queue`'s stream on `device`. Thread-local capture mode: other host
/// threads keep using the GPU as usual; this thread's own unsafe calls fail the capture.
ACC_DETAIL_CUDA_RUNTIME_FN void begin_capture(int device, int queue, const call_site& site);

/// Ends the capture begun by begin_capture. keep: returns the instantiated graph
/// (cudaGraphExec_t); else (the recording threw) discards what was captured, returns nullptr.
ACC_DETAIL_CUDA_RUNTIME_FN void* end_capture(int device, int queue, bool keep, const call_site& site);

/// Queues one run of the graph on `queue`; the host does not wait.
ACC_DETAIL_CUDA_RUNTIME_FN void launch_graph(int device, int queue, void* graph, const call_site& site);

/// Frees an instantiated graph; CUDA lets runs already queued finish first.
ACC_DETAIL_CUDA_RUNTIME_FN void destroy_graph(int device, void* graph) noexcept;

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
