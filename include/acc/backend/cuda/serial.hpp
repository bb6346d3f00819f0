//! @file CUDA backend of acc::serial: one block of one thread.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/launch.hpp>
#include <acc/detail/task.hpp>

namespace acc::detail::cuda {

template <class Body>
__global__ void serial_kernel(Body body) {
  body();
}

/// serial on ctx.device: a grid of one thread, on the queue's stream.
template <class Body>
void run(backend, const serial_task&, const Body& body, const launch_context& ctx) {
  const cudaStream_t stream = begin_launch(ctx);
  launch(&serial_kernel<Body>, launch_config{1u, 1u}, 0, stream, ctx.site, body);
  finish_launch(stream, ctx.spec.queue, ctx.site);
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
