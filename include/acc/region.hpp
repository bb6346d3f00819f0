//! @file acc::parallel, OpenACC's `parallel` construct (OpenACC 3.3 §2.5.1): a region run by
//! gangs of workers of vector lanes, with loops inside it (acc/gang.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/body_checks.hpp>
#include <acc/clauses.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/construct_data.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/task.hpp>
#include <acc/error.hpp>
#include <acc/gang.hpp>

#include <acc/backend/host/region.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/region.hpp>
#endif

#include <cstddef>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc {
namespace detail {

/// The reduction clauses among a region's arguments (all but the body).
template <class... Args>
using region_reductions_t = clause_reductions_t<Args...>;

template <class... Args>
constexpr bool check_region_args() {
  if constexpr (sizeof...(Args) == 0) {
    static_assert(dependent_false<Args...>,
                  "acc::parallel: the region body is missing; write acc::parallel(ACC_LAMBDA(const acc::gang_t& g) { ... })");
    return false;
  } else if constexpr (!clauses_then_body<Args...>()) {
    // Data clauses among the clauses are not wrong: run_parallel runs the region inside a data
    // region of them.
    if constexpr (data_clauses_then_body<Args...>())
      static_assert(!has_delete_clause_v<Args...>, ACC_DETAIL_DELETE_ON_CONSTRUCT("parallel"));
    else
      static_assert(dependent_false<Args...>,
                    "acc::parallel: an argument before the body is not a clause; clauses are acc::num_gangs, "
                    "num_workers, vector_length, shared_bytes, async, if_, device_num, default_present, "
                    "reduction, adaptive and the data clauses (copy, copyin, copyout, create, no_create, "
                    "present, deviceptr)");
    return false;
  } else if constexpr (!clauses_accepted<construct::parallel, Args...>()) {
    return false;
  } else if constexpr (!invocable_with_reductions<body_of_t<Args...>, std::tuple<const gang_t&>,
                                                  region_reductions_t<Args...>, true>::value) {
    static_assert(!mutable_body<body_of_t<Args...>>(), ACC_DETAIL_MUTABLE_BODY("parallel"));
    static_assert(std::tuple_size_v<region_reductions_t<Args...>> > 0 || mutable_body<body_of_t<Args...>>() ||
                      dependent_false<Args...>,
                  "acc::parallel: the body must take the gang: ACC_LAMBDA(const acc::gang_t& g) { ... }");
    static_assert(std::tuple_size_v<region_reductions_t<Args...>> == 0 || mutable_body<body_of_t<Args...>>() ||
                      dependent_false<Args...>,
                  "acc::parallel: with reduction clauses the body takes the gang and then one T& per reduction, "
                  "in clause order, e.g. ACC_LAMBDA(const acc::gang_t& g, double& sum) { ... }");
    return false;
  } else if constexpr (!check_body_parallel<body_of_t<Args...>, void>()) {
    return false;
  } else if constexpr (reductions_by_value<body_of_t<Args...>, std::tuple<const gang_t&>,
                                           region_reductions_t<Args...>>()) {
    static_assert(dependent_false<Args...>,
                  "acc::parallel: the body's reduction parameters must be references it can write, T& s or "
                  "auto& s; a generic one taken by value or const reference (auto s, const auto& s, auto&& s) "
                  "would reduce a copy");
    return false;
  } else if constexpr (!body_copyable_v<body_of_t<Args...>>) {
    static_assert(dependent_false<Args...>,
                  "acc::parallel: the body must be copyable, as it is copied to every gang; capture by value");
    return false;
  } else {
    return true;
  }
}

/// acc::parallel once its call site is known: the checks, then the one dispatch.
template <class... Args>
void run_parallel(const std::source_location& where, Args&&... args) {
  if constexpr (check_region_args<Args...>()) {
    const call_site site{"parallel", where};
    static nvtx_site nvtx;  // constant-initialised: no guard per construct
    run_with_clauses(
        [&](const auto& spec, const auto& reds, const auto& body) {
          dispatch(region_task<std::remove_cvref_t<decltype(reds)>>{{}, reds}, spec, body, site, &nvtx);
        },
        std::as_const(args)...);
  } else if constexpr (construct_data_ok<Args...>()) {
    with_construct_data(
        call_site{"parallel", where}, [&](const auto&... rest) { run_parallel<decltype(rest)...>(where, rest...); },
        std::as_const(args)...);
  }
}

}  // namespace detail

/// Runs body(g) in every thread of every gang (OpenACC 3.3 §2.5.1 `parallel`): code outside
/// loops runs redundantly, acc::loop partitions loops over gangs, workers and vector lanes,
/// acc::loop_reduce reduces inside a gang, acc::single and acc::barrier order side effects.
/// - Clauses before the body: num_gangs (default: as many as fit on the device at once),
///   num_workers (1), vector_length (128; 32 with num_workers), shared_bytes (gang-shared
///   memory for g.shared<T>(n)), async, if_, device_num, default_present, and reduction(op,
///   var) (OpenACC 3.3 §2.5.15): the body then takes a T& per reduction after the gang. Each
///   gang has one private copy, starting at op's identity; update it in gang-redundant code,
///   gang loops or single(g, per_gang, ...) (a worker or vector loop's contribution comes in
///   through acc::loop_reduce); at the end var = op(var, every gang's copy). A region with
///   reductions returns when it is done, async or not. Data clauses (copy, copyin, ...) are a
///   data region around the construct, with its if_, async and device_num.
/// - On the host each gang is one thread; worker and vector loops run in order.
/// e.g. acc::parallel(acc::num_gangs(n), ACC_LAMBDA(const acc::gang_t& g) {
///        acc::loop(g, acc::gang, n, [&](int i) { acc::loop(g, acc::vector, m, [&](int j) { a(i, j) = i + j; }); });
///      });
///      double total = 0;
///      acc::parallel(acc::reduction(acc::plus, total), ACC_LAMBDA(const acc::gang_t& g, double& t) {
///        acc::loop(g, acc::gang, n, [&](int i) { t += acc::loop_reduce(g, acc::vector, m, acc::plus, [&](int j) { return a(i, j); }); });
///      });
///
/// Functions, not a class template: `acc::parallel(body);` with a named body would declare a
/// variable if acc::parallel named a type. The call site is a defaulted argument where the body
/// is the only argument, else the first clause's (each clause records where it was written; a
/// constant one, default_present or adaptive, is converted to a sited_clause that does).
template <class Body>
void parallel(Body&& body, std::source_location where = std::source_location::current()) {
  detail::run_parallel<Body>(where, std::forward<Body>(body));
}
template <class First, class... Rest>
  requires(sizeof...(Rest) >= 1 && !std::is_same_v<std::remove_cvref_t<First>, default_present_t> &&
           !std::is_same_v<std::remove_cvref_t<First>, adaptive_t>)
void parallel(First&& first, Rest&&... rest) {
  detail::run_parallel<First, Rest...>(detail::location_of(first, rest...), std::forward<First>(first),
                                       std::forward<Rest>(rest)...);
}
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void parallel(detail::sited_clause<default_present_t> first, Rest&&... rest) {
  detail::run_parallel<const default_present_t&, Rest...>(first.where, first.clause, std::forward<Rest>(rest)...);
}
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void parallel(detail::sited_clause<adaptive_t> first, Rest&&... rest) {
  detail::run_parallel<const adaptive_t&, Rest...>(first.where, first.clause, std::forward<Rest>(rest)...);
}
/// acc::parallel() without a body: a static_assert saying so.
template <int = 0>
void parallel(std::source_location where = std::source_location::current()) {
  detail::run_parallel<>(where);
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
