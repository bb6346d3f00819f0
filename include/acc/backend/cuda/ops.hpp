//! @file The runtime operations the CUDA backend registers (detail::device_ops): how code that
//! g++ compiled, and the data environment, reach the GPU.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/graph.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/detail/runtime_state.hpp>

namespace acc::detail::cuda {

inline constexpr device_ops ops_table{&device_count,  &wait,        &wait_all,       &test,          &wait_async,
                                      &alloc,         &release,     &to_device,      &to_host,       &pin,
                                      &unpin,         &mem_info,    &symbol_address, &peer_copy,     &begin_capture,
                                      &end_capture,   &launch_graph, &destroy_graph, &fill_zero,     &device_malloc,
                                      &device_free,   &test_all,    &device_name,    &driver_version,
                                      &init_device,   &shutdown_device, &wait_all_async};

/// Registers the table before main() in any program with an nvcc-compiled acc TU;
/// register_ops() is also called on every CUDA path in case another TU's static
/// initialisation asks first.
inline void register_ops() noexcept { register_cuda_ops(&ops_table); }

inline const bool ops_registered = (register_ops(), true);

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
