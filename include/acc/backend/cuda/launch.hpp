//! @file Launch planning shared by the CUDA constructs: device and kernel limits, grid sizes.
//! Its functions that are not templates are defined in launch-inl.hpp, compiled once.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/per_device.hpp>
#include <acc/backend/cuda/ops.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/backend/cuda/backend.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/task.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

namespace acc::detail::cuda {

struct kernel_limits {
  int suggested_block;  // the occupancy calculator's choice, capped by the policy
  int max_block;        // above this the launch fails (registers per thread)
  std::size_t static_shared;  // __shared__ arrays of the kernel (loop_reduce's, the scans')
  const void* kernel;         // the kernel these are of (a cache is per policy and signature)
  cudaFunction_t function;    // its handle on the device, for launch_kernel (nullptr: the runtime's launch)
};

/// The handle to launch `kernel` with, from its limits: limits_of_kernel's cache is per policy
/// and parameter list, so two kernels of one signature could share it; only its own kernel
/// gets the handle.
inline cudaFunction_t launch_handle(const kernel_limits& k, const void* kernel) noexcept {
  return k.kernel == kernel ? k.function : nullptr;
}

/// The occupancy queries of one kernel on one device (current). Not a template: every
/// kernel's host code is then only a static cache and a call (bench/compile).
ACC_DETAIL_CUDA_RUNTIME_FN kernel_limits query_limits(const void* kernel, int max_block, const call_site& site);

/// Per kernel: its limits on each device, computed on first use.
using kernel_limits_cache = per_device<kernel_limits>;

ACC_DETAIL_CUDA_RUNTIME_FN const kernel_limits& cached_limits(kernel_limits_cache& cache, const void* kernel,
                                                              int max_block, int device, const call_site& site);

/// Limits of one kernel on one device (current). One cache per kernel type: each construct's
/// kernel is its own template instantiation, so this static is per kernel.
template <class Policy, class... Params>
const kernel_limits& limits_of_kernel(void (*kernel)(Params...), int device, const call_site& site) {
  static kernel_limits_cache cache;  // constant-initialised: no guard
  return cached_limits(cache, reinterpret_cast<const void*>(kernel), Policy::max_block, device, site);
}

/// Blocks that fit on one SM and the SM count, for a kernel and a block size.
struct resident_counts {
  int block, per_sm, sm_count;
};

ACC_DETAIL_CUDA_RUNTIME_FN resident_counts query_resident(const void* kernel, int block, int device,
                                                          const call_site& site);

ACC_DETAIL_CUDA_RUNTIME_FN int cached_resident(per_device<resident_counts>& cache, const void* kernel, int block,
                                               int device, const call_site& site);

/// Blocks of `block` threads that fit on the whole device at once: a persistent grid. Cached
/// per kernel and device for the first block size asked; other sizes (clauses that set the
/// block) ask the occupancy calculator each time.
template <class... Params>
int resident_blocks(void (*kernel)(Params...), int block, int device, const call_site& site) {
  static per_device<resident_counts> cache;  // per kernel, as limits_of_kernel
  return cached_resident(cache, reinterpret_cast<const void*>(kernel), block, device, site);
}

/// The shared memory a gang of this kernel may have on `device` (the opt-in limit), with the
/// kernel allowed all of it beside its static arrays: set once per kernel and device, not per
/// launch (cudaFuncSetAttribute is a driver call), and never lowered, so concurrent launches
/// of different sizes cannot undo each other's setting. The attribute is a limit only: each
/// launch still reserves what it asks.
ACC_DETAIL_CUDA_RUNTIME_FN int allow_shared(per_device<int>& cache, const void* kernel, std::size_t static_shared,
                                            int device, const call_site& site);

/// Gangs of `block` threads with `shared` bytes each that are resident on `device` at once.
/// Cached per kernel and device for the first shape asked; another shape asks again.
struct resident_shape {
  int block = 0;
  std::size_t shared = 0;
  int gangs = 0;
};

ACC_DETAIL_CUDA_RUNTIME_FN int query_resident_gangs(const void* kernel, int block, std::size_t shared, int device,
                                                    const call_site& site);

ACC_DETAIL_CUDA_RUNTIME_FN int resident_gangs(per_device<resident_shape>& cache, const void* kernel, int block,
                                              std::size_t shared, int device, const call_site& site);

/// Whether `device`'s peak memory bandwidth per SM is at least 30 GB/s (an H200: 36, an H100
/// SXM: 25), from its memory clock and bus width; cached per device. Tile shapes that suit only
/// GPUs of one kind of memory read it (scan_policy's narrow tiles).
ACC_DETAIL_CUDA_RUNTIME_FN bool fast_memory_per_sm(int device, const call_site& site);

struct launch_config {
  unsigned grid;
  unsigned block;    // threads in x (vector lanes)
  unsigned rows = 1; // threads in y (workers)
};

/// Threads per gang from vector_length x num_workers, else the kernel's suggestion; rejects
/// what this kernel cannot launch with a message naming both numbers.
ACC_DETAIL_CUDA_RUNTIME_FN unsigned plan_block(const launch_spec& s, const kernel_limits& k, int device,
                                               const call_site& site);

/// Gangs for `iterations` of a flat loop: one iteration per thread, fewer when num_gangs says
/// so or the grid would pass the hardware limit (threads then stride; tuning.hpp says why).
ACC_DETAIL_CUDA_RUNTIME_FN launch_config plan_loop(const launch_spec& s, const kernel_limits& k,
                                                   std::uint64_t iterations, int device, const call_site& site);

/// A persistent grid for a kernel that reduces per block: blocks of num_workers x vector_length
/// threads rounded up to whole warps (the block reduction works on whole warps), else
/// Policy::block; as many blocks as are resident at once, at most one per `block` iterations
/// and at most num_gangs. The same limits as plan_block.
template <class Policy, class... Params>
launch_config plan_persistent(void (*kernel)(Params...), std::uint64_t iterations, const launch_context& ctx) {
  const launch_spec& s = ctx.spec;
  unsigned block = Policy::block;
  if (s.vector_length || s.num_workers) {
    const kernel_limits& k = limits_of_kernel<Policy>(kernel, ctx.device, ctx.site);
    block = (plan_block(s, k, ctx.device, ctx.site) + 31) / 32 * 32;
    if (block > unsigned(k.max_block))
      fail<bad_clause>(ctx.site, "vector_length x num_workers rounded up to whole warps is " + std::to_string(block) +
                                     " threads per gang; device " + std::to_string(ctx.device) + " runs at most " +
                                     std::to_string(k.max_block) + " for this kernel");
  }
  std::uint64_t grid = (iterations + block - 1) / block;
  const std::uint64_t resident = std::uint64_t(resident_blocks(kernel, int(block), ctx.device, ctx.site));
  if (grid > resident) grid = resident;
  if (s.num_gangs && grid > std::uint64_t(s.num_gangs)) grid = std::uint64_t(s.num_gangs);
  return {static_cast<unsigned>(grid), block};
}

/// Launches kernel<<<cfg.grid, cfg.block, shared, stream>>>(args...). cudaLaunchKernel reports
/// a bad configuration (and any earlier sticky error) in its return value, which saves the
/// cudaGetLastError call that the <<<>>> syntax needs after every launch.
/// The arguments are taken by reference: cudaLaunchKernel copies each parameter's bytes, so a
/// body (a closure holding arrays, whose copies count references and report captures) is not
/// copied once more on the host for every launch.
template <class... Params>
void launch(void (*kernel)(Params...), launch_config cfg, std::size_t shared, cudaStream_t stream,
            const call_site& site, const std::type_identity_t<Params>&... args) {
  void* argv[] = {const_cast<void*>(static_cast<const void*>(&args))...};
  ACC_DETAIL_CUDA_CHECK(cudaLaunchKernel(kernel, dim3(cfg.grid), dim3(cfg.block, cfg.rows), argv, shared, stream),
                        site);
}

/// The same through the driver's launch, given the kernel's handle (launch_handle; nullptr:
/// the runtime's launch).
template <class... Params>
void launch(void (*kernel)(Params...), cudaFunction_t handle, launch_config cfg, std::size_t shared,
            cudaStream_t stream, const call_site& site, const std::type_identity_t<Params>&... args) {
  void* argv[] = {const_cast<void*>(static_cast<const void*>(&args))...};
  ACC_DETAIL_CUDA_CHECK(launch_kernel(reinterpret_cast<const void*>(kernel), handle, dim3(cfg.grid),
                                      dim3(cfg.block, cfg.rows), argv, shared, stream),
                        site);
}

/// What every CUDA entry does first: the device current, and the queue's stream. (The runtime
/// table is registered by then: the dispatch places a construct on a GPU only once it is.)
ACC_DETAIL_CUDA_RUNTIME_FN cudaStream_t begin_launch(const launch_context& ctx);

/// Calls f(Count{}) with the flat iteration counter type for `total` iterations: 32 bits
/// whenever every value it takes, up to twice the trip count plus a block, stays below 2^32
/// (cheaper index arithmetic, and 32-bit division on a GPU is much cheaper), else 64. Grids
/// never exceed the trip count, so 2^31 - 1024 is safe.
template <class F>
decltype(auto) with_counter(std::uint64_t total, F&& f) {
  if (total <= (std::uint64_t(1) << 31) - 1024) return f(std::uint32_t{});
  return f(std::uint64_t{});
}

/// A synchronous construct (no async clause) returns only when its kernel is done, and a
/// fault inside the kernel surfaces here, attributed to the construct.
inline void finish_launch(cudaStream_t stream, int queue, const call_site& site) {
  if (queue == queue_sync) ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
}

/// A loop_1d kernel of a 32-bit counter on ctx.device, from start to finish: not a template,
/// so it is compiled once; per body only the kernel, its limits cache and the argument list
/// remain. `args`: the kernel's (lo, n, body).
ACC_DETAIL_CUDA_RUNTIME_FN void launch_loop_1d32(const void* kernel, kernel_limits_cache& limits, std::uint64_t total,
                                                 void** args, const launch_context& ctx);

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
