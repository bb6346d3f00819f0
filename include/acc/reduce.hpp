//! @file acc::parallel_reduce and the reduction operators (OpenACC 3.3 §2.9.11 `reduction`).
#pragma once

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>
#include <acc/runtime.hpp>

#include <acc/backend/host/reduce.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/reduce.hpp>
#endif

#include <cstddef>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc {
namespace detail {

/// The checks of parallel_reduce's arguments; only the first failure is reported.
template <class Extent, class Op, class Body, class... Init>
constexpr bool check_reduce_args() {
  if constexpr (!extent_traits<Extent>::valid) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: the first argument must be an iteration count (an integer), "
                  "acc::range(lo, hi) or acc::collapse(n0, n1[, n2])");
    return false;
  } else if constexpr (sizeof...(Init) > 1) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: too many arguments; write parallel_reduce(extent, op, body[, init])");
    return false;
  } else if constexpr (!invocable_with_rank_v<Body, typename extent_traits<Extent>::index_type,
                                              extent_traits<Extent>::rank>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: body must take one index per loop of the extent and return the value "
                  "to reduce, e.g. ACC_LAMBDA(int i) { return x[i]; }");
    return false;
  } else {
    using T = reduce_value_t<Extent, Body>;
    if constexpr (std::is_void_v<T>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: body returns nothing; return the value to reduce");
      return false;
    } else if constexpr (!std::is_invocable_r_v<T, const Op&, T, T>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: op cannot combine two values of the body's return type; "
                    "use acc::plus, acc::maximum, ... or a callable T(T, T)");
      return false;
    } else if constexpr (sizeof...(Init) == 0 && !has_identity_v<Op, T>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: this operator has no identity(); give the initial value as the "
                    "last argument, parallel_reduce(extent, op, body, init), or add `T identity() const`");
      return false;
    } else if constexpr (!std::is_trivially_copyable_v<T>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: the reduced type must be trivially copyable, as it is copied "
                    "between host and device bytewise");
      return false;
    } else if constexpr (!std::is_copy_constructible_v<Body> || !std::is_copy_constructible_v<Op>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: body and op must be copyable, as they are copied to every gang");
      return false;
    } else {
      return true;
    }
  }
}

template <class Extent, class Op, class Body, class T>
T run_parallel_reduce(const Extent& extent, const launch_spec& spec, const Op& op, const Body& body, T init,
                      const call_site& site) {
  const auto [space, total, p] = plan_construct(extent, spec, site);
#if defined(ACC_DETAIL_CUDA)
  if (p.where == target::nvidia) {
    mapped_body<Body> mapped(body, p.device, spec, total > 0, site);
    T result = total > 0 ? cuda::run_reduce(space, total, spec, p.device, op, mapped.get(), init, site) : init;
    mapped.finish();
    return result;
  }
#endif
  if (spec.default_present && spec.if_) check_present(body, spec, site);
  return host::run_reduce(space, total, spec.num_gangs, op, body, init);
}


template <class Extent, class Op, class Body, class... Init>
auto reduce(const Extent& extent, const launch_spec& spec, const Op& op, const Body& body,
            const std::source_location& where, const Init&... init) {
  if constexpr (check_reduce_args<Extent, Op, Body, Init...>()) {
    using T = reduce_value_t<Extent, Body>;
    const call_site site{"parallel_reduce", where};
    static const nvtx_name name = make_nvtx_name(site);
    const nvtx_range range(name);
    T start;
    if constexpr (sizeof...(Init) == 1) start = static_cast<T>((init, ...));
    else start = identity_of<T>(op);
    return run_parallel_reduce(extent, spec, op, body, start, site);
  } else {
    return 0;
  }
}

template <class... C>
inline constexpr bool all_clauses_v = (is_compute_clause_v<C> && ...);
template <class Op>
inline constexpr bool not_clause_v = !is_compute_clause_v<Op> && !std::is_same_v<std::remove_cvref_t<Op>, std::source_location>;

template <class... C>
constexpr launch_spec spec_of(const C&... c) {
  launch_spec s;
  (apply_clause(s, c), ...);
  return s;
}

}  // namespace detail

/// Reduces body(i...) over the extent with op and returns the result (OpenACC 3.3 §2.9.11,
/// `parallel loop reduction(op:var)`: the result is op(init, every body value)).
/// - `extent` as for parallel_loop; `op` one of acc::plus, multiplies, maximum, minimum,
///   bit_and, bit_or, bit_xor, logical_and, logical_or, min_loc, max_loc, or a user callable
///   T(T, T) marked ACC_ROUTINE; `init` (optional, last) defaults to the operator's identity
///   (a user operator's `T identity() const`). T is what the body returns.
/// - The operator must be associative and commutative, as every OpenACC reduction operator is:
///   values are combined in no particular order.
/// - Up to three clauses (if_, device_num, default_present, async, ...) may come before op;
///   the call always returns the finished value.
/// - Deterministic for a fixed device and configuration; float results may differ between
///   the host and a GPU, which group the operations differently.
/// e.g. acc::parallel_reduce(4, acc::plus, ACC_LAMBDA(int i) { return i; }) == 6
// The overloads spell out the clause counts because a defaulted std::source_location cannot
// follow a pack, and the result must be returned by value.
template <class Extent, class Op, class Body>
  requires detail::not_clause_v<Op>
auto parallel_reduce(const Extent& e, const Op& op, const Body& body,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::launch_spec{}, op, body, where);
}
template <class Extent, class Op, class Body, class Init>
  requires(detail::not_clause_v<Op> && detail::not_clause_v<Init>)
auto parallel_reduce(const Extent& e, const Op& op, const Body& body, const Init& init,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::launch_spec{}, op, body, where, init);
}
template <class Extent, class C1, class Op, class Body>
  requires(detail::all_clauses_v<C1> && detail::not_clause_v<Op>)
auto parallel_reduce(const Extent& e, const C1& c1, const Op& op, const Body& body,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::spec_of(c1), op, body, where);
}
template <class Extent, class C1, class Op, class Body, class Init>
  requires(detail::all_clauses_v<C1> && detail::not_clause_v<Op> && detail::not_clause_v<Init>)
auto parallel_reduce(const Extent& e, const C1& c1, const Op& op, const Body& body, const Init& init,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::spec_of(c1), op, body, where, init);
}
template <class Extent, class C1, class C2, class Op, class Body>
  requires(detail::all_clauses_v<C1, C2> && detail::not_clause_v<Op>)
auto parallel_reduce(const Extent& e, const C1& c1, const C2& c2, const Op& op, const Body& body,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::spec_of(c1, c2), op, body, where);
}
template <class Extent, class C1, class C2, class Op, class Body, class Init>
  requires(detail::all_clauses_v<C1, C2> && detail::not_clause_v<Op> && detail::not_clause_v<Init>)
auto parallel_reduce(const Extent& e, const C1& c1, const C2& c2, const Op& op, const Body& body, const Init& init,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::spec_of(c1, c2), op, body, where, init);
}
template <class Extent, class C1, class C2, class C3, class Op, class Body>
  requires(detail::all_clauses_v<C1, C2, C3> && detail::not_clause_v<Op>)
auto parallel_reduce(const Extent& e, const C1& c1, const C2& c2, const C3& c3, const Op& op, const Body& body,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::spec_of(c1, c2, c3), op, body, where);
}

}  // namespace acc
