//! @file CUDA backend of the code inside acc::parallel (acc/gang.hpp): a gang is a block, its
//! workers are threadIdx.y, a worker's vector lanes threadIdx.x (each worker whole warps).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/warp.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/gang_handle.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>

namespace acc::detail::cuda {

// worker_barrier's state for workers of several warps, set up by the region kernel. sm_80 and
// later: one hardware arrive/wait barrier (mbarrier) per worker, which compute-sanitizer's
// racecheck and synccheck understand. Before: per worker, how many warps have arrived and how
// many times the barrier has opened.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#  define ACC_DETAIL_WORKER_MBARRIER 1
static __shared__ unsigned long long worker_mbarriers[32];
#else
static __shared__ unsigned worker_arrivals[32];
static __shared__ unsigned worker_openings[32];
#endif

/// First flat iteration and stride of this thread for a loop; `active` is false for threads
/// that take no iteration (padding lanes of vector loops, and workers other than 0 for vector
/// loops outside any worker loop, so their side effects happen once).
struct partition {
  std::uint64_t start, stride;
  bool active;
};

/// What acc/gang.hpp's functions call in nvcc's device pass (detail/gang_ops.hpp picks);
/// backend/host/gang.hpp has the same names for the host.
struct gang_ops {
  static __device__ int gang_num(const gang_t&) noexcept { return static_cast<int>(blockIdx.x); }
  static __device__ int num_gangs(const gang_t&) noexcept { return static_cast<int>(gridDim.x); }
  static __device__ int worker_num(const gang_t&) noexcept { return static_cast<int>(threadIdx.y); }
  static __device__ int vector_lane(const gang_t&) noexcept { return static_cast<int>(threadIdx.x); }

  /// gang_t::shared: the next `count` T of the gang's memory, aligned.
  template <class T>
  static __device__ std::span<T> shared(const gang_t& g, std::size_t count) {
    if (count == 0) return {};
    std::size_t& used = gang_access::shared_used(g);
    const std::size_t bytes = gang_access::shared_bytes(g);
    const std::size_t start = (used + alignof(T) - 1) / alignof(T) * alignof(T);
    if (start > bytes || count > (bytes - start) / sizeof(T)) {
      printf("acc: gang shared memory exhausted: %llu elements of %llu bytes asked beyond %llu used of the %llu that "
             "acc::shared_bytes gave (each g.shared call takes new memory until the region ends: take it once, "
             "before the gang loop)\n",
             (unsigned long long)count, (unsigned long long)sizeof(T), (unsigned long long)start,
             (unsigned long long)bytes);
      __trap();
    }
    used = start + count * sizeof(T);
    return {reinterpret_cast<T*>(gang_access::shared(g) + start), count};
  }

  /// g.shared<T>(n0, n1[, n2]) with extent `n` of dimension `d` negative or the whole too large.
  [[noreturn]] static __device__ void shared_extent_error(std::size_t d, long long n) {
    printf("acc: g.shared: extent %lld of dimension %llu %s\n", n, (unsigned long long)d,
           n < 0 ? "is negative" : "makes the view larger than any memory");
    __trap();
    __builtin_unreachable();
  }

  /// One mbarrier per worker, counting its lanes. Not inlined: inside the region kernel its
  /// fence and address arithmetic change how ptxas schedules the body of every region, also
  /// those whose workers are one warp and never use it (bench/results/h100-reduce.txt).
  static __device__ __noinline__ void init_worker_mbarriers() {
#if defined(ACC_DETAIL_WORKER_MBARRIER)
    if (threadIdx.y == 0 && threadIdx.x < blockDim.y) {
      const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&worker_mbarriers[threadIdx.x]));
      asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(blockDim.x) : "memory");
    }
#endif
  }

  /// Sets up worker_barrier's state; the region kernel calls it once before the body.
  static __device__ void init_worker_barriers() {
#if defined(ACC_DETAIL_WORKER_MBARRIER)
    if (blockDim.x > 32 && blockDim.y > 1) init_worker_mbarriers();
#else
    if (threadIdx.y == 0 && threadIdx.x < 32) worker_arrivals[threadIdx.x] = worker_openings[threadIdx.x] = 0;
#endif
    __syncthreads();
  }

  /// Synchronises the threads of the caller's worker (its warps).
  ///
  /// Not a named barrier (bar.sync id, count): with an id held in a register the hardware
  /// reserves all 16 barriers for every block that could execute it, which cuts the resident
  /// gangs. One warp per worker: __syncwarp; one worker: __syncthreads; else the worker's
  /// mbarrier (sm_80 on), or lane 0 of each warp counts in at shared memory and waits for the
  /// last one to open the barrier.
  static __device__ void worker_barrier(const gang_t&) {
    const unsigned warps = blockDim.x / 32;
    if (warps == 1) {
      __syncwarp();
    } else if (blockDim.y == 1) {
      __syncthreads();
    } else {
#if defined(ACC_DETAIL_WORKER_MBARRIER)
      // Every lane of the worker arrives (release) and waits for the phase to complete (acquire).
      const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&worker_mbarriers[threadIdx.y]));
      unsigned long long phase;
      asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(phase) : "r"(bar) : "memory");
      unsigned done = 0;
      do {
#  if __CUDA_ARCH__ >= 900
        asm volatile("{ .reg .pred p; mbarrier.try_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(bar), "l"(phase) : "memory");
#  else
        asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(bar), "l"(phase) : "memory");
#  endif
      } while (!done);
#else
      __syncwarp();
      if (threadIdx.x % 32 == 0) {
        volatile unsigned* opened = &worker_openings[threadIdx.y];
        const unsigned seen = *opened;  // read before arriving: the opening needs this warp
        __threadfence_block();          // this warp's writes before the others' reads
        if (atomicAdd(&worker_arrivals[threadIdx.y], 1u) == warps - 1) {
          worker_arrivals[threadIdx.y] = 0;
          __threadfence_block();
          atomicAdd(&worker_openings[threadIdx.y], 1u);
        } else {
          while (*opened == seen) __nanosleep(32);
        }
        __threadfence_block();
      }
      __syncwarp();
#endif
    }
  }

  static __device__ void gang_barrier() { __syncthreads(); }

  template <class L>
  static __device__ partition partition_of(const gang_t& g) {
    std::uint64_t start = 0, stride = 1;
    bool active = true;
    if constexpr (L::gang) start = blockIdx.x, stride = gridDim.x;
    if constexpr (L::worker) start = start * blockDim.y + threadIdx.y, stride *= blockDim.y;
    else if constexpr (L::vector) active = gang_access::worker_depth(g) > 0 || threadIdx.y == 0;
    if constexpr (L::vector) {
      start = start * g.vector_length() + threadIdx.x, stride *= g.vector_length();
      active = active && threadIdx.x < unsigned(g.vector_length());
    }
    return {start, stride, active};
  }

  /// The iteration space of a loop inside the region; a collapse whose indices its unsigned
  /// index type cannot hold traps, as the host backend throws.
  template <class Extent>
  static __device__ auto region_space(const Extent& extent) {
    if constexpr (requires { extent.negative_unsigned; })
      if (extent.negative_unsigned) {
        printf("acc: a loop starts below 0, but its index type is unsigned (the common type of the range's bounds "
               "or the collapse's extents, one of them unsigned); give the unsigned ones a signed type\n");
        __trap();
      }
    return to_space(extent);
  }

  template <class Level, class Extent, class Body>
  static __device__ void loop(const gang_t& g, const Extent& extent, const Body& body) {
    const auto s = region_space(extent);
    std::uint64_t total = 1;
    for (auto c : s.count) total *= c;
    const partition p = partition_of<Level>(g);
    int& depth = gang_access::worker_depth(g);
    if constexpr (Level::worker) ++depth;
    if (p.active)
      for (std::uint64_t t = p.start; t < total; t += p.stride) call_at(s, t, body);
    if constexpr (Level::worker) {
      --depth;
      gang_barrier();
    } else if constexpr (Level::vector) {
      if (depth > 0) worker_barrier(g);
      else gang_barrier();  // only worker 0 ran it; every worker may read its results
    }
  }

  template <class Level, class T, class Extent, class Op, class Body>
  static __device__ T loop_reduce(const gang_t& g, const Extent& extent, Op op, const Body& body) {
    static_assert(device_reducible_v<T>, "acc: a long double reduction cannot run on a GPU (nvcc computes long double as double "
                  "in device code, and its host layout differs); reduce in double");
    using Index = typename extent_traits<Extent>::index_type;
    const auto s = region_space(extent);
    std::uint64_t total = 1;
    for (auto c : s.count) total *= c;
    T acc = identity_of<T>(op);
    // Every worker reduces for itself (redundantly outside worker loops: bodies have no side
    // effects), so no thread waits for another worker.
    std::uint64_t start = 0, stride = 1;
    if constexpr (Level::worker) start = threadIdx.y, stride = blockDim.y;
    if constexpr (Level::vector) start = start * g.vector_length() + threadIdx.x, stride *= g.vector_length();
    const bool active = !Level::vector || threadIdx.x < unsigned(g.vector_length());
    if (active) {
      // Four values in flight before they are combined, in order: a worker reduction with one
      // load per warp is latency-bound.
      const auto value = [&](std::uint64_t t) {
        T v = identity_of<T>(op);
        call_at(s, t, [&](auto... idx) { v = body(static_cast<Index>(idx)...); });
        return v;
      };
      std::uint64_t t = start;
      for (; total >= 3 * stride && t < total - 3 * stride; t += 4 * stride) {
        const T v0 = value(t), v1 = value(t + stride), v2 = value(t + 2 * stride), v3 = value(t + 3 * stride);
        acc = op(op(op(op(acc, v0), v1), v2), v3);
      }
      for (; t < total; t += stride) acc = op(acc, value(t));
    }
    if constexpr (Level::vector || Level::worker) {
      // Lanes combine within each warp by shuffles, warps through shared memory.
      __shared__ alignas(T) unsigned char raw[32 * sizeof(T)];
      T* part = reinterpret_cast<T*>(raw);
      const unsigned warp = (threadIdx.y * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
      const unsigned warps_per_worker = blockDim.x / 32;
      if constexpr (Level::vector) {
        acc = warp_reduce_all(acc, op);
      }
      if constexpr (Level::worker) {
        // Worker w's value (its lanes agree) or its warps' values, gathered gang-wide.
        if (lane == 0 && (Level::vector || threadIdx.x == 0)) part[Level::vector ? warp : threadIdx.y] = acc;
        gang_barrier();
        const unsigned n = Level::vector ? blockDim.y * warps_per_worker : blockDim.y;
        T r = identity_of<T>(op);
        for (unsigned k = 0; k < n; ++k) r = op(r, part[k]);
        gang_barrier();  // part may be reused by the next loop_reduce
        acc = r;
      } else if (warps_per_worker > 1) {
        const unsigned first = threadIdx.y * warps_per_worker;
        if (lane == 0) part[warp] = acc;
        worker_barrier(g);
        T r = identity_of<T>(op);
        for (unsigned k = 0; k < warps_per_worker; ++k) r = op(r, part[first + k]);
        worker_barrier(g);
        acc = r;
      }
    }
    return acc;
  }

  /// Exclusive scan of one value per member of a loop_scan's group, in the group's order, and
  /// the group's total. Members: the lanes of the caller's worker (vector), the workers of the
  /// gang (worker: lane 0 of each holds the value), or every thread, worker-major (worker_vector).
  /// Padding lanes pass the identity. Collective over the group; `part` is 32 values of shared
  /// memory.
  template <class Level, class T, class Op>
  static __device__ T group_exclusive_scan(const gang_t& g, T v, Op op, T id, T* part, T& total) {
    const unsigned lane = threadIdx.x % 32, warp = (threadIdx.y * blockDim.x + threadIdx.x) / 32;
    const unsigned warps_per_worker = blockDim.x / 32;
    if constexpr (Level::vector) {
      T inclusive, exclusive;
      warp_scan(v, op, inclusive, exclusive);
      if (lane == 0) exclusive = id;
      const T warp_total = broadcast(inclusive, 31);
      if constexpr (!Level::worker) {
        if (warps_per_worker == 1) {
          total = warp_total;
          return exclusive;
        }
        const unsigned first = threadIdx.y * warps_per_worker;
        if (lane == 0) part[warp] = warp_total;
        worker_barrier(g);
        T before = id, all = id;
        for (unsigned k = first; k < first + warps_per_worker; ++k) {
          if (k == warp) before = all;
          all = op(all, part[k]);
        }
        worker_barrier(g);  // part may be reused
        total = all;
        return op(before, exclusive);
      } else {
        if (lane == 0) part[warp] = warp_total;
        gang_barrier();
        T before = id, all = id;
        const unsigned warps = blockDim.y * warps_per_worker;
        for (unsigned k = 0; k < warps; ++k) {
          if (k == warp) before = all;
          all = op(all, part[k]);
        }
        gang_barrier();
        total = all;
        return op(before, exclusive);
      }
    } else {
      if (threadIdx.x == 0) part[threadIdx.y] = v;
      gang_barrier();
      T before = id, all = id;
      for (unsigned k = 0; k < blockDim.y; ++k) {
        if (k == threadIdx.y) before = all;
        all = op(all, part[k]);
      }
      gang_barrier();
      total = all;
      return before;
    }
  }

  template <class Level, class V, class Extent, class Op, class Body>
  static __device__ V loop_scan(const gang_t& g, const Extent& extent, Op op, const Body& body) {
    const auto s = region_space(extent);
    const std::uint64_t total = s.count[0];
    const V id = identity_of<V>(op);
    __shared__ alignas(V) unsigned char raw[32 * sizeof(V)];
    V* part = reinterpret_cast<V*>(raw);
    // This thread's rank in the group and the group's size; padding lanes take no iterations.
    std::uint64_t rank = 0, size = 1;
    bool active = true;
    if constexpr (Level::worker) rank = threadIdx.y, size = blockDim.y;
    if constexpr (Level::vector) {
      rank = rank * g.vector_length() + threadIdx.x, size *= g.vector_length();
      active = threadIdx.x < unsigned(g.vector_length());
    } else {
      active = threadIdx.x == 0;  // worker loops: lane 0 calls the body, every lane gets the results
    }
    // A vector loop outside worker loops is every worker's (redundantly); only worker 0 acts.
    bool acts = active;
    if constexpr (Level::vector && !Level::worker)
      acts = active && (gang_access::worker_depth(g) > 0 || threadIdx.y == 0);
    V carry = id;
    for (std::uint64_t base = 0; base < total; base += size) {
      const std::uint64_t t = base + rank;
      const bool mine = active && t < total;
      V c = id;
      if (mine) body(index_at(s.lo[0], t), c, false);
      V round_total;
      const V before = group_exclusive_scan<Level>(g, c, op, id, part, round_total);
      if (mine && acts) {
        V p = op(carry, before);
        body(index_at(s.lo[0], t), p, true);
      }
      carry = op(carry, round_total);
    }
    if constexpr (Level::worker) gang_barrier();
    else if (gang_access::worker_depth(g) > 0) worker_barrier(g);
    else gang_barrier();
    return carry;
  }

  template <class F>
  static __device__ void single_per_gang(const gang_t&, const F& f) {
    if (threadIdx.x == 0 && threadIdx.y == 0) f();
    gang_barrier();
  }
  template <class F>
  static __device__ void single_per_worker(const gang_t& g, const F& f) {
    if (threadIdx.x == 0) f();
    worker_barrier(g);
  }
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
