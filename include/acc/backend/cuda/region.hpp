//! @file CUDA backend of acc::parallel: one block per gang, threadIdx.y = worker, threadIdx.x =
//! vector lane (each worker padded to whole warps).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/gang.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/reduction_vars.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/task.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>

namespace acc::detail::cuda {

// With reduction clauses every thread holds private copies (Vals), which gang-redundant code
// keeps equal across the gang; worker 0, lane 0 reports the gang's. Without, both are empty.
template <class Body, class Vals, class Outs>
__global__ void region_kernel(Body body, int vector_length, std::size_t shared_bytes, Vals priv, Outs partial) {
  extern __shared__ __align__(16) unsigned char gang_shared[];
  const gang_t g(static_cast<int>(blockIdx.x), static_cast<int>(gridDim.x), static_cast<int>(blockDim.y),
                 vector_length, gang_shared, shared_bytes);
  gang_ops::init_worker_barriers();
  std::apply([&](auto&... p) { body(g, p...); }, priv);
  if (threadIdx.x == 0 && threadIdx.y == 0)
    [&]<std::size_t... V>(std::index_sequence<V...>) {
      ((std::get<V>(partial)[blockIdx.x] = std::get<V>(priv)), ...);
    }(std::make_index_sequence<std::tuple_size_v<Vals>>{});
}

/// acc::parallel on ctx.device; with reduction clauses R..., waits for it and folds every
/// gang's private values into the variables.
template <class Body, class... R>
void run(backend, const region_task<std::tuple<R...>>& task, const Body& body, const launch_context& ctx) {
  const launch_spec& spec = ctx.spec;
  const int device = ctx.device;
  const call_site& site = ctx.site;
  const std::tuple<R...>& reds = task.reductions;
  const cudaStream_t stream = begin_launch(ctx);
  using vars = reduction_vars<R...>;
  auto kernel = &region_kernel<Body, typename vars::values_type, typename vars::pointers_type>;

  const int vector = spec.vector_length ? spec.vector_length
                                        : spec.num_workers ? region_policy::vector_with_workers
                                                           : region_policy::vector_length;
  const int workers = spec.num_workers ? spec.num_workers : 1;
  const int lanes = (vector + 31) / 32 * 32;  // a worker is whole warps
  const kernel_limits& k = limits_of_kernel<region_policy>(kernel, device, site);
  if (static_cast<long long>(lanes) * workers > k.max_block)
    fail<bad_clause>(site, "vector_length(" + std::to_string(vector) + ") (" + std::to_string(lanes) +
                               " lanes in whole warps) x num_workers(" + std::to_string(workers) + ") = " +
                               std::to_string(lanes * workers) + " threads per gang; device " +
                               std::to_string(device) + " runs at most " + std::to_string(k.max_block) +
                               " for this region");

  const std::size_t shared = spec.shared_bytes;
  // Saturating: shared_bytes(SIZE_MAX) must not wrap to a small size.
  const std::size_t gang_bytes = shared > SIZE_MAX - k.static_shared ? SIZE_MAX : shared + k.static_shared;
  if (gang_bytes > 48 * 1024) {
    static per_device<int> allowed;  // per kernel, as this function is per body
    const int optin = allow_shared(allowed, reinterpret_cast<const void*>(kernel), k.static_shared, device, site);
    if (gang_bytes > static_cast<std::size_t>(optin))
      fail<bad_clause>(site, "shared_bytes(" + std::to_string(shared) + ") and the region's own " +
                                 std::to_string(k.static_shared) + " bytes (loop_reduce) exceed the " +
                                 std::to_string(optin) + " bytes of shared memory a gang can have on device " +
                                 std::to_string(device));
  }
  int grid = spec.num_gangs;
  if (!grid) {
    // As many gangs as are resident at once; gang loops stride through the rest.
    static per_device<resident_shape> resident;
    grid = resident_gangs(resident, reinterpret_cast<const void*>(kernel), lanes * workers, shared, device, site);
  }
  const launch_config shape{unsigned(grid), unsigned(lanes), unsigned(workers)};
  // Above 48 KiB a gang's shared memory is an opt-in (allow_shared) of the runtime's launch.
  const cudaFunction_t handle =
      gang_bytes > 48 * 1024 ? nullptr : launch_handle(k, reinterpret_cast<const void*>(kernel));
  if constexpr (sizeof...(R) == 0) {
    launch(kernel, handle, shape, shared, stream, site, body, vector, shared, std::tuple<>{}, std::tuple<>{});
    finish_launch(stream, spec.queue, site);
  } else {
    vars scratch(grid, device, stream, site);
    launch(kernel, handle, shape, shared, stream, site, body, vector, shared, identities_of(reds), scratch.partials());
    scratch.finish(reds, site);
  }
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
