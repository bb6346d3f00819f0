//! @file Inside acc::parallel: the gang handle, loops at each level of parallelism, loop_reduce,
//! single and barrier (OpenACC 3.3 §2.9 `loop`, §2.5.1 parallel execution modes).
#pragma once

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <new>
#include <span>
#include <string>
#include <type_traits>

#if defined(ACC_DETAIL_CUDA)
#  include <cub/warp/warp_reduce.cuh>
#  include <cub/util_ptx.cuh>
#endif

namespace acc {

/// A level of parallelism a loop is partitioned over (OpenACC `gang`, `worker`, `vector`, their
/// combinations, and `seq`). On a GPU: gang = block, worker = threadIdx.y, vector = threadIdx.x.
template <bool Gang, bool Worker, bool Vector>
struct level_t {
  static constexpr bool gang = Gang, worker = Worker, vector = Vector;
};

inline constexpr level_t<true, false, false> gang{};
inline constexpr level_t<false, true, false> worker{};
inline constexpr level_t<false, false, true> vector{};
inline constexpr level_t<true, true, false> gang_worker{};
inline constexpr level_t<true, false, true> gang_vector{};
inline constexpr level_t<false, true, true> worker_vector{};
inline constexpr level_t<true, true, true> gang_worker_vector{};
inline constexpr level_t<false, false, false> seq{};

struct per_gang_t {};
struct per_worker_t {};
/// single(g, per_gang, f): f runs once per gang; single(g, per_worker, f): once per worker.
inline constexpr per_gang_t per_gang{};
inline constexpr per_worker_t per_worker{};

/// What a parallel region's body receives: where the calling thread is, and the gang's shared
/// memory. Each thread has its own copy; all of a gang's copies hand out the same shared
/// memory, because every thread makes the same calls (gang-redundant execution).
class gang_t {
public:
  ACC_DETAIL_HD int gang_num() const noexcept {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(blockIdx.x);
#else
    return gang_;
#endif
  }
  ACC_DETAIL_HD int num_gangs() const noexcept {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(gridDim.x);
#else
    return num_gangs_;
#endif
  }
  /// This thread's worker in the gang; 0 on the host, where one thread runs each gang.
  ACC_DETAIL_HD int worker_num() const noexcept {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(threadIdx.y);
#else
    return 0;
#endif
  }
  ACC_DETAIL_HD int num_workers() const noexcept { return num_workers_; }
  /// This thread's vector lane; lanes at or above vector_length() only pad a worker to whole
  /// warps and take no vector iterations. 0 on the host.
  ACC_DETAIL_HD int vector_lane() const noexcept {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(threadIdx.x);
#else
    return 0;
#endif
  }
  ACC_DETAIL_HD int vector_length() const noexcept { return vector_length_; }

  /// `count` elements of gang-shared memory (team memory): the same span for every thread of
  /// the gang. Size the region with acc::shared_bytes; asking for more is an error.
  template <class T>
  ACC_DETAIL_HD std::span<T> shared(std::size_t count) const {
    static_assert(std::is_trivially_destructible_v<T>, "acc::gang_t::shared: T must be trivially destructible");
    if (count == 0) return {};
    const std::size_t start = (shared_used_ + alignof(T) - 1) / alignof(T) * alignof(T);
    if (start + count * sizeof(T) > shared_bytes_) {
#if defined(__CUDA_ARCH__)
      printf("acc: gang shared memory exhausted: %llu bytes asked beyond %llu used of the %llu that acc::shared_bytes gave\n",
             (unsigned long long)(count * sizeof(T)), (unsigned long long)start, (unsigned long long)shared_bytes_);
      __trap();
#else
      throw bad_clause("acc::gang_t::shared: " + std::to_string(count * sizeof(T)) + " bytes asked beyond " +
                       std::to_string(start) + " used of the " + std::to_string(shared_bytes_) +
                       " that acc::shared_bytes gave the region");
#endif
    }
    shared_used_ = start + count * sizeof(T);
    return {reinterpret_cast<T*>(shared_ + start), count};
  }

  // Constructed by the backends only.
  ACC_DETAIL_HD gang_t(int gang, int num_gangs, int num_workers, int vector_length, unsigned char* shared,
                       std::size_t shared_bytes) noexcept
      : gang_(gang), num_gangs_(num_gangs), num_workers_(num_workers), vector_length_(vector_length),
        shared_(shared), shared_bytes_(shared_bytes) {}

  // How many worker-partitioned loops this thread is inside: vector loops then synchronise
  // per worker. Kept by acc::loop; not for users.
  mutable int worker_depth_ = 0;

private:
  int gang_, num_gangs_, num_workers_, vector_length_;
  unsigned char* shared_;
  std::size_t shared_bytes_;
  mutable std::size_t shared_used_ = 0;
};

namespace detail {

template <class L> struct is_level : std::false_type {};
template <bool G, bool W, bool V> struct is_level<level_t<G, W, V>> : std::true_type {};

#if defined(__CUDACC__)
// worker_barrier's state for workers of several warps: per worker, how many warps have
// arrived and how many times the barrier has opened. Zeroed by the region kernel.
static __shared__ unsigned worker_arrivals[32];
static __shared__ unsigned worker_openings[32];
#endif

/// Zeroes worker_barrier's counters; the region kernel calls it once before the body.
ACC_DETAIL_HD inline void init_worker_barriers() {
#if defined(__CUDA_ARCH__)
  if (threadIdx.y == 0 && threadIdx.x < 32) worker_arrivals[threadIdx.x] = worker_openings[threadIdx.x] = 0;
  __syncthreads();
#endif
}

/// Synchronises the threads of the caller's worker (its warps), or the whole gang.
///
/// Not a named barrier (bar.sync id, count): with an id held in a register the hardware
/// reserves all 16 barriers for every block that could execute it, which cut a region's
/// resident gangs to a quarter on an H100 (a vector loop_reduce ran at 0.41x a hand-written
/// kernel). One warp per worker: __syncwarp; one worker: __syncthreads; else lane 0 of each
/// warp counts in at shared memory and waits for the last one to open the barrier.
ACC_DETAIL_HD inline void worker_barrier([[maybe_unused]] const gang_t& g) {
#if defined(__CUDA_ARCH__)
  const unsigned warps = blockDim.x / 32;
  if (warps == 1) {
    __syncwarp();
  } else if (blockDim.y == 1) {
    __syncthreads();
  } else {
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
  }
#endif
}

ACC_DETAIL_HD inline void gang_barrier() {
#if defined(__CUDA_ARCH__)
  __syncthreads();
#endif
}

/// First flat iteration and stride of this thread for a loop at level L; `active` is false for
/// threads that take no iteration (padding lanes of vector loops, and workers other than 0 for
/// vector loops outside any worker loop, so their side effects happen once).
template <class L>
struct partition {
  std::uint64_t start, stride;
  bool active;
};

template <class L>
ACC_DETAIL_HD partition<L> partition_of(const gang_t& g) {
#if defined(__CUDA_ARCH__)
  std::uint64_t start = 0, stride = 1;
  bool active = true;
  if constexpr (L::gang) start = blockIdx.x, stride = gridDim.x;
  if constexpr (L::worker) start = start * blockDim.y + threadIdx.y, stride *= blockDim.y;
  else if constexpr (L::vector) active = g.worker_depth_ > 0 || threadIdx.y == 0;
  if constexpr (L::vector) {
    start = start * g.vector_length() + threadIdx.x, stride *= g.vector_length();
    active = active && threadIdx.x < unsigned(g.vector_length());
  }
  return {start, stride, active};
#else
  if constexpr (L::gang) return {std::uint64_t(g.gang_num()), std::uint64_t(g.num_gangs()), true};
  else return {0, 1, true};
#endif
}

template <class Extent, class Body>
constexpr bool check_gang_loop_args() {
  if constexpr (!extent_traits<Extent>::valid) {
    static_assert(dependent_false<Extent>,
                  "acc::loop: the extent must be an iteration count (an integer), acc::range(lo, hi) or "
                  "acc::collapse(n0, n1[, n2])");
    return false;
  } else if constexpr (!invocable_with_rank_v<Body, typename extent_traits<Extent>::index_type,
                                              extent_traits<Extent>::rank>) {
    static_assert(dependent_false<Extent>,
                  "acc::loop: body must take one index per loop of the extent, e.g. [&](int i) { ... }");
    return false;
  } else {
    return true;
  }
}

}  // namespace detail

/// A loop inside acc::parallel, partitioned over `level` (OpenACC 3.3 §2.9.2-2.9.4): gang
/// loops spread iterations over gangs, worker loops over the gang's workers, vector loops over
/// a worker's lanes; seq runs them all in every thread. Loops containing worker or vector end
/// with the barrier OpenACC implies, so their results are visible after the call.
/// - Call it from code every thread of the gang (worker loops) or of the worker (vector loops)
///   reaches: the barrier is collective.
/// - Code outside loops and the bodies of gang loops run redundantly in every thread: put side
///   effects in the innermost partitioned loop or in acc::single.
/// e.g. acc::loop(g, acc::gang, n, [&](int i) { acc::loop(g, acc::vector, m, [&](int j) { a(i, j) = 0; }); });
template <class Level, class Extent, class Body>
ACC_DETAIL_HD void loop(const gang_t& g, Level, const Extent& extent, const Body& body) {
  static_assert(detail::is_level<Level>::value,
                "acc::loop: the second argument must be a level: acc::gang, worker, vector, gang_worker, "
                "gang_vector, worker_vector, gang_worker_vector or seq");
  if constexpr (detail::check_gang_loop_args<Extent, Body>()) {
    const auto s = detail::to_space(extent);
    std::uint64_t total = 1;
    for (auto c : s.count) total *= c;
    const auto p = detail::partition_of<Level>(g);
    if constexpr (Level::worker) ++g.worker_depth_;
    if (p.active)
      for (std::uint64_t t = p.start; t < total; t += p.stride) detail::call_at(s, t, body);
    if constexpr (Level::worker) {
      --g.worker_depth_;
      detail::gang_barrier();
    } else if constexpr (Level::vector) {
      if (g.worker_depth_ > 0) detail::worker_barrier(g);
      else detail::gang_barrier();  // only worker 0 ran it; every worker may read its results
    }
  }
}

/// Reduces body(i...) over a loop at worker, vector or worker_vector level inside a gang and
/// returns the result to every thread of the gang (worker levels) or of the worker (vector).
/// Gang-level reductions across gangs are acc::parallel_reduce's. op needs an identity.
/// Deterministic: the combination order is fixed for a given configuration. op is taken by
/// value: nvcc lets device code copy acc::plus, not refer to it.
/// e.g. double row = acc::loop_reduce(g, acc::vector, n, acc::plus, [&](int j) { return a(i, j) * x[j]; });
template <class Level, class Extent, class Op, class Body>
ACC_DETAIL_HD auto loop_reduce(const gang_t& g, Level, const Extent& extent, Op op, const Body& body) {
  static_assert(detail::is_level<Level>::value && !Level::gang,
                "acc::loop_reduce: the level must be acc::worker, vector, worker_vector or seq; reduce across "
                "gangs with acc::parallel_reduce");
  using Index = typename detail::extent_traits<Extent>::index_type;
  using T = detail::reduce_value_t<Extent, Body>;
  static_assert(detail::has_identity_v<Op, T>,
                "acc::loop_reduce: the operator needs an identity (a member T identity() const)");
  const auto s = detail::to_space(extent);
  std::uint64_t total = 1;
  for (auto c : s.count) total *= c;
  T acc = detail::identity_of<T>(op);
#if defined(__CUDA_ARCH__)
  // Every worker reduces for itself (redundantly outside worker loops: bodies have no side
  // effects), so no thread waits for another worker.
  std::uint64_t start = 0, stride = 1;
  if constexpr (Level::worker) start = threadIdx.y, stride = blockDim.y;
  if constexpr (Level::vector) start = start * g.vector_length() + threadIdx.x, stride *= g.vector_length();
  const bool active = !Level::vector || threadIdx.x < unsigned(g.vector_length());
  if (active) {
    // Four values in flight before they are combined, in order: a worker reduction with one
    // load per warp is latency-bound (0.38x a hand-written kernel, whose int loop nvcc
    // unrolls, until this).
    const auto value = [&](std::uint64_t t) {
      T v = detail::identity_of<T>(op);
      detail::call_at(s, t, [&](auto... idx) { v = body(static_cast<Index>(idx)...); });
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
      typename cub::WarpReduce<T>::TempStorage unused;
      acc = cub::WarpReduce<T>(unused).Reduce(acc, op);
      acc = cub::ShuffleIndex<32>(acc, 0, 0xffffffffu);
    }
    if constexpr (Level::worker) {
      // Worker w's value (its lanes agree) or its warps' values, gathered gang-wide.
      if (lane == 0 && (Level::vector || threadIdx.x == 0)) part[Level::vector ? warp : threadIdx.y] = acc;
      detail::gang_barrier();
      const unsigned n = Level::vector ? blockDim.y * warps_per_worker : blockDim.y;
      T r = detail::identity_of<T>(op);
      for (unsigned k = 0; k < n; ++k) r = op(r, part[k]);
      detail::gang_barrier();  // part may be reused by the next loop_reduce
      acc = r;
    } else if (warps_per_worker > 1) {
      const unsigned first = threadIdx.y * warps_per_worker;
      if (lane == 0) part[warp] = acc;
      detail::worker_barrier(g);
      T r = detail::identity_of<T>(op);
      for (unsigned k = 0; k < warps_per_worker; ++k) r = op(r, part[first + k]);
      detail::worker_barrier(g);
      acc = r;
    }
  }
#else
  (void)g;
  // One thread runs the gang on the host: the whole loop, in order.
  for (std::uint64_t t = 0; t < total; ++t)
    detail::call_at(s, t, [&](auto... idx) { acc = op(acc, body(static_cast<Index>(idx)...)); });
#endif
  return acc;
}

/// Runs f once per gang (per_gang: worker 0, lane 0) or once per worker (per_worker: lane 0),
/// then synchronises the gang or the worker so that every thread sees f's effects. Call it from
/// code that every thread of the gang (or worker) reaches.
template <class Scope, class F>
ACC_DETAIL_HD void single(const gang_t& g, Scope, const F& f) {
  static_assert(std::is_same_v<Scope, per_gang_t> || std::is_same_v<Scope, per_worker_t>,
                "acc::single: the scope must be acc::per_gang or acc::per_worker");
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<Scope, per_gang_t>) {
    if (threadIdx.x == 0 && threadIdx.y == 0) f();
    detail::gang_barrier();
  } else {
    if (threadIdx.x == 0) f();
    detail::worker_barrier(g);
  }
#else
  (void)g;
  f();
#endif
}

/// Waits until every thread of the gang reaches it (shared memory written before is then
/// visible). From gang-redundant code only.
ACC_DETAIL_HD inline void barrier([[maybe_unused]] const gang_t& g) { detail::gang_barrier(); }

}  // namespace acc
