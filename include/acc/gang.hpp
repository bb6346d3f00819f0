//! @file Inside acc::parallel: the gang handle, loops at each level of parallelism, loop_reduce,
//! loop_scan, single and barrier (OpenACC 3.3 §2.9 `loop`, §2.5.1 parallel execution modes).
//! The work is the backends' (backend/{cuda,host}/gang.hpp, picked by detail/gang_ops.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/body_checks.hpp>
#include <acc/cached_view.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/gang_handle.hpp>
#include <acc/detail/gang_ops.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/scan_value.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

namespace acc {

/// A level of parallelism a loop is partitioned over (OpenACC `gang`, `worker`, `vector`, their
/// combinations, and `seq`). On a GPU: gang = thread block, worker = the block's y index,
/// vector = its x index (lanes, each worker padded to whole warps).
template <bool Gang, bool Worker, bool Vector>
struct level_t {
  static constexpr bool gang = Gang, worker = Worker, vector = Vector;
};

inline constexpr level_t<true, false, false> gang{};
inline constexpr level_t<false, true, false> worker{};
inline constexpr level_t<false, false, true> vector{};
inline constexpr level_t<true, true, false> gang_worker{};
inline constexpr level_t<true, false, true> gang_vector{};
inline constexpr level_t<false, true, true> worker_vector{};
inline constexpr level_t<true, true, true> gang_worker_vector{};
inline constexpr level_t<false, false, false> seq{};

struct per_gang_t {};
struct per_worker_t {};
/// single(g, per_gang, f): f runs once per gang; single(g, per_worker, f): once per worker.
inline constexpr per_gang_t per_gang{};
inline constexpr per_worker_t per_worker{};

// acc::gang_t is defined in detail/gang_handle.hpp, which the backends that construct it include
// without this header; its members that depend on where the code runs are defined here.
ACC_DETAIL_HD inline int gang_t::gang_num() const noexcept { return detail::gang_ops::gang_num(*this); }
ACC_DETAIL_HD inline int gang_t::num_gangs() const noexcept { return detail::gang_ops::num_gangs(*this); }
ACC_DETAIL_HD inline int gang_t::worker_num() const noexcept { return detail::gang_ops::worker_num(*this); }
ACC_DETAIL_HD inline int gang_t::vector_lane() const noexcept { return detail::gang_ops::vector_lane(*this); }

template <class T>
ACC_DETAIL_HD std::span<T> gang_t::shared(std::size_t count) const {
  static_assert(std::is_trivially_destructible_v<T>, "acc::gang_t::shared: T must be trivially destructible");
  static_assert(alignof(T) <= detail::team_alignment,
                "acc::gang_t::shared: T is aligned to more than 16 bytes, which team memory does not guarantee");
  return detail::gang_ops::shared<T>(*this, count);
}

template <class T, class N0, class N1, class... N2>
  requires(sizeof...(N2) <= 1)
ACC_DETAIL_HD cached_view<T, 2 + sizeof...(N2)> gang_t::shared(N0 n0, N1 n1, N2... n2) const {
  static_assert(std::is_integral_v<N0> && std::is_integral_v<N1> && (std::is_integral_v<N2> && ...),
                "acc::gang_t::shared: the extents must be integers: g.shared<T>(n0, n1[, n2])");
  constexpr std::size_t rank = 2 + sizeof...(N2);
  const std::int64_t hi[] = {static_cast<std::int64_t>(n0), static_cast<std::int64_t>(n1),
                             static_cast<std::int64_t>(n2)...};
  const std::int64_t origin[rank] = {};  // the view's indices start at 0 in every dimension
  std::int64_t stride[rank];
  std::size_t count = 1;
  for (std::size_t d = rank; d-- > 0;) {
    // A negative extent, or a product past what any memory holds, would wrap to a small count
    // and hand out a view far larger than its storage.
    if (hi[d] < 0 || (hi[d] > 0 && count > std::size_t(INT64_MAX) / sizeof(T) / static_cast<std::size_t>(hi[d])))
      detail::gang_ops::shared_extent_error(d, hi[d]);
    stride[d] = static_cast<std::int64_t>(count);
    count *= static_cast<std::size_t>(hi[d]);
  }
  return cached_view<T, rank>(shared<T>(count).data(), origin, stride, origin, hi, "g.shared");
}

namespace detail {

template <class L> struct is_level : std::false_type {};
template <bool G, bool W, bool V> struct is_level<level_t<G, W, V>> : std::true_type {};

template <class Extent, class Body>
constexpr bool check_gang_loop_args() {
  if constexpr (!extent_traits<Extent>::valid) {
    static_assert(dependent_false<Extent>,
                  "acc::loop: the extent must be an iteration count (an integer), acc::range(lo, hi) or "
                  "acc::collapse(n0, n1[, n2])");
    return false;
  } else if constexpr (!invocable_with_rank_v<Body, typename extent_traits<Extent>::index_type,
                                              extent_traits<Extent>::rank>) {
    static_assert(dependent_false<Extent>,
                  "acc::loop: body must take one index per loop of the extent, e.g. [&](int i) { ... }");
    return false;
  } else if constexpr (!check_body_loop<Body, Extent, false>()) {
    return false;
  } else {
    return true;
  }
}

/// The checks of loop_scan's arguments; only the first failure is reported.
template <class Explicit, class Level, class Extent, class Op, class Body>
constexpr bool check_loop_scan_args() {
  if constexpr (is_level<Level>::value && !Level::gang && !Level::worker && !Level::vector) {
    static_assert(dependent_false<Level>,
                  "acc::loop_scan: acc::seq has no threads to scan across (a seq loop runs whole in every "
                  "thread): keep a running total in a plain loop, or scan at acc::worker, acc::vector or "
                  "acc::worker_vector");
    return false;
  } else if constexpr (!is_level<Level>::value || Level::gang || !(Level::worker || Level::vector)) {
    static_assert(dependent_false<Level>,
                  "acc::loop_scan: the level must be acc::worker, acc::vector or acc::worker_vector; scan across "
                  "gangs with acc::parallel_scan");
    return false;
  } else if constexpr (!extent_traits<Extent>::valid || extent_traits<Extent>::rank != 1) {
    static_assert(dependent_false<Level>,
                  "acc::loop_scan: the extent must be an iteration count (an integer) or acc::range(lo, hi)");
    return false;
  } else if constexpr (std::is_void_v<scan_value_t<Explicit, Body>>) {
    static_assert(dependent_false<Level>,
                  "acc::loop_scan: cannot tell the scanned type from the body; give the body a typed partial, "
                  "[&](int j, long& partial, bool final), or write acc::loop_scan<T>(g, level, n, op, body)");
    return false;
  } else if constexpr (!std::is_invocable_v<const Body&, typename extent_traits<Extent>::index_type,
                                            scan_value_t<Explicit, Body>&, bool>) {
    static_assert(dependent_false<Level>, "acc::loop_scan: body must take (i, T& partial, bool final)");
    return false;
  } else if constexpr (!check_body_loop_scan<Body, Extent, false>()) {
    return false;
  } else if constexpr (!has_identity_v<Op, scan_value_t<Explicit, Body>>) {
    static_assert(dependent_false<Level>,
                  "acc::loop_scan: the operator needs an identity (a member T identity() const)");
    return false;
  } else {
    return true;
  }
}

}  // namespace detail

/// A loop inside acc::parallel, partitioned over `level` (OpenACC 3.3 §2.9.2-2.9.4): gang
/// loops spread iterations over gangs, worker loops over the gang's workers, vector loops over
/// a worker's lanes; seq runs them all in every thread. Loops containing worker or vector end
/// with the barrier OpenACC implies, so their results are visible after the call.
/// - Call it from code every thread of the gang (worker loops) or of the worker (vector loops)
///   reaches: the barrier is collective.
/// - Code outside loops and the bodies of gang loops run redundantly in every thread, and the
///   body of a worker loop in every vector lane of its worker (so that a vector loop inside it
///   has all its lanes): put a read-modify-write in a vector loop or in acc::single (per_gang,
///   per_worker). Writing the same value from every thread is harmless.
/// e.g. acc::loop(g, acc::gang, n, [&](int i) { acc::loop(g, acc::vector, m, [&](int j) { a(i, j) = 0; }); });
template <class Level, class Extent, class Body>
ACC_DETAIL_HD void loop(const gang_t& g, Level, Extent extent, const Body& body) {
  static_assert(detail::is_level<Level>::value,
                "acc::loop: the second argument must be a level: acc::gang, worker, vector, gang_worker, "
                "gang_vector, worker_vector, gang_worker_vector or seq");
  if constexpr (detail::check_gang_loop_args<Extent, Body>()) detail::gang_ops::loop<Level>(g, extent, body);
}

/// Reduces body(i...) over a loop at worker, vector or worker_vector level inside a gang and
/// returns the result to every thread of the gang (worker levels) or of the worker (vector).
/// Gang-level reductions across gangs are acc::parallel_reduce's. op needs an identity.
/// Deterministic: the combination order is fixed for a given configuration. op is taken by
/// value: nvcc lets device code copy acc::plus, not refer to it.
/// e.g. double row = acc::loop_reduce(g, acc::vector, n, acc::plus, [&](int j) { return a(i, j) * x[j]; });
template <class Level, class Extent, class Op, class Body>
ACC_DETAIL_HD auto loop_reduce(const gang_t& g, Level, Extent extent, Op op, const Body& body) {
  static_assert(detail::is_level<Level>::value && !Level::gang,
                "acc::loop_reduce: the level must be acc::worker, vector, worker_vector or seq; reduce across "
                "gangs with acc::parallel_reduce");
  using T = detail::reduce_value_t<Extent, Body>;
  // Each thread's partial starts from op's identity: loop_reduce takes no initial value.
  if constexpr (detail::check_op_loop_reduce<Op, T, false>() && detail::check_body_loop_reduce<Body, Extent, false>())
    return detail::gang_ops::loop_reduce<Level, T>(g, extent, op, body);
  else
    return 0;
}

/// A scan over a loop at worker, vector or worker_vector level inside acc::parallel:
/// body(i, T& partial, bool final) as in acc::parallel_scan, contributions combined by op in
/// iteration order; returns the total to every thread of the gang (worker levels) or of the
/// worker (vector). op needs an identity; T is the body's partial type (or loop_scan<T>).
/// - Each iteration's final call runs once (on lane 0 for worker loops; on worker 0 for a
///   vector loop outside any worker loop); calls with final false may repeat and must have no
///   side effects. Ends with the loop's barrier, so the final calls' writes are visible after it.
/// - Call it where every thread of the gang (worker levels) or worker (vector) arrives.
/// - GPU: shuffle scans within warps, shared memory across warps and workers; host: in order.
/// e.g. long n_kept = acc::loop_scan(g, acc::vector, m, acc::plus, [&](int j, long& p, bool final) {
///        if (final && keep(j)) out[p] = j; p += keep(j); });
template <class T = void, class Level, class Extent, class Op, class Body>
ACC_DETAIL_HD auto loop_scan(const gang_t& g, Level, Extent extent, Op op, const Body& body) {
  if constexpr (detail::check_loop_scan_args<T, Level, Extent, Op, Body>())
    return detail::gang_ops::loop_scan<Level, detail::scan_value_t<T, Body>>(g, extent, op, body);
  else
    return 0;
}

/// Runs f once per gang (per_gang: worker 0, lane 0) or once per worker (per_worker: lane 0),
/// then synchronises the gang or the worker so that every thread sees f's effects. Call it from
/// code that every thread of the gang (or worker) reaches.
template <class Scope, class F>
ACC_DETAIL_HD void single(const gang_t& g, Scope, const F& f) {
  static_assert(std::is_same_v<Scope, per_gang_t> || std::is_same_v<Scope, per_worker_t>,
                "acc::single: the scope must be acc::per_gang or acc::per_worker");
  if constexpr (std::is_same_v<Scope, per_gang_t>) detail::gang_ops::single_per_gang(g, f);
  else detail::gang_ops::single_per_worker(g, f);
}

/// Waits until every thread of the gang reaches it (shared memory written before is then
/// visible). From gang-redundant code only.
ACC_DETAIL_HD inline void barrier([[maybe_unused]] const gang_t& g) { detail::gang_ops::gang_barrier(); }

}  // namespace acc

#include <acc/detail/header_close.hpp>
