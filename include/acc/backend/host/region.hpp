//! @file Host backend of acc::parallel: gangs are OpenMP threads (or one after another), each
//! run by one thread, so worker and vector loops are plain loops there.
#pragma once

#include <acc/detail/config.hpp>

#include <acc/backend/host/loop.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/gang_handle.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>

#include <cstddef>
#include <exception>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// acc::parallel on the host; with reduction clauses R..., each gang has private copies
/// starting at the identities, folded into the variables in gang order afterwards.
template <class Body, class... R>
void run(backend, const region_task<std::tuple<R...>>& task, const Body& body, const launch_context& ctx) {
  const launch_spec& spec = ctx.spec;
  const std::tuple<R...>& reds = task.reductions;
  const int gangs = spec.num_gangs ? spec.num_gangs : thread_count(0);
  const int workers = spec.num_workers ? spec.num_workers : 1;
  const int vector = spec.vector_length ? spec.vector_length : 1;
  const std::size_t shared = spec.shared_bytes;
  [[maybe_unused]] const int threads = thread_count(gangs);
  first_error error;
  using Vals = std::tuple<typename R::value_type...>;
  std::vector<Vals> priv;
  if constexpr (sizeof...(R) > 0) priv.assign(gangs, identities_of(reds));
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
#endif
  for (int gang = 0; gang < gangs; ++gang) {
    try {
      auto memory = std::make_unique<std::max_align_t[]>((shared + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
      const gang_t g(gang, gangs, workers, vector, reinterpret_cast<unsigned char*>(memory.get()), shared);
      if constexpr (sizeof...(R) == 0) body(g);
      else {
        Vals mine = priv[gang];  // a local copy: neighbouring gangs' slots share cache lines
        std::apply([&](auto&... v) { body(g, v...); }, mine);
        priv[gang] = mine;
      }
    } catch (...) {
      error.keep();
    }
  }
  error.rethrow();
  for (const Vals& v : priv)
    [&]<std::size_t... V>(std::index_sequence<V...>) {
      ((*std::get<V>(reds).var = std::get<V>(reds).op(*std::get<V>(reds).var, std::get<V>(v))), ...);
    }(std::index_sequence_for<R...>{});
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
