//! @file The non-template host side of CUDA launches, declared in backend/cuda/launch.hpp:
//! kernel limits and occupancy queries, launch planning, and the whole launch of a 32-bit
//! parallel_loop. Every construct's instantiation calls these, and optimising them is most of
//! what a translation unit's first construct costs to compile (bench/results/compile.txt), so
//! they are compiled once with the rest of the CUDA runtime: into acc_runtime by
//! src/runtime_cuda.cpp where the CMake targets say so, otherwise inline where the outermost
//! acc header closes (detail/header_close.hpp, config.hpp's ACC_DETAIL_CUDA_RUNTIME_INLINE). Plain host code over the CUDA
//! runtime API, as runtime-inl.hpp.
#pragma once

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/per_device.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/task.hpp>
#include <acc/error.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace acc::detail::cuda {

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN kernel_limits query_limits(const void* kernel, int max_block,
                                                                          const call_site& site) {
  cudaFuncAttributes attr{};
  ACC_DETAIL_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel), site);
  int min_grid = 0, block = 0;
  ACC_DETAIL_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel, 0, max_block), site);
  return kernel_limits{block, attr.maxThreadsPerBlock, attr.sharedSizeBytes, kernel, kernel_function(kernel)};
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN const kernel_limits& cached_limits(kernel_limits_cache& cache,
                                                                                  const void* kernel, int max_block,
                                                                                  int device, const call_site& site) {
  return cache.get(device, [&] { return query_limits(kernel, max_block, site); });
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN resident_counts query_resident(const void* kernel, int block,
                                                                              int device, const call_site& site) {
  resident_counts r{block, 0, 0};
  ACC_DETAIL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.per_sm, kernel, block, 0), site);
  ACC_DETAIL_CUDA_CHECK(cudaDeviceGetAttribute(&r.sm_count, cudaDevAttrMultiProcessorCount, device), site);
  return r;
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN int cached_resident(per_device<resident_counts>& cache,
                                                                   const void* kernel, int block, int device,
                                                                   const call_site& site) {
  resident_counts c = cache.get(device, [&] { return query_resident(kernel, block, device, site); });
  if (c.block != block) c = query_resident(kernel, block, device, site);
  return (c.per_sm > 1 ? c.per_sm : 1) * c.sm_count;
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN int allow_shared(per_device<int>& cache, const void* kernel,
                                                                std::size_t static_shared, int device,
                                                                const call_site& site) {
  return cache.get(device, [&] {
    int optin = 0;
    ACC_DETAIL_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), site);
    if (static_cast<std::size_t>(optin) > static_shared)
      ACC_DETAIL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 optin - static_cast<int>(static_shared)),
                            site);
    return optin;
  });
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN int query_resident_gangs(const void* kernel, int block,
                                                                        std::size_t shared, int device,
                                                                        const call_site& site) {
  int per_sm = 0, sms = 0;
  ACC_DETAIL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, shared), site);
  ACC_DETAIL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), site);
  return (per_sm > 1 ? per_sm : 1) * sms;
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN int resident_gangs(per_device<resident_shape>& cache,
                                                                  const void* kernel, int block, std::size_t shared,
                                                                  int device, const call_site& site) {
  const resident_shape& first = cache.get(device, [&] {
    return resident_shape{block, shared, query_resident_gangs(kernel, block, shared, device, site)};
  });
  if (first.block == block && first.shared == shared) return first.gangs;
  return query_resident_gangs(kernel, block, shared, device, site);
}

ACC_DETAIL_CUDA_RUNTIME_FN bool fast_memory_per_sm(int device, const call_site& site) {
  static per_device<int> cache;
  return cache.get(device, [&] {
    int clock_khz = 0, bus_bits = 0, sms = 0;
    ACC_DETAIL_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device), site);
    ACC_DETAIL_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device), site);
    ACC_DETAIL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), site);
    // Two transfers a clock (DDR / HBM), as the CUDA samples' bandwidth figure.
    const double bytes_per_s = 2.0 * 1e3 * double(clock_khz) * double(bus_bits) / 8.0;
    return sms > 0 && bytes_per_s / sms >= 30e9 ? 1 : 0;
  }) != 0;
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN unsigned plan_block(const launch_spec& s, const kernel_limits& k,
                                                                   int device, const call_site& site) {
  if (!s.vector_length && !s.num_workers) return static_cast<unsigned>(k.suggested_block);
  const long long v = s.vector_length ? s.vector_length : 1, w = s.num_workers ? s.num_workers : 1;
  if (v * w > k.max_block)
    fail<bad_clause>(site, "vector_length(" + std::to_string(v) + ") x num_workers(" + std::to_string(w) + ") = " +
                               std::to_string(v * w) + " threads per gang; device " + std::to_string(device) +
                               " runs at most " + std::to_string(k.max_block) + " for this kernel");
  return static_cast<unsigned>(v * w);
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN launch_config plan_loop(const launch_spec& s, const kernel_limits& k,
                                                                       std::uint64_t iterations, int device,
                                                                       const call_site& site) {
  unsigned block = plan_block(s, k, device, site);
  // A loop shorter than the suggested block gets whole warps for its iterations only: the
  // threads that would find no iteration still cost the launch and the block's retirement.
  if (!s.vector_length && !s.num_workers && iterations < block)
    block = static_cast<unsigned>(iterations < 32 ? 32 : (iterations + 31) / 32 * 32);
  const std::uint64_t needed = (iterations + block - 1) / block;
  const std::uint64_t cap = s.num_gangs ? std::uint64_t(s.num_gangs) : std::uint64_t(0x7fffffff);
  return {static_cast<unsigned>(needed < cap ? needed : cap), block};
}

ACC_DETAIL_CUDA_RUNTIME_FN cudaStream_t begin_launch(const launch_context& ctx) {
  if (capturing.active && (ctx.device != capturing.device || ctx.spec.queue != capturing.queue))
    fail_in_capture(ctx.site, ctx.spec.queue == queue_sync ? std::string("a synchronous construct")
                                                           : "a construct on queue " + std::to_string(ctx.spec.queue));
  use_device(ctx.device, ctx.site);
  return queue_stream(ctx.device, ctx.spec.queue, ctx.site);
}

ACC_DETAIL_CUDA_RUNTIME_NOINLINE ACC_DETAIL_CUDA_RUNTIME_FN void launch_loop_1d32(const void* kernel, kernel_limits_cache& limits,
                                                                  std::uint64_t total, void** args,
                                                                  const launch_context& ctx) {
  const cudaStream_t stream = begin_launch(ctx);
  const kernel_limits& k = cached_limits(limits, kernel, loop_policy::max_block, ctx.device, ctx.site);
  launch_config cfg = plan_loop(ctx.spec, k, total, ctx.device, ctx.site);
  // The grid's threads are counted in 32 bits too.
  const std::uint64_t most = std::uint64_t(std::uint32_t(-1)) / cfg.block;
  if (cfg.grid > most) cfg.grid = unsigned(most);
  ACC_DETAIL_CUDA_CHECK(
      launch_kernel(kernel, launch_handle(k, kernel), dim3(cfg.grid), dim3(cfg.block, cfg.rows), args, 0, stream),
      ctx.site);
  finish_launch(stream, ctx.spec.queue, ctx.site);
}

}  // namespace acc::detail::cuda
