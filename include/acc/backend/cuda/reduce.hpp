//! @file CUDA backend of parallel_reduce: a persistent grid folds the body's values per thread,
//! block_reduce (block_reduce.hpp) combines each block, and the last block to finish combines
//! the blocks (single_pass.hpp), or a second kernel does.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/block_reduce.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/single_pass.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <array>
#include <cstring>
#include <type_traits>
#include <utility>

namespace acc::detail::cuda {

// Each thread keeps `unroll` body values in flight (tuning.hpp), and the operator needs no
// identity: a thread starts from its first value, and only threads that have one take part in
// the block's reduction.

/// Flat iteration t -> body(i, j, k), in the counter type of the launch.
template <class T, class Count, class Index, std::size_t Rank, class Body>
struct reduce_input {
  Body body;
  std::array<Index, Rank> lo;
  Count n1, n2;

  __device__ T operator()(Count t) const {
    return call_at_flat<Index, Rank, Count>(lo, n1, n2, t, [&](auto... idx) -> T { return body(idx...); });
  }
};

/// A thread's value before it has one (block_reduce never reads it): T{}, or for a T without
/// a default constructor a copy of `init`.
template <class T>
__device__ T no_value_yet(const T& init) {
  if constexpr (std::is_default_constructible_v<T>) return T{};
  else return init;
}

/// The calling block: *out = op(init, partial[0] ... partial[count - 1]), written by thread 0.
/// Ends with a barrier, so the next call may reuse the block's scratch.
template <class T, class Op>
__device__ void fold_partials(const T* partial, int count, const Op& op, const T& init, T* out) {
  __shared__ alignas(T) unsigned char slots[32 * sizeof(T)];
  const int block = blockDim.x;
  T acc = no_value_yet(init);  // block_reduce reads only the first `count` threads'
  if (int i = threadIdx.x; i < count) {
    acc = partial[i];
    for (i += block; i < count; i += block) acc = op(acc, partial[i]);
  }
  acc = block_reduce(acc, op, count < block ? count : block, reinterpret_cast<T*>(slots));
  if (threadIdx.x == 0) *out = op(init, acc);
}

/// Block b writes the fold of its threads' values to partial[b]. The grid never has more
/// threads than iterations' blocks, so every block has at least one value. With a ticket
/// (single_pass.hpp) the last block to finish writes op(init, partials...) to *out; with a
/// null one reduce_partials does, in a second kernel.
template <int Unroll, class T, class Count, class Op, class Input>
__global__ void reduce_blocks(Input in, Count n, Op op, T* partial, unsigned* ticket, T init, T* out) {
  __shared__ alignas(T) unsigned char slots[32 * sizeof(T)];
  const Count block = blockDim.x, stride = Count(gridDim.x) * block;
  Count i = Count(blockIdx.x) * block + threadIdx.x;
  T acc = no_value_yet(init);  // block_reduce reads only the threads that have one of their own
  if (i < n) {
    acc = in(i);
    i += stride;
    for (; i + (Unroll - 1) * stride < n; i += Unroll * stride) {
      // All Unroll loads before the first combine.
      if constexpr (std::is_default_constructible_v<T>) {
        T v[Unroll];
#pragma unroll
        for (int u = 0; u < Unroll; ++u) v[u] = in(i + u * stride);
#pragma unroll
        for (int u = 0; u < Unroll; ++u) acc = op(acc, v[u]);
      } else {
        [&]<int... U>(std::integer_sequence<int, U...>) {
          const T v[] = {in(i + U * stride)...};
          ((acc = op(acc, v[U])), ...);
        }(std::make_integer_sequence<int, Unroll>{});
      }
    }
    for (; i < n; i += stride) acc = op(acc, in(i));
  }
  const Count first = Count(blockIdx.x) * block;
  const int valid = n - first >= block ? int(block) : int(n - first);
  acc = block_reduce(acc, op, valid, reinterpret_cast<T*>(slots));
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
  if (ticket && last_block_arrived(ticket)) {
    fold_partials(partial, int(gridDim.x), op, init, out);
    reset_ticket(ticket);
  }
}

template <class T, class Op>
__global__ void reduce_partials(const T* partial, int count, Op op, T init, T* out) {
  fold_partials(partial, count, op, init, out);
}

template <class Count, class Index, std::size_t Rank, class Op, class Body, class T>
T reduce_with(const index_space<Index, Rank>& s, std::uint64_t total, const launch_context& ctx, cudaStream_t stream,
              const Op& op, const Body& body, T init) {
  constexpr int unroll = reduce_policy::unroll<T>;
  using input = reduce_input<T, Count, Index, Rank, Body>;
  auto blocks_kernel = &reduce_blocks<unroll, T, Count, Op, input>;
  auto final_kernel = &reduce_partials<T, Op>;

  // A persistent grid: as many blocks as fit on the device at once, fewer for short loops
  // or when num_gangs says so; fixed for a given device, size and clauses, so results are the
  // same from run to run.
  const launch_config cfg = plan_persistent<reduce_policy>(blocks_kernel, total, ctx);
  const Count n1 = Rank > 1 ? Count(s.count[1]) : 1, n2 = Rank > 2 ? Count(s.count[2]) : 1;
  result_slot& out = result_slot_of(sizeof(T), ctx.site);
  T* result_d = static_cast<T*>(out.device());
  if (single_pass_reductions) {
    single_pass_scratch& scratch = single_pass_scratch_of(ctx.device, ctx.site);
    scratch.acquire(sizeof(T) * cfg.grid, stream, ctx.site);
    try {
      launch(blocks_kernel, cfg, 0, stream, ctx.site, input{body, s.lo, n1, n2}, Count(total), op,
             reinterpret_cast<T*>(scratch.partials()), scratch.ticket(), init, result_d);
    } catch (...) {
      scratch.done();  // nothing was queued
      throw;
    }
    ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), ctx.site);  // the caller gets a value
    scratch.done();
  } else {
    stream_buffer scratch(sizeof(T) * cfg.grid, ctx.device, stream, ctx.site);
    T* partial = static_cast<T*>(scratch.get());
    launch(blocks_kernel, cfg, 0, stream, ctx.site, input{body, s.lo, n1, n2}, Count(total), op, partial, nullptr,
           init, result_d);
    launch(final_kernel, {1u, unsigned(reduce_policy::block)}, 0, stream, ctx.site, partial, int(cfg.grid), op, init,
           result_d);
    scratch.release(ctx.site);
    ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), ctx.site);
  }
  T result = init;  // overwritten; T need not be default-constructible
  std::memcpy(&result, out.host(), sizeof(T));
  return result;
}

/// parallel_reduce on ctx.device (task.total > 0 iterations): op(init, values...).
template <class Index, std::size_t Rank, class Op, class Body, class T>
T run(backend, const reduce_task<index_space<Index, Rank>, Op, T>& task, const Body& body, const launch_context& ctx) {
  static_assert(device_reducible_v<T>, "acc: a long double reduction cannot run on a GPU (nvcc computes long double as double "
                "in device code, and its host layout differs); reduce in double");
  const cudaStream_t stream = begin_launch(ctx);
  return with_counter(task.total, [&](auto count) {
    return reduce_with<decltype(count)>(task.space, task.total, ctx, stream, task.op, body, task.init);
  });
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
