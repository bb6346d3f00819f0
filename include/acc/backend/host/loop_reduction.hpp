//! @file Host backend of parallel_loop with reduction clauses.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <acc/backend/host/backend.hpp>
#include <acc/backend/host/executor.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// On one part the body updates copies of the variables themselves, so the result is the
/// sequential loop's to the bit; on several each part has private copies starting at the
/// identities, folded into the variables in part order. The variables are stored only when
/// the loop completes: after an exception they are unchanged, however many parts ran.
template <class Index, std::size_t Rank, class Body, class... R>
void run(backend, const loop_reduction_task<index_space<Index, Rank>, std::tuple<R...>>& task, const Body& body,
         const launch_context& ctx) {
  const index_space<Index, Rank>& s = task.space;
  const std::uint64_t total = task.total;
  const std::tuple<R...>& reds = task.reductions;
  using Vals = std::tuple<typename R::value_type...>;
  const auto store = [&](const Vals& v) {
    [&]<std::size_t... V>(std::index_sequence<V...>) { ((*std::get<V>(reds).var = std::get<V>(v)), ...); }(
        std::index_sequence_for<R...>{});
  };
  executor ex(parts_for(ctx.spec.num_gangs, total));
  if (ex.parts() == 1) {
    Vals mine = std::apply([](const auto&... r) { return Vals(*r.var...); }, reds);
    ex.run_parts([&](std::size_t) {
      ex.chunks(0, total, [&](std::uint64_t t0, std::uint64_t t1) {
        for_each_flat(s, t0, t1, [&](auto... idx) { std::apply([&](auto&... v) { body(idx..., v...); }, mine); });
      });
    });
    ex.rethrow(ctx.site);
    store(mine);
    return;
  }
  const Vals init = identities_of(reds);
  std::vector<part_value<Vals>> priv(ex.parts(), part_value<Vals>{init});
  ex.run_parts([&](std::size_t p) {
    Vals mine = init;  // a local copy: neighbouring parts' slots share cache lines
    ex.part_chunks(p, total, [&](std::uint64_t t0, std::uint64_t t1) {
      for_each_flat(s, t0, t1, [&](auto... idx) { std::apply([&](auto&... v) { body(idx..., v...); }, mine); });
    });
    priv[p].value = mine;
  });
  ex.rethrow(ctx.site);
  for (const part_value<Vals>& v : priv)
    [&]<std::size_t... V>(std::index_sequence<V...>) {
      ((*std::get<V>(reds).var = std::get<V>(reds).op(*std::get<V>(reds).var, std::get<V>(v.value))), ...);
    }(std::index_sequence_for<R...>{});
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
