//! @file Host backend of parallel_loop with reduction clauses.
#pragma once

#include <acc/detail/config.hpp>

#include <acc/backend/host/loop.hpp>
#include <acc/backend/host/reduce.hpp>
#include <acc/detail/task.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/extent.hpp>

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// Serially the body updates the variables themselves, so the result is the sequential loop's
/// to the bit; with OpenMP each thread has private copies starting at the identities, folded
/// into the variables in thread order.
template <class Index, std::size_t Rank, class Body, class... R>
void run(backend, const loop_reduction_task<index_space<Index, Rank>, std::tuple<R...>>& task, const Body& body,
         const launch_context& ctx) {
  const index_space<Index, Rank>& s = task.space;
  const std::uint64_t total = task.total;
  const std::tuple<R...>& reds = task.reductions;
  [[maybe_unused]] const int num_gangs = ctx.spec.num_gangs;
#if defined(ACC_DETAIL_OPENMP)
  const int threads = static_cast<int>(std::min<std::uint64_t>(thread_count(num_gangs), total));
  if (threads > 1) {
    using Vals = std::tuple<typename R::value_type...>;
    const Vals init = identities_of(reds);
    std::vector<Vals> priv(threads, init);
#  pragma omp parallel num_threads(threads)
    {
      const int p = omp_get_thread_num();
      const std::uint64_t base = total / threads, extra = total % threads;
      const std::uint64_t t0 = p * base + std::min<std::uint64_t>(p, extra), t1 = t0 + base + (std::uint64_t(p) < extra);
      Vals mine = init;
      for_each_flat(s, t0, t1, [&](auto... idx) { std::apply([&](auto&... v) { body(idx..., v...); }, mine); });
      priv[p] = mine;
    }
    for (const Vals& v : priv)
      [&]<std::size_t... V>(std::index_sequence<V...>) {
        ((*std::get<V>(reds).var = std::get<V>(reds).op(*std::get<V>(reds).var, std::get<V>(v))), ...);
      }(std::index_sequence_for<R...>{});
    return;
  }
#endif
  for_each_flat(s, 0, total, [&](auto... idx) {
    [&]<std::size_t... V>(std::index_sequence<V...>) { body(idx..., *std::get<V>(reds).var...); }(
        std::index_sequence_for<R...>{});
  });
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
