//! @file Host backend of parallel_reduce: a sequential fold, or one contiguous part per OpenMP
//! thread combined in part order (deterministic for a fixed thread count).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/host/backend.hpp>
#include <acc/backend/host/executor.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <cstdint>
#include <vector>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// op(init, body(first), body(second), ...): on one part the sequential fold, else grouped by
/// part. Partials start from the identity, or from their first element for user operators
/// that have none (every part is non-empty).
template <class Index, std::size_t Rank, class Op, class Body, class T>
T run(backend, const reduce_task<index_space<Index, Rank>, Op, T>& task, const Body& body, const launch_context& ctx) {
  const index_space<Index, Rank>& s = task.space;
  const std::uint64_t total = task.total;
  const Op& op = task.op;
  executor ex(parts_for(ctx.spec.num_gangs, total));
  if (ex.parts() == 1) {
    T result = task.init;
    ex.run_parts([&](std::size_t) {
      ex.chunks(0, total, [&](std::uint64_t t0, std::uint64_t t1) {
        for_each_flat(s, t0, t1, [&](auto... idx) { result = op(result, body(idx...)); });
      });
    });
    ex.rethrow(ctx.site);
    return result;
  }
  std::vector<part_value<T>> partial(ex.parts(), part_value<T>{task.init});
  ex.run_parts([&](std::size_t p) {
    if constexpr (has_identity_v<Op, T>) {
      T acc = identity_of<T>(op);
      ex.part_chunks(p, total, [&](std::uint64_t t0, std::uint64_t t1) {
        for_each_flat(s, t0, t1, [&](auto... idx) { acc = op(acc, body(idx...)); });
      });
      partial[p].value = acc;
    } else {
      bool first = true;
      T acc = task.init;
      ex.part_chunks(p, total, [&](std::uint64_t t0, std::uint64_t t1) {
        for_each_flat(s, t0, t1, [&](auto... idx) {
          T v = body(idx...);
          acc = first ? v : op(acc, v);
          first = false;
        });
      });
      partial[p].value = acc;
    }
  });
  ex.rethrow(ctx.site);
  T result = task.init;
  for (const part_value<T>& v : partial) result = op(result, v.value);
  return result;
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
