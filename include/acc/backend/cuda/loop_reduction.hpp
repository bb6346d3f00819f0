//! @file CUDA backend of parallel_loop with reduction clauses: a persistent grid where each
//! thread keeps private copies and block_reduce combines each block's; the last block combines
//! the blocks' (single_pass.hpp), or a second kernel does (reduction_vars.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/block_reduce.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/reduction_vars.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/single_pass.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

namespace acc::detail::cuda {

/// Reduces v over the block's threads and stores the result in *out (thread 0).
template <class T, class Op>
__device__ void block_reduce_to(const T& v, const Op& op, T* out) {
  __shared__ alignas(T) unsigned char slots[32 * sizeof(T)];
  const T r = block_reduce(v, op, int(blockDim.x), reinterpret_cast<T*>(slots));
  if (threadIdx.x == 0) *out = r;
}

/// Block b stores its private values' reduction in partial_v[b]. In the single pass
/// (single_pass.hpp: `ticket` given) the last block to finish then combines the partials
/// into out_v; with a null ticket a second kernel does (reduction_vars::finish). One kernel
/// for both forms: a reduction body is compiled once.
template <class Count, class Index, std::size_t Rank, class Body, class Ops, class Vals, class Outs>
__global__ void loop_reductions(index_space<Index, Rank> s, Count n, Body body, Ops ops, Vals priv, Outs partial,
                                unsigned* ticket, Outs out) {
  const Count stride = Count(gridDim.x) * blockDim.x;
  // Two private sets taken in turn, so that two iterations' loads are in flight at once.
  // Still a fixed order for a fixed configuration.
  Vals other = priv;
  const auto run = [&](Count t, Vals& v) {
    call_at(s, t, [&](auto... idx) { std::apply([&](auto&... p) { body(idx..., p...); }, v); });
  };
  Count t = Count(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; n > stride && t < n - stride; t += 2 * stride) {
    run(t, priv);
    run(t + stride, other);
  }
  if (t < n) run(t, priv);
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    ((std::get<K>(priv) = std::get<K>(ops)(std::get<K>(priv), std::get<K>(other))), ...);
  }(std::make_index_sequence<std::tuple_size_v<Vals>>{});
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (block_reduce_to(std::get<K>(priv), std::get<K>(ops), std::get<K>(partial) + blockIdx.x), ...);
  }(std::make_index_sequence<std::tuple_size_v<Vals>>{});
  if (ticket && last_block_arrived(ticket)) {
    fold_reduction_vars(ops, partial, int(gridDim.x), out);
    reset_ticket(ticket);
  }
}

/// parallel_loop with reduction clauses on ctx.device (task.total > 0): a persistent grid
/// shaped by num_gangs / num_workers / vector_length like parallel_reduce's; each variable
/// ends as *var = op(*var, reduced).
template <class Index, std::size_t Rank, class Body, class... R>
void run(backend, const loop_reduction_task<index_space<Index, Rank>, std::tuple<R...>>& task, const Body& body,
         const launch_context& ctx) {
  const cudaStream_t stream = begin_launch(ctx);
  using Count = std::uint64_t;  // one instantiation: the private state dominates, not the counter
  using vars = reduction_layout<R...>;
  using ops_type = typename vars::ops_type;
  using values_type = typename vars::values_type;
  using pointers_type = typename vars::pointers_type;
  const ops_type ops = vars::ops_of(task.reductions);
  auto kernel = &loop_reductions<Count, Index, Rank, Body, ops_type, values_type, pointers_type>;
  const launch_config cfg = plan_persistent<reduce_policy>(kernel, task.total, ctx);
  if (single_pass_reductions) {
    single_pass_vars<R...> scratch(int(cfg.grid), ctx.device, stream, ctx.site);
    scratch.launched([&] {
      launch(kernel, cfg, 0, stream, ctx.site, task.space, Count(task.total), body, ops,
             identities_of(task.reductions), scratch.partials(), scratch.ticket(), scratch.results());
    });
    scratch.finish(stream, task.reductions, ctx.site);
  } else {
    reduction_vars<R...> scratch(int(cfg.grid), ctx.device, stream, ctx.site);
    launch(kernel, cfg, 0, stream, ctx.site, task.space, Count(task.total), body, ops, identities_of(task.reductions),
           scratch.partials(), nullptr, pointers_type{});
    scratch.finish(task.reductions, ctx.site);
  }
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
