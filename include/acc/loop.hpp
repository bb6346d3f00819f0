//! @file acc::parallel_loop, OpenACC's `parallel loop` (OpenACC 3.3 §2.11, §2.9).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/body_checks.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/construct_data.hpp>
#include <acc/detail/devices.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/task.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

#include <acc/backend/host/loop.hpp>
#include <acc/backend/host/loop_reduction.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/loop.hpp>
#  include <acc/backend/cuda/loop_reduction.hpp>
#endif

#include <cstddef>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc {
namespace detail {

/// The index arguments of a rank-Rank loop's body, as a tuple.
template <class I, std::size_t Rank>
using loop_indices_t =
    std::conditional_t<Rank == 1, std::tuple<I>, std::conditional_t<Rank == 2, std::tuple<I, I>, std::tuple<I, I, I>>>;

#define ACC_DETAIL_LOOP_FUNCTION_ARGUMENT                                                            \
  "acc::parallel_loop: an argument is a function, not a clause: call it, e.g. acc::async(q) or acc::async(), " \
  "acc::num_gangs(n)"

/// The checks of parallel_loop's arguments, in the order a user would fix them; only the
/// first failure is reported, so the user sees one message rather than a cascade.
template <class Extent, class... Args>
constexpr bool check_loop_args() {
  if constexpr (!extent_traits<Extent>::valid) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_loop: the first argument must be an iteration count (an integer), "
                  "acc::range(lo, hi) or acc::collapse(n0, n1[, n2])");
    return false;
  } else if constexpr (sizeof...(Args) == 0) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_loop: the loop body is missing; "
                  "write acc::parallel_loop(n, ACC_LAMBDA(int i) { ... })");
    return false;
  } else if constexpr (std::is_function_v<std::remove_pointer_t<std::remove_cvref_t<body_of_t<Args...>>>>) {
    static_assert(dependent_false<Extent>, ACC_DETAIL_LOOP_FUNCTION_ARGUMENT);
    return false;
  } else if constexpr (is_device_only_lambda_v<body_of_t<Args...>>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_loop: the body is a device-only lambda, which the host cannot run (acc runs "
                  "bodies on the host too: no GPU, if_(false), ACC_DEVICE_TYPE=host); write it with ACC_LAMBDA");
    return false;
  } else if constexpr (!clauses_then_body<Args...>()) {
    // What is wrong with the arguments, looked for only once they are known to be wrong: every
    // check on the path of a correct call is compiled for every loop body. Data clauses among
    // the clauses are not wrong: the entry runs the loop inside a region of them.
    if constexpr (data_clauses_then_body<Args...>()) {
      static_assert(!has_delete_clause_v<Args...>, ACC_DETAIL_DELETE_ON_CONSTRUCT("parallel_loop"));
      static_assert(!has_devices_v<Args...>,
                    "acc::parallel_loop: data clauses do not go with acc::devices, where each device needs its "
                    "own copy; enter the data on each device first, acc::enter_data(acc::copyin(a), "
                    "acc::device_num(d))");
    } else if constexpr ((std::is_function_v<std::remove_pointer_t<std::remove_cvref_t<Args>>> || ...))
      static_assert(dependent_false<Extent>, ACC_DETAIL_LOOP_FUNCTION_ARGUMENT);
    else if constexpr (sizeof...(Args) > 1 && is_clause_v<body_of_t<Args...>>)
      static_assert(dependent_false<Extent>,
                    "acc::parallel_loop: a clause comes after the body; clauses come first, "
                    "parallel_loop(extent, clauses..., body)");
    else
      static_assert(dependent_false<Extent>,
                    "acc::parallel_loop: an argument between the extent and the body is not a clause; "
                    "clauses are acc::num_gangs, num_workers, vector_length, async, if_, device_num, "
                    "default_present, reduction, devices, adaptive, tuned and the data clauses (copy, copyin, "
                    "copyout, create, no_create, present, deviceptr), and the body comes last");
    return false;
  } else if constexpr (!clauses_accepted<construct::parallel_loop, Args...>()) {
    return false;
  } else {
    using Body = body_of_t<Args...>;
    using Index = typename extent_traits<Extent>::index_type;
    constexpr std::size_t rank = extent_traits<Extent>::rank;
    using Reds = clause_reductions_t<Args...>;
    using Indices = loop_indices_t<Index, rank>;
    if constexpr (std::tuple_size_v<Reds> > 0 && !invocable_with_reductions<Body, Indices, Reds, true>::value) {
      if constexpr (mutable_body<Body>())
        static_assert(dependent_false<Extent>, ACC_DETAIL_MUTABLE_BODY("parallel_loop"));
      else
        static_assert(dependent_false<Extent>,
                      "acc::parallel_loop: with reduction clauses the body takes the indices and then one T& per "
                      "reduction, in clause order, T the variable's own type (a float sum takes float&), e.g. "
                      "ACC_LAMBDA(int i, double& sum) { sum += x[i]; }");
      return false;
    } else if constexpr (std::tuple_size_v<Reds> == 0 && !invocable_with_rank_v<Body, Index, rank>) {
      if constexpr (mutable_body<Body>()) {
        static_assert(dependent_false<Extent>, ACC_DETAIL_MUTABLE_BODY("parallel_loop"));
      } else if constexpr (invocable_with_rank_v<Body, Index&, rank>) {
        static_assert(dependent_false<Extent>,
                      "acc::parallel_loop: the body takes its index by reference; indices are values: take int i "
                      "(or const int& i)");
      } else {
        static_assert(rank != 1 || dependent_false<Extent>,
                      "acc::parallel_loop: body must take one index for a count or range; "
                      "for body(i, j) pass acc::collapse(ni, nj)");
        static_assert(rank != 2 || dependent_false<Extent>,
                      "acc::parallel_loop: body must take two indices (i, j) for acc::collapse(ni, nj)");
        static_assert(rank != 3 || dependent_false<Extent>,
                      "acc::parallel_loop: body must take three indices (i, j, k) for acc::collapse(ni, nj, nk)");
      }
      return false;
    } else if constexpr (std::tuple_size_v<Reds> == 0 && !returns_void_with_rank_v<Body, Index, rank>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_loop: the body returns a value, which parallel_loop would discard; for a "
                    "reduction write acc::parallel_reduce(n, op, body) or acc::reduction(op, var)");
      return false;
    } else if constexpr (!check_body_parallel_loop<Body, Extent>()) {
      return false;
    } else if constexpr (reductions_by_value<Body, Indices, Reds>()) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_loop: the body's reduction parameters must be references it can write, "
                    "T& s or auto& s; a generic one taken by value or const reference (auto s, const auto& s, "
                    "auto&& s) would reduce a copy");
      return false;
    } else if constexpr (std::tuple_size_v<Reds> > 0 && has_devices_v<Args...>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_loop: acc::devices does not take reduction clauses; reduce each device's part "
                    "with acc::device_num(d) and combine the results");
      return false;
    } else if constexpr (!body_copyable_v<Body>) {
      static_assert(dependent_false<Extent>,
                    "acc::parallel_loop: the body must be copyable, as it is copied to every gang; "
                    "capture by value (ACC_LAMBDA) and do not capture move-only objects");
      return false;
    } else {
      return true;
    }
  }
}

#undef ACC_DETAIL_LOOP_FUNCTION_ARGUMENT

}  // namespace detail

/// Runs body(i) for every i of `extent`, in parallel (OpenACC 3.3 §2.11 `parallel loop`:
/// gangs over blocks, vector lanes over threads on a GPU; OpenMP threads on the host).
/// - `extent`: a count n (i in [0, n)), acc::range(lo, hi), or acc::collapse(n0, n1[, n2])
///   (body(i, j[, k])); the index type is the extent's integer type, 64-bit included.
/// - Clauses before the body: num_gangs, num_workers, vector_length, async(q), if_, device_num,
///   default_present, reduction(op, var) (the body then also takes a T& per reduction), devices
///   (iterations split across devices, acc/clauses.hpp), adaptive (host or GPU by measurement),
///   tuned (launch shape by measurement). Without async the call returns when every iteration
///   has run; with reductions it always does.
/// - Data clauses among the clauses (copy, copyin, copyout, create, no_create, present,
///   deviceptr) are a data region around the loop, with its if_, async and device_num (OpenACC
///   3.3 §2.5.1 `parallel loop copyin(a)`).
/// - Iterations must be independent, as OpenACC's `independent` loops.
/// e.g. acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] = a * x[i] + y[i]; });
///
/// parallel_loop is a class template only so that a defaulted std::source_location can follow
/// the argument pack; users call it as a function.
template <class Extent, class... Args>
struct parallel_loop {
  parallel_loop(Extent extent, Args&&... args, std::source_location where = std::source_location::current()) {
    if constexpr (detail::check_loop_args<Extent, Args...>()) {
      // nvcc's device pass generates no host code: of a loop without clauses it needs only the
      // kernels, which the construct's entry names (the entry the host pass dispatches to).
      if constexpr (detail::device_pass && sizeof...(Args) == 1) {
        (void)&detail::entry_of<detail::loop_task<detail::space_t<Extent>>, std::remove_cvref_t<Args>...>;
      } else {
        const detail::call_site site{"parallel_loop", where};
        static detail::nvtx_site nvtx;  // constant-initialised: no guard per construct
        if constexpr (sizeof...(Args) == 1) {
          // No clause, the common case: straight to the dispatch. The clauses' fold below costs
          // every body a generic lambda and two more instantiations (bench/compile).
          const auto [space, total] = detail::space_of(extent, site);
          detail::dispatch(detail::loop_task<detail::space_t<Extent>>{{}, space, total}, detail::launch_spec{},
                           std::as_const(args)..., site, &nvtx);
        } else {
          detail::run_with_clauses(
              [&](const auto& spec, const auto& reds, const auto& body) {
                const auto [space, total] = detail::space_of(extent, site);
                if constexpr (detail::has_devices_v<Args...>)
                  detail::run_on_devices(detail::devices_clause_of(args...), space, total, spec, body, site, &nvtx);
                else if constexpr (std::tuple_size_v<std::remove_cvref_t<decltype(reds)>> == 0)
                  detail::dispatch(detail::loop_task<detail::space_t<Extent>>{{}, space, total}, spec, body, site,
                                   &nvtx);
                else {
                  detail::dispatch(
                      detail::loop_reduction_task<detail::space_t<Extent>, std::remove_cvref_t<decltype(reds)>>{
                          {}, space, total, reds},
                      spec, body, site, &nvtx);
                  if (total == 0) detail::combine_identities(reds);
                }
              },
              std::as_const(args)...);
        }
      }
    } else if constexpr (detail::construct_data_ok<Args...>()) {
      detail::with_construct_data(
          detail::call_site{"parallel_loop", where},
          [&](const auto&... rest) {
            (void)parallel_loop<Extent, decltype(rest)...>(extent, rest..., where);
          },
          std::as_const(args)...);
    }
  }
};

template <class Extent, class... Args>
parallel_loop(Extent, Args&&...) -> parallel_loop<Extent, Args...>;

}  // namespace acc

#include <acc/detail/header_close.hpp>
