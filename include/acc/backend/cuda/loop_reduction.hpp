//! @file CUDA backend of parallel_loop with reduction clauses: a persistent grid where each
//! thread keeps private copies, cub::BlockReduce per variable, then one block per variable.
#pragma once

#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/reduce.hpp>
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
  for (Count t = Count(blockIdx.x) * Block + threadIdx.x; t < n; t += stride)
    call_at(s, t, [&](auto... idx) { std::apply([&](auto&... p) { body(idx..., p...); }, priv); });
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
  using Ops = std::tuple<decltype(R::op)...>;
  using Vals = std::tuple<typename R::value_type...>;
  using Outs = std::tuple<typename R::value_type*...>;
  auto kernel = &loop_reductions<block, Count, Index, Rank, Body, Ops, Vals, Outs>;
  const int grid = static_cast<int>(
      std::min<std::uint64_t>((total + block - 1) / block, resident_blocks(kernel, block, device, site)));

  // Per variable: grid partials, then its result; each segment 16-byte aligned.
  constexpr std::size_t k = sizeof...(R);
  const std::size_t sizes[k] = {sizeof(typename R::value_type)...};
  std::size_t offset[k + 1] = {};
  for (std::size_t v = 0; v < k; ++v) offset[v + 1] = offset[v] + ((grid + 1) * sizes[v] + 15) / 16 * 16;
  stream_buffer scratch(offset[k], device, stream, site);
  char* base = static_cast<char*>(scratch.get());
  Outs partial = [&]<std::size_t... V>(std::index_sequence<V...>) {
    return Outs{reinterpret_cast<std::tuple_element_t<V, Outs>>(base + offset[V])...};
  }(std::index_sequence_for<R...>{});
  const auto [ops, init] = [&]<std::size_t... V>(std::index_sequence<V...>) {
    return std::pair<Ops, Vals>{Ops{std::get<V>(reds).op...},
                                Vals{identity_of<std::tuple_element_t<V, Vals>>(std::get<V>(reds).op)...}};
  }(std::index_sequence_for<R...>{});

  launch(kernel, {unsigned(grid), unsigned(block)}, 0, stream, site, s, Count(total), body, ops, init, partial);
  Vals result;
  [&]<std::size_t... V>(std::index_sequence<V...>) {
    (launch(&reduce_partials<block, std::tuple_element_t<V, Vals>, std::tuple_element_t<V, Ops>>, {1u, unsigned(block)},
            0, stream, site, std::get<V>(partial), grid, std::get<V>(ops), std::get<V>(init), std::get<V>(partial) + grid),
     ...);
    (ACC_DETAIL_CUDA_CHECK(cudaMemcpyAsync(&std::get<V>(result), std::get<V>(partial) + grid, sizes[V],
                                           cudaMemcpyDeviceToHost, stream),
                           site),
     ...);
  }(std::index_sequence_for<R...>{});
  scratch.release(site);
  ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);  // the variables are the host's
  [&]<std::size_t... V>(std::index_sequence<V...>) {
    ((*std::get<V>(reds).var = std::get<V>(reds).op(*std::get<V>(reds).var, std::get<V>(result))), ...);
  }(std::index_sequence_for<R...>{});
}

}  // namespace acc::detail::cuda
