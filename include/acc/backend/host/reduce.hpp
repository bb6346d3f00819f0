//! @file Host backend of parallel_reduce: a sequential fold, or one contiguous chunk per OpenMP
//! thread combined in thread order (deterministic for a fixed thread count).
#pragma once

#include <acc/backend/host/loop.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// Calls f with the indices of flat iterations [t0, t1) of s, in order; one division to find
/// the first point of a collapsed space, then carries.
template <class Index, std::size_t Rank, class F>
void for_each_flat(const index_space<Index, Rank>& s, std::uint64_t t0, std::uint64_t t1, F&& f) {
  if constexpr (Rank == 1) {
    for (Index i = index_at(s.lo[0], t0), end = index_at(s.lo[0], t1); i < end; ++i) f(i);
  } else if constexpr (Rank == 2) {
    const std::uint64_t n1 = s.count[1];
    std::uint64_t i = t0 / n1, j = t0 % n1;
    for (std::uint64_t t = t0; t < t1; ++t) {
      f(static_cast<Index>(i), static_cast<Index>(j));
      if (++j == n1) j = 0, ++i;
    }
  } else {
    const std::uint64_t n1 = s.count[1], n2 = s.count[2];
    std::uint64_t i = t0 / (n1 * n2), j = t0 / n2 % n1, k = t0 % n2;
    for (std::uint64_t t = t0; t < t1; ++t) {
      f(static_cast<Index>(i), static_cast<Index>(j), static_cast<Index>(k));
      if (++k == n2) {
        k = 0;
        if (++j == n1) j = 0, ++i;
      }
    }
  }
}

/// op(init, body(first), body(second), ...), grouped by thread. Partials start from the
/// identity, or from their first element for user operators that have none.
template <class Index, std::size_t Rank, class Op, class Body, class T>
T run(backend, const reduce_task<index_space<Index, Rank>, Op, T>& task, const Body& body, const launch_context& ctx) {
  const index_space<Index, Rank>& s = task.space;
  const std::uint64_t total = task.total;
  const Op& op = task.op;
  const T& init = task.init;
  [[maybe_unused]] const int num_gangs = ctx.spec.num_gangs;
#if defined(ACC_DETAIL_OPENMP)
  const int threads = static_cast<int>(std::min<std::uint64_t>(thread_count(num_gangs), total));
  if (threads > 1) {
    std::vector<T> partial(threads, init);
#  pragma omp parallel num_threads(threads)
    {
      const int p = omp_get_thread_num();
      const std::uint64_t base = total / threads, extra = total % threads;
      const std::uint64_t t0 = p * base + std::min<std::uint64_t>(p, extra), t1 = t0 + base + (std::uint64_t(p) < extra);
      if constexpr (has_identity_v<Op, T>) {
        T acc = identity_of<T>(op);
        for_each_flat(s, t0, t1, [&](auto... idx) { acc = op(acc, body(idx...)); });
        partial[p] = acc;
      } else {
        bool first = true;
        T acc = init;
        for_each_flat(s, t0, t1, [&](auto... idx) {
          T v = body(idx...);
          acc = first ? v : op(acc, v);
          first = false;
        });
        partial[p] = acc;
      }
    }
    T result = init;
    for (const T& v : partial) result = op(result, v);  // every chunk is non-empty
    return result;
  }
#endif
  T result = init;
  for_each_flat(s, 0, total, [&](auto... idx) { result = op(result, body(idx...)); });
  return result;
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
