//! @file CUDA backend of parallel_loop with reduction clauses: a persistent grid where each
//! thread keeps private copies and cub::BlockReduce combines each block's (reduction_vars.hpp
//! does the rest).
#pragma once

#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/reduction_vars.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/extent.hpp>
#include <acc/gang.hpp>

#include <cub/block/block_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

namespace acc::detail::cuda {

/// Reduces v over the block and stores the result in *out (thread 0).
template <int Block, class T, class Op>
__device__ void block_reduce_to(const T& v, const Op& op, T* out) {
  using block_reduce = cub::BlockReduce<T, Block>;
  __shared__ typename block_reduce::TempStorage temp;
  const T r = block_reduce(temp).Reduce(v, op);
  if (threadIdx.x == 0) *out = r;
  __syncthreads();  // temp may serve the next variable of the same type
}

template <int Block, class Count, class Index, std::size_t Rank, class Body, class Ops, class Vals, class Outs>
__global__ void __launch_bounds__(Block)
    loop_reductions(index_space<Index, Rank> s, Count n, Body body, Ops ops, Vals priv, Outs partial) {
  const Count stride = Count(gridDim.x) * Block;
  // Two private sets taken in turn, so that two iterations' loads are in flight at once (one
  // set: 0.943x a hand-written kernel; two: 1.0x; H100, 2^28 doubles). Still a fixed order
  // for a fixed configuration.
  Vals other = priv;
  const auto run = [&](Count t, Vals& v) {
    call_at(s, t, [&](auto... idx) { std::apply([&](auto&... p) { body(idx..., p...); }, v); });
  };
  Count t = Count(blockIdx.x) * Block + threadIdx.x;
  for (; n > stride && t < n - stride; t += 2 * stride) {
    run(t, priv);
    run(t + stride, other);
  }
  if (t < n) run(t, priv);
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((std::get<K>(priv) = std::get<K>(ops)(std::get<K>(priv), std::get<K>(other))), ...);
  }(std::make_index_sequence<std::tuple_size_v<Vals>>{});
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (block_reduce_to<Block>(std::get<K>(priv), std::get<K>(ops), std::get<K>(partial) + blockIdx.x), ...);
  }(std::make_index_sequence<std::tuple_size_v<Vals>>{});
}

/// Runs a parallel_loop with reductions on `device` (total > 0) and folds each result into its
/// variable: *var = op(*var, reduced).
template <class Index, std::size_t Rank, class Body, class... R>
void run_loop_reductions(const index_space<Index, Rank>& s, std::uint64_t total, const launch_spec& spec, int device,
                         const Body& body, const std::tuple<R...>& reds, const call_site& site) {
  register_ops();
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, spec.queue, site);
  constexpr int block = reduce_policy::block;
  using Count = std::uint64_t;  // one instantiation: the private state dominates, not the counter
  using vars = reduction_vars<R...>;
  auto kernel = &loop_reductions<block, Count, Index, Rank, Body, typename vars::ops_type,
                                 typename vars::values_type, typename vars::pointers_type>;
  const int grid = static_cast<int>(
      std::min<std::uint64_t>((total + block - 1) / block, resident_blocks(kernel, block, device, site)));
  vars scratch(grid, device, stream, site);
  const typename vars::ops_type ops = [&]<std::size_t... V>(std::index_sequence<V...>) {
    return typename vars::ops_type{std::get<V>(reds).op...};
  }(std::index_sequence_for<R...>{});
  launch(kernel, {unsigned(grid), unsigned(block)}, 0, stream, site, s, Count(total), body, ops,
         identities_of(reds), scratch.partials());
  scratch.finish(reds, site);
}

}  // namespace acc::detail::cuda
