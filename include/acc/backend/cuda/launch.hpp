//! @file Launch planning shared by the CUDA constructs: device and kernel limits, grid sizes.
#pragma once

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/per_device.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/clauses.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>

namespace acc::detail::cuda {

struct kernel_limits {
  int suggested_block;  // the occupancy calculator's choice, capped by the policy
  int max_block;        // above this the launch fails (registers per thread)
  std::size_t static_shared;  // __shared__ arrays of the kernel (loop_reduce's, CUB's)
};

/// Limits of one kernel on one device (current). One cache per kernel type: each construct's
/// kernel is its own template instantiation, so this static is per kernel.
template <class Policy, class... Params>
const kernel_limits& limits_of_kernel(void (*kernel)(Params...), int device, const call_site& site) {
  static per_device<kernel_limits> cache;
  return cache.get(device, [&] {
    cudaFuncAttributes attr{};
    ACC_DETAIL_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel), site);
    int min_grid = 0, block = 0;
    ACC_DETAIL_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, Policy::max_block), site);
    return kernel_limits{block, attr.maxThreadsPerBlock, attr.sharedSizeBytes};
  });
}

/// Blocks of `block` threads that fit on the whole device at once: a persistent grid.
template <class... Params>
int resident_blocks(void (*kernel)(Params...), int block, int device, const call_site& site) {
  struct counts {
    int per_sm, sm_count;
  };
  static per_device<counts> cache;  // per kernel, as limits_of_kernel
  const counts& c = cache.get(device, [&] {
    counts r{};
    ACC_DETAIL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.per_sm, kernel, block, 0), site);
    ACC_DETAIL_CUDA_CHECK(cudaDeviceGetAttribute(&r.sm_count, cudaDevAttrMultiProcessorCount, device), site);
    return r;
  });
  return std::max(1, c.per_sm) * c.sm_count;
}

struct launch_config {
  unsigned grid;
  unsigned block;    // threads in x (vector lanes)
  unsigned rows = 1; // threads in y (workers)
};

/// Threads per gang from vector_length x num_workers, else the kernel's suggestion; rejects
/// what this kernel cannot launch with a message naming both numbers.
inline unsigned plan_block(const launch_spec& s, const kernel_limits& k, int device, const call_site& site) {
  if (!s.vector_length && !s.num_workers) return static_cast<unsigned>(k.suggested_block);
  const long long v = s.vector_length ? s.vector_length : 1, w = s.num_workers ? s.num_workers : 1;
  if (v * w > k.max_block)
    fail<bad_clause>(site, "vector_length(" + std::to_string(v) + ") x num_workers(" + std::to_string(w) + ") = " +
                               std::to_string(v * w) + " threads per gang; device " + std::to_string(device) +
                               " runs at most " + std::to_string(k.max_block) + " for this kernel");
  return static_cast<unsigned>(v * w);
}

/// Gangs for `iterations` of a flat loop: one iteration per thread, fewer when num_gangs says
/// so or the grid would pass the hardware limit (threads then stride; tuning.hpp says why).
inline launch_config plan_loop(const launch_spec& s, const kernel_limits& k, std::uint64_t iterations, int device,
                               const call_site& site) {
  const unsigned block = plan_block(s, k, device, site);
  const std::uint64_t needed = (iterations + block - 1) / block;
  const std::uint64_t cap = s.num_gangs ? std::uint64_t(s.num_gangs) : std::uint64_t(0x7fffffff);
  return {static_cast<unsigned>(std::min(needed, cap)), block};
}

/// Launches kernel<<<cfg.grid, cfg.block, shared, stream>>>(args...). cudaLaunchKernel reports
/// a bad configuration (and any earlier sticky error) in its return value, which saves the
/// cudaGetLastError call that the <<<>>> syntax needs after every launch.
template <class... Params>
void launch(void (*kernel)(Params...), launch_config cfg, std::size_t shared, cudaStream_t stream,
            const call_site& site, std::type_identity_t<Params>... args) {
  void* argv[] = {static_cast<void*>(&args)...};
  ACC_DETAIL_CUDA_CHECK(cudaLaunchKernel(kernel, dim3(cfg.grid), dim3(cfg.block, cfg.rows), argv, shared, stream),
                        site);
}

/// A synchronous construct (no async clause) returns only when its kernel is done, and a
/// fault inside the kernel surfaces here, attributed to the construct.
inline void finish_launch(cudaStream_t stream, int queue, const call_site& site) {
  if (queue == queue_sync) ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
}

}  // namespace acc::detail::cuda
