//! @file acc::parallel_reduce and the reduction operators (OpenACC 3.3 §2.9.11 `reduction`).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/body_checks.hpp>
#include <acc/clauses.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/construct_data.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

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

/// Whether an initial value of type Init given for a reduction by Op computed in T loses what a
/// user means by it: a floating-point init for an integer T (0.5 becomes 0), or for a sum or
/// product a wider integer (0L for an int body: the user wants a long sum, which the int one
/// overflows). Integer inits for floating T (0 for a double sum), a double init for a float sum,
/// and 0 for a maximum of bytes are the usual way to write them.
template <class T, class Init, class Op>
inline constexpr bool narrowing_init_v = [] {
  using I = std::remove_cvref_t<Init>;
  if constexpr (!std::is_arithmetic_v<T> || !std::is_arithmetic_v<I> || std::is_same_v<I, T>) return false;
  else if constexpr (std::is_integral_v<T> && std::is_floating_point_v<I>) return true;
  else if constexpr (std::is_integral_v<T> && std::is_integral_v<I> && !std::is_same_v<T, bool> &&
                     (std::is_same_v<Op, plus_t> || std::is_same_v<Op, multiplies_t>))
    return sizeof(I) > sizeof(T);
  else return false;
}();

/// Two calls that compile as api.md has them (the reduction is computed in the type the body
/// returns) but rarely mean it: a warning each, at the user's call (deprecation is the one
/// warning C++ lets a library word; templates, so that only an instantiation warns).
template <class T>
[[deprecated("acc::parallel_reduce: the body returns bool, so acc::plus adds bools in bool, which gives at most 1 "
             "(an 'any'); to count, return an integer: ACC_LAMBDA(int i) { return x[i] > 0 ? 1L : 0L; }")]]
constexpr void warn_bool_sum() noexcept {}
template <class T>
[[deprecated("acc::parallel_reduce: the initial value's type holds values that the type the body returns cannot (a "
             "floating-point value for an integer body, or a wider integer for a sum or product), and the reduction "
             "is computed in the body's type; return the initial value's type from the body, e.g. "
             "ACC_LAMBDA(int i) { return double(x[i]); } with 0.5, or long(x[i]) with 0L")]]
constexpr void warn_narrowing_init() noexcept {}

/// The checks of parallel_reduce's arguments; only the first failure is reported.
template <class Extent, class Op, class Body, class... Init>
constexpr bool check_reduce_args() {
  if constexpr (atomic_only_op<Op>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: acc::minus, divides, shift_left and shift_right are atomic_update "
                  "operators, not reduction operators; use acc::plus, multiplies, maximum, minimum, bit_and, "
                  "bit_or, bit_xor, logical_and or logical_or");
    return false;
  } else if constexpr (!extent_traits<Extent>::valid) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: the first argument must be an iteration count (an integer), "
                  "acc::range(lo, hi) or acc::collapse(n0, n1[, n2])");
    return false;
  } else if constexpr (sizeof...(Init) > 1) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: too many arguments; write parallel_reduce(extent, op, body[, init])");
    return false;
  } else if constexpr ((is_clause_v<Init> || ...)) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: a clause comes after the body; clauses come first, "
                  "parallel_reduce(extent, clauses..., op, body[, init])");
    return false;
  } else if constexpr (is_device_only_lambda_v<Body>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: the body is a device-only lambda, which the host cannot run (acc runs "
                  "bodies on the host too: no GPU, if_(false), ACC_DEVICE_TYPE=host); write it with ACC_LAMBDA");
    return false;
  } else if constexpr (std::is_arithmetic_v<Body> && sizeof...(Init) == 1 &&
                       (invocable_with_rank_v<Init, typename extent_traits<Extent>::index_type,
                                              extent_traits<Extent>::rank> &&
                        ...)) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: the initial value comes last: parallel_reduce(extent, op, body, init)");
    return false;
  } else if constexpr (!invocable_with_rank_v<Body, typename extent_traits<Extent>::index_type,
                                              extent_traits<Extent>::rank>) {
    static_assert(!mutable_body<Body>(), ACC_DETAIL_MUTABLE_BODY("parallel_reduce"));
    static_assert(mutable_body<Body>() || dependent_false<Extent>,
                  "acc::parallel_reduce: body must take one index per loop of the extent and return the value "
                  "to reduce, e.g. ACC_LAMBDA(int i) { return x[i]; }");
    return false;
  } else if constexpr (!check_body_parallel_reduce<Body, Extent>()) {
    return false;
  } else {
    using T = reduce_value_t<Extent, Body>;
    if constexpr (std::is_void_v<T>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: body returns nothing; return the value to reduce");
      return false;
    } else if constexpr (!check_op_parallel_reduce<Op, T, sizeof...(Init) == 1>()) {
      return false;
    } else if constexpr (!(std::is_constructible_v<T, const Init&> && ...)) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: the initial value (the last argument) does not convert to the type "
                    "the body returns; give a value of that type");
      return false;
    } else if constexpr (!std::is_trivially_copyable_v<T>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: the reduced type must be trivially copyable, as it is copied "
                    "between host and device bytewise");
      return false;
    } else if constexpr (!body_copyable_v<Body> || !std::is_copy_constructible_v<Op>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_reduce: body and op must be copyable, as they are copied to every gang");
      return false;
    } else {
      return true;
    }
  }
}

/// parallel_reduce once its clauses are folded: checks, then the one dispatch.
template <class Extent, class Op, class Body, class... Init>
auto reduce(const Extent& extent, const launch_spec& spec, const Op& op, const Body& body,
            const std::source_location& where, const Init&... init) {
  if constexpr (check_reduce_args<Extent, Op, Body, Init...>()) {
    using T = reduce_value_t<Extent, Body>;
    if constexpr (std::is_same_v<std::remove_cv_t<T>, bool> && std::is_same_v<Op, plus_t>) warn_bool_sum<T>();
    if constexpr ((narrowing_init_v<T, Init, Op> || ...)) warn_narrowing_init<T>();
    const call_site site{"parallel_reduce", where};
    static nvtx_site nvtx;  // constant-initialised: no guard per construct
    // Initialised, not assigned: T need not be default-constructible.
    const T start = [&] {
      if constexpr (sizeof...(Init) == 1) return static_cast<T>((init, ...));
      else return identity_of<T>(op);
    }();
    const auto [space, total] = space_of(extent, site);
    return dispatch(reduce_task<std::remove_const_t<decltype(space)>, Op, T>{space, total, op, start}, spec, body,
                    site, &nvtx);
  } else {
    return 0;
  }
}

/// parallel_reduce(extent, clauses..., op, body[, init]) with at least one clause; the call
/// site is `at` when known, else where the first clause was written (acc/clauses.hpp says why).
template <class Extent, class... Args>
auto reduce_with_clauses(const std::source_location& at, const Extent& extent, const Args&... args) {
  constexpr std::size_t k = leading_clause_count<Args...>();
  constexpr std::size_t rest = sizeof...(Args) - k;
  if constexpr (leading_clause_or_data_count<Args...>() > k) {
    // Data clauses among the clauses: the reduction runs inside a data region of them.
    static_assert(!has_delete_clause_v<Args...>, ACC_DETAIL_DELETE_ON_CONSTRUCT("parallel_reduce"));
    const std::source_location where = at.line() ? at : location_of(args...);
    return with_construct_data(
        call_site{"parallel_reduce", where},
        [&](const auto&... clauses_op_body) { return reduce_with_clauses(where, extent, clauses_op_body...); },
        args...);
  } else if constexpr (rest < 2 || rest > 3) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_reduce: after the clauses come op, body and an optional initial value; "
                  "write parallel_reduce(extent, clauses..., op, body[, init])");
    return 0;
  } else if constexpr (!clause_pack<first_of_t<k, Args...>>::template accepted<construct::parallel_reduce>()) {
    return 0;
  } else {
    return with_leading_clauses(
        [&](const launch_spec& spec, const std::source_location& where, const auto& op, const auto& body,
            const auto&... init) { return reduce(extent, spec, op, body, at.line() ? at : where, init...); },
        args...);
  }
}

template <class T>
inline constexpr bool is_location_v = std::is_same_v<std::remove_cvref_t<T>, std::source_location>;

}  // namespace detail

/// Reduces body(i...) over the extent with op and returns the result (OpenACC 3.3 §2.9.11,
/// `parallel loop reduction(op:var)`: the result is op(init, every body value)).
/// - `extent` as for parallel_loop; `op` one of acc::plus, multiplies, maximum, minimum,
///   bit_and, bit_or, bit_xor, logical_and, logical_or, min_loc, max_loc, or a user callable
///   T(T, T) marked ACC_ROUTINE; `init` (optional, last) defaults to the operator's identity
///   (a user operator's `T identity() const`; minimum, maximum, min_loc and max_loc take theirs
///   from std::numeric_limits, so a type it does not specialize, such as std::chrono::duration,
///   needs an init). T is what the body returns: trivially copyable, not necessarily
///   default-constructible.
/// - The operator must be associative and commutative, as every OpenACC reduction operator is:
///   values are combined in no particular order.
/// - A NaN among the values makes maximum, minimum, min_loc and max_loc depend on how the work
///   was split (a NaN compares neither below nor above anything, as with CUB's and std::max's
///   operators), so host, OpenMP and GPU may differ: leave NaNs out in the body.
/// - Clauses, any number, may come before op: num_gangs, num_workers, vector_length (the
///   launch shape, as in parallel_loop), async, if_, device_num, default_present, adaptive,
///   tuned, and data clauses (copy, copyin, ...: a data region around the construct, with its
///   if_, async and device_num); the call always returns the finished value.
/// - Deterministic for a fixed device and configuration; float results may differ between
///   the host and a GPU, which group the operations differently.
/// e.g. acc::parallel_reduce(4, acc::plus, ACC_LAMBDA(int i) { return i; }) == 6
// Without clauses the call site is a defaulted parameter; with clauses it comes from the first
// clause, since no defaulted parameter can follow them: a factory's clause carries its line,
// and a constant clause (adaptive, tuned, default_present) given first gets the call's line
// from its conversion to sited_clause.
template <class Extent, class Op, class Body>
  requires(!detail::is_clause_v<Op> && !detail::is_data_clause_v<Op> && !detail::is_clause_v<Body>)
auto parallel_reduce(Extent e, const Op& op, const Body& body,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::launch_spec{}, op, body, where);
}
template <class Extent, class Op, class Body, class Init>
  requires(!detail::is_clause_v<Op> && !detail::is_data_clause_v<Op> && !detail::is_clause_v<Body> &&
           !detail::is_location_v<Init>)
auto parallel_reduce(Extent e, const Op& op, const Body& body, const Init& init,
                     std::source_location where = std::source_location::current()) {
  return detail::reduce(e, detail::launch_spec{}, op, body, where, init);
}
/// A clause after the operator (acc::parallel_reduce(n, acc::plus, acc::async(1), body)) or
/// after the initial value (..., body, 0.0, acc::async(1)).
template <class Extent, class Op, class Clause, class... Rest>
  requires(!detail::is_clause_v<Op> && !detail::is_data_clause_v<Op> && detail::is_clause_v<Clause>)
int parallel_reduce(Extent, const Op&, const Clause&, const Rest&...) {
  static_assert(detail::dependent_false<Clause>,
                "acc::parallel_reduce: a clause comes after the operator; clauses come first, "
                "parallel_reduce(extent, clauses..., op, body[, init])");
  return 0;
}
template <class Extent, class Op, class Body, class Init, class Clause, class... Rest>
  requires(!detail::is_clause_v<Op> && !detail::is_data_clause_v<Op> && !detail::is_clause_v<Body> &&
           detail::is_clause_v<Clause>)
int parallel_reduce(Extent, const Op&, const Body&, const Init&, const Clause&, const Rest&...) {
  static_assert(detail::dependent_false<Clause>,
                "acc::parallel_reduce: a clause comes after the initial value; clauses come first, "
                "parallel_reduce(extent, clauses..., op, body[, init])");
  return 0;
}
template <class Extent, class Clause, class... Rest>
  requires((detail::is_clause_v<Clause> || detail::is_data_clause_v<Clause>) && !detail::knows_no_line_v<Clause>)
auto parallel_reduce(Extent e, const Clause& first, const Rest&... rest) {
  return detail::reduce_with_clauses(std::source_location{}, e, first, rest...);
}
template <class Extent, class... Rest>
auto parallel_reduce(Extent e, detail::sited_clause<adaptive_t> first, const Rest&... rest) {
  return detail::reduce_with_clauses(first.where, e, first.clause, rest...);
}
template <class Extent, class... Rest>
auto parallel_reduce(Extent e, detail::sited_clause<tuned_t> first, const Rest&... rest) {
  return detail::reduce_with_clauses(first.where, e, first.clause, rest...);
}
template <class Extent, class... Rest>
auto parallel_reduce(Extent e, detail::sited_clause<default_present_t> first, const Rest&... rest) {
  return detail::reduce_with_clauses(first.where, e, first.clause, rest...);
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
