//! @file CUDA backend of parallel_loop: one grid-stride kernel per rank.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/launch.hpp>
#include <acc/detail/construct_entry.hpp>
#include <acc/extent.hpp>

#include <cstdint>
#include <cstring>

namespace acc::detail::cuda {

// Count is the type of the flat iteration counter: 32 bits whenever the loop is short enough
// (cheaper index arithmetic), else 64. Gang = block, vector = thread; the body sees Index.

// The counter stops before it would pass n rather than after, so it never wraps: a 32-bit
// counter serves every loop of a 32-bit index type, and such a loop has one kernel, not two.
template <class Count, class Index, class Body>
__global__ void loop_1d(Index lo, Count n, Body body) {
  const Count stride = Count(gridDim.x) * blockDim.x;
  Count t = Count(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= n) return;
  for (;;) {
    body(index_at(lo, t));
    if (n - t <= stride) break;
    t += stride;
  }
}

// Collapsed loops: one division per thread to find its first (i, j), then the grid stride is
// added as a mixed-radix number (q, r) = (stride / n1, stride % n1), so the loop itself
// divides nothing. Counters run from 0; the body gets lo + counter in each dimension.
template <class Count, class Index, class Body>
__global__ void loop_2d(Index lo0, Index lo1, Count n0, Count n1, Count q, Count r, Body body) {
  const Count t = Count(blockIdx.x) * blockDim.x + threadIdx.x;
  Count i = t / n1, j = t - i * n1;
  while (i < n0) {
    body(index_at(lo0, i), index_at(lo1, j));
    i += q;
    j += r;
    if (j >= n1) {
      j -= n1;
      ++i;
    }
  }
}

template <class Count, class Index, class Body>
__global__ void loop_3d(Index lo0, Index lo1, Index lo2, Count n0, Count n1, Count n2, Count q, Count r1, Count r2,
                        Body body) {
  const Count t = Count(blockIdx.x) * blockDim.x + threadIdx.x;
  const Count n12 = n1 * n2;
  Count i = t / n12, rest = t - i * n12;
  Count j = rest / n2, k = rest - j * n2;
  while (i < n0) {
    body(index_at(lo0, i), index_at(lo1, j), index_at(lo2, k));
    i += q;
    j += r1;
    k += r2;
    if (k >= n2) {
      k -= n2;
      ++j;
    }
    if (j >= n1) {
      j -= n1;
      ++i;
    }
  }
}

template <class Count, class Index, std::size_t Rank, class Body>
void launch_loop(const index_space<Index, Rank>& s, std::uint64_t total, const launch_spec& spec, int device,
                 cudaStream_t stream, const Body& body, const call_site& site) {
  if constexpr (Rank == 1) {
    auto kernel = &loop_1d<Count, Index, Body>;
    const kernel_limits& limits = limits_of_kernel<loop_policy>(kernel, device, site);
    auto cfg = plan_loop(spec, limits, total, device, site);
    // The grid's threads are counted in Count too.
    const std::uint64_t most = std::uint64_t(Count(-1)) / cfg.block;
    if (cfg.grid > most) cfg.grid = unsigned(most);
    launch(kernel, launch_handle(limits, reinterpret_cast<const void*>(kernel)), cfg, 0, stream, site, s.lo[0],
           Count(total), body);
  } else if constexpr (Rank == 2) {
    auto kernel = &loop_2d<Count, Index, Body>;
    const kernel_limits& limits = limits_of_kernel<loop_policy>(kernel, device, site);
    const auto cfg = plan_loop(spec, limits, total, device, site);
    const Count n1 = Count(s.count[1]), stride = Count(cfg.grid) * cfg.block;
    launch(kernel, launch_handle(limits, reinterpret_cast<const void*>(kernel)), cfg, 0, stream, site, s.lo[0], s.lo[1],
           Count(s.count[0]), n1, stride / n1, stride % n1, body);
  } else {
    auto kernel = &loop_3d<Count, Index, Body>;
    const kernel_limits& limits = limits_of_kernel<loop_policy>(kernel, device, site);
    const auto cfg = plan_loop(spec, limits, total, device, site);
    const Count n1 = Count(s.count[1]), n2 = Count(s.count[2]), n12 = n1 * n2;
    const Count stride = Count(cfg.grid) * cfg.block, rest = stride % n12;
    launch(kernel, launch_handle(limits, reinterpret_cast<const void*>(kernel)), cfg, 0, stream, site, s.lo[0], s.lo[1],
           s.lo[2], Count(s.count[0]), n1, n2, stride / n12, rest / n2, rest % n2, body);
  }
}

/// A rank-1 loop of a 32-bit index type, the common case, has one entry per index type rather
/// than per body: per body there remain its kernel (the address of the kernel's pointer, in
/// loop_kernel_of) and the kernel's limits cache. A kernel's address is not a constant
/// expression as a `const void*`, so the typed pointer is kept and read back as bytes.
struct loop_kernel_ref {
  const void* kernel_pointer;  // a `void (*)(Index, std::uint32_t, Body)` (loop_1d32_of)
  kernel_limits_cache* limits;
};

template <class Index, class Body>
inline constexpr void (*loop_1d32_of)(Index, std::uint32_t, Body) = &loop_1d<std::uint32_t, Index, Body>;
template <class Index, class Body>
inline kernel_limits_cache loop_1d32_limits;  // constant-initialised: no guard
template <class Index, class Body>
inline constexpr loop_kernel_ref loop_kernel_of{&loop_1d32_of<Index, Body>, &loop_1d32_limits<Index, Body>};

template <class Index>
void run_loop_1d32(const void* task, const void* body, const launch_context& ctx, void*, const void* code) {
  const auto& t = *static_cast<const loop_task<index_space<Index, 1>>*>(task);
  const auto& k = *static_cast<const loop_kernel_ref*>(code);
  // Every ABI nvcc targets represents all function pointers alike.
  void (*kernel)();
  static_assert(sizeof kernel == sizeof(void (*)(Index, std::uint32_t, int)));
  std::memcpy(&kernel, k.kernel_pointer, sizeof kernel);
  Index lo = t.space.lo[0];
  std::uint32_t n = static_cast<std::uint32_t>(t.total);
  void* args[] = {&lo, &n, const_cast<void*>(body)};
  launch_loop_1d32(reinterpret_cast<const void*>(kernel), *k.limits, t.total, args, ctx);
}

template <class Index, class Body>
  requires(sizeof(Index) <= 4)
constexpr backend_entry backend_entry_of(backend, const loop_task<index_space<Index, 1>>*, const Body*) {
  return {&run_loop_1d32<Index>, &loop_kernel_of<Index, Body>};
}

/// parallel_loop on ctx.device (task.total > 0).
template <class Index, std::size_t Rank, class Body>
void run(backend, const loop_task<index_space<Index, Rank>>& task, const Body& body, const launch_context& ctx) {
  if constexpr (Rank == 1 && sizeof(Index) <= 4) {
    // A 32-bit index never needs a 64-bit counter: the most iterations, 2^32 - 1, fit.
    run_loop_1d32<Index>(&task, &body, ctx, nullptr, &loop_kernel_of<Index, Body>);
  } else {
    const cudaStream_t stream = begin_launch(ctx);
    with_counter(task.total, [&](auto count) {
      launch_loop<decltype(count)>(task.space, task.total, ctx.spec, ctx.device, stream, body, ctx.site);
    });
    finish_launch(stream, ctx.spec.queue, ctx.site);
  }
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
