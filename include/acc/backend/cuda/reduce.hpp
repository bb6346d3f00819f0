//! @file CUDA backend of parallel_reduce: a persistent grid folds the body's values per thread,
//! cub::BlockReduce combines each block, and one block combines the blocks.
#pragma once

#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/extent.hpp>

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace acc::detail::cuda {

// cub::DeviceReduce over a transform iterator was the first version; it reached only 0.88
// (double) and 0.75 (int) of cub::DeviceReduce::Sum on raw pointers (H100, 2^28), since CUB
// tunes that path for loads it can vectorise. Here each thread keeps `unroll` body values in
// flight instead (tuning.hpp), and the operator needs no identity: a thread starts from its
// first value, and only threads that have one take part in the block's reduction.

/// Flat iteration t -> body(i, j, k), in the counter type of the launch.
template <class T, class Count, class Index, std::size_t Rank, class Body>
struct reduce_input {
  Body body;
  Index lo;
  Count n1, n2;

  __device__ T operator()(Count t) const {
    return call_at_flat<Index, Rank, Count>(lo, n1, n2, t, [&](auto... idx) -> T { return body(idx...); });
  }
};

/// Block b writes the fold of its threads' values to partial[b]. The grid never has more
/// threads than iterations' blocks, so every block has at least one value.
template <int Block, int Unroll, class T, class Count, class Op, class Input>
__global__ void __launch_bounds__(Block) reduce_blocks(Input in, Count n, Op op, T* partial) {
  using block_reduce = cub::BlockReduce<T, Block>;
  __shared__ typename block_reduce::TempStorage temp;
  const Count stride = Count(gridDim.x) * Block;
  Count i = Count(blockIdx.x) * Block + threadIdx.x;
  T acc{};
  if (i < n) {
    acc = in(i);
    i += stride;
    for (; i + (Unroll - 1) * stride < n; i += Unroll * stride) {
      T v[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u) v[u] = in(i + u * stride);
#pragma unroll
      for (int u = 0; u < Unroll; ++u) acc = op(acc, v[u]);
    }
    for (; i < n; i += stride) acc = op(acc, in(i));
  }
  const Count first = Count(blockIdx.x) * Block;
  const int valid = n - first >= Count(Block) ? Block : int(n - first);
  acc = block_reduce(temp).Reduce(acc, op, valid);
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

/// The calling block: *out = op(init, partial[0] ... partial[count - 1]), written by thread 0.
/// Ends with a barrier, so the next call may reuse the block's scratch.
template <int Block, class T, class Op>
__device__ void fold_partials(const T* partial, int count, const Op& op, const T& init, T* out) {
  using block_reduce = cub::BlockReduce<T, Block>;
  __shared__ typename block_reduce::TempStorage temp;
  T acc{};
  if (int i = threadIdx.x; i < count) {
    acc = partial[i];
    for (i += Block; i < count; i += Block) acc = op(acc, partial[i]);
  }
  acc = block_reduce(temp).Reduce(acc, op, count < Block ? count : Block);
  if (threadIdx.x == 0) *out = op(init, acc);
  __syncthreads();
}

template <int Block, class T, class Op>
__global__ void __launch_bounds__(Block) reduce_partials(const T* partial, int count, Op op, T init, T* out) {
  fold_partials<Block>(partial, count, op, init, out);
}

template <class Count, class Index, std::size_t Rank, class Op, class Body, class T>
T reduce_with(const index_space<Index, Rank>& s, std::uint64_t total, int device, cudaStream_t stream,
              const Op& op, const Body& body, T init, const call_site& site) {
  constexpr int block = reduce_policy::block;
  constexpr int unroll = reduce_policy::unroll<T>;
  using input = reduce_input<T, Count, Index, Rank, Body>;
  auto blocks_kernel = &reduce_blocks<block, unroll, T, Count, Op, input>;
  auto final_kernel = &reduce_partials<block, T, Op>;

  // A persistent grid: as many blocks as fit on the device at once, fewer for short loops;
  // fixed for a given device and size, so results are the same from run to run.
  const std::uint64_t needed = (total + block - 1) / block;
  const int grid = static_cast<int>(std::min<std::uint64_t>(needed, resident_blocks(blocks_kernel, block, device, site)));

  const Count n1 = Rank > 1 ? Count(s.count[1]) : 1, n2 = Rank > 2 ? Count(s.count[2]) : 1;
  stream_buffer scratch(sizeof(T) * grid, device, stream, site);
  T* partial = static_cast<T*>(scratch.get());
  result_slot& out = results(sizeof(T), site);
  launch(blocks_kernel, {unsigned(grid), unsigned(block)}, 0, stream, site, input{body, s.lo[0], n1, n2},
         Count(total), op, partial);
  launch(final_kernel, {1u, unsigned(block)}, 0, stream, site, partial, grid, op, init, static_cast<T*>(out.device()));
  scratch.release(site);
  ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);  // the caller gets a value
  T result;
  std::memcpy(&result, out.host(), sizeof(T));
  return result;
}

/// Runs a parallel_reduce on `device` (total > 0 iterations) and returns op(init, values...).
/// The launch shape is the reduction's own (reduce_policy); num_gangs and vector_length do
/// not change it.
template <class Index, std::size_t Rank, class Op, class Body, class T>
T run_reduce(const index_space<Index, Rank>& s, std::uint64_t total, const launch_spec& spec, int device,
             const Op& op, const Body& body, T init, const call_site& site) {
  register_ops();
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, spec.queue, site);
  // 32-bit counters while every value they take fits (as in loop.hpp).
  if (total <= (std::uint64_t(1) << 31) - 1024)
    return reduce_with<std::uint32_t>(s, total, device, stream, op, body, init, site);
  return reduce_with<std::uint64_t>(s, total, device, stream, op, body, init, site);
}

}  // namespace acc::detail::cuda
