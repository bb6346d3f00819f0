//! @file Host backend of acc::parallel: gangs are split over the executor's parts (OpenMP
//! threads, or the calling thread), each gang run by one thread, so worker and vector loops
//! are plain loops there.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <acc/backend/host/backend.hpp>
#include <acc/backend/host/executor.hpp>
#include <acc/detail/body_error.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/gang_handle.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>

#include <cstddef>
#include <cstdint>
#include <new>
#include <exception>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace acc::detail::host {

/// A part's gang-shared memory, reused by each gang it runs (a GPU does not clear it either);
/// body_error<bad_clause> when the host cannot allocate it. In the runtime (region-inl.hpp):
/// the vector's construction would cost every translation unit its instantiation.
ACC_DETAIL_RUNTIME_FN std::vector<aligned_word> gang_memory(std::size_t bytes);

inline namespace ACC_DETAIL_HOST_ABI {

/// acc::parallel on the host. With reduction clauses R..., each gang has private copies
/// starting at the identities; a part folds its gangs' copies in gang order into one value per
/// reduction (storage per thread, not per gang: num_gangs may be INT_MAX), and the parts' values
/// are folded into the variables in part order afterwards.
template <class Body, class... R>
void run(backend, const region_task<std::tuple<R...>>& task, const Body& body, const launch_context& ctx) {
  const launch_spec& spec = ctx.spec;
  const std::tuple<R...>& reds = task.reductions;
  const int gangs = spec.num_gangs ? spec.num_gangs : thread_count(0);
  const std::size_t shared = spec.shared_bytes;
  // Rounded up to whole max_align_t, a size this close to SIZE_MAX would wrap.
  if (shared > SIZE_MAX - sizeof(aligned_word))
    fail<bad_clause>(ctx.site, "shared_bytes(" + std::to_string(shared) + ") is more than any host can allocate");
  executor ex(smaller(thread_count(gangs), gangs));
  using Vals = std::tuple<typename R::value_type...>;
  const Vals init = identities_of(reds);
  std::vector<part_value<Vals>> priv(ex.parts(), part_value<Vals>{init});
  ex.run_parts([&](std::size_t p) {
    const auto memory = gang_memory(shared);
    unsigned char* const base = reinterpret_cast<unsigned char*>(const_cast<aligned_word*>(memory.data()));
    Vals folded = init;
    ex.part_chunks(p, static_cast<std::uint64_t>(gangs), [&](std::uint64_t g0, std::uint64_t g1) {
      for (std::uint64_t gang = g0; gang < g1; ++gang) {
        // One thread runs the gang: it is one worker of one lane whatever num_workers and
        // vector_length ask (OpenACC lets an implementation use other values than the clauses
        // give), so a body that divides work by worker_num() / num_workers() or vector_lane() /
        // vector_length(), as CUDA code does by thread, still covers all of it.
        const gang_t g(static_cast<int>(gang), gangs, 1, 1, base, shared);
        if constexpr (sizeof...(R) == 0) {
          body(g);
        } else {
          Vals mine = init;
          std::apply([&](auto&... v) { body(g, v...); }, mine);
          [&]<std::size_t... V>(std::index_sequence<V...>) {
            ((std::get<V>(folded) = std::get<V>(reds).op(std::get<V>(folded), std::get<V>(mine))), ...);
          }(std::index_sequence_for<R...>{});
        }
      }
    }, gang_chunk_min);
    priv[p].value = folded;
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
