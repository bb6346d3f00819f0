//! @file acc::serial, OpenACC's `serial` construct (OpenACC 3.3 §2.5.2): a compute region run
//! by one gang of one worker with one vector lane.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/body_checks.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/construct_data.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/task.hpp>
#include <acc/error.hpp>

#include <acc/backend/host/serial.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/serial.hpp>
#endif

#include <source_location>
#include <type_traits>
#include <utility>

namespace acc {
namespace detail {

/// The checks of serial's arguments; only the first failure is reported.
template <class... Args>
constexpr bool check_serial_args() {
  if constexpr (sizeof...(Args) == 0) {
    static_assert(dependent_false<Args...>,
                  "acc::serial: the body is missing; write acc::serial(ACC_LAMBDA() { ... })");
    return false;
  } else if constexpr (!clauses_then_body<Args...>()) {
    // Data clauses among the clauses are not wrong: run_serial runs the body inside a data
    // region of them.
    if constexpr (data_clauses_then_body<Args...>())
      static_assert(!has_delete_clause_v<Args...>, ACC_DETAIL_DELETE_ON_CONSTRUCT("serial"));
    else
      static_assert(dependent_false<Args...>,
                    "acc::serial: an argument before the body is not a clause; clauses are acc::async, if_, "
                    "device_num, default_present, adaptive and the data clauses (copy, copyin, copyout, create, "
                    "no_create, present, deviceptr), and the body comes last");
    return false;
  } else if constexpr (!clauses_accepted<construct::serial, Args...>()) {
    return false;
  } else if constexpr (!std::is_invocable_v<const body_of_t<Args...>&>) {
    static_assert(!mutable_body<body_of_t<Args...>>(), ACC_DETAIL_MUTABLE_BODY("serial"));
    static_assert(mutable_body<body_of_t<Args...>>() || dependent_false<Args...>,
                  "acc::serial: the body takes no arguments: ACC_LAMBDA() { ... }");
    return false;
  } else if constexpr (!check_body_serial<body_of_t<Args...>, void>()) {
    return false;
  } else if constexpr (!body_copyable_v<body_of_t<Args...>>) {
    static_assert(dependent_false<Args...>,
                  "acc::serial: the body must be copyable, as it is copied to the device; capture by value");
    return false;
  } else {
    return true;
  }
}

/// acc::serial once its call site is known: the checks, then the one dispatch.
template <class... Args>
void run_serial(const std::source_location& where, Args&&... args) {
  if constexpr (check_serial_args<Args...>()) {
    const call_site site{"serial", where};
    static nvtx_site nvtx;  // constant-initialised: no guard per construct
    run_with_clauses([&](const auto& spec, const auto&, const auto& body) { dispatch(serial_task{}, spec, body, site, &nvtx); },
                     std::as_const(args)...);
  } else if constexpr (construct_data_ok<Args...>()) {
    with_construct_data(
        call_site{"serial", where}, [&](const auto&... rest) { run_serial<decltype(rest)...>(where, rest...); },
        std::as_const(args)...);
  }
}

}  // namespace detail

/// Runs body() once on the current device (OpenACC 3.3 §2.5.2 `serial`: one gang, one worker,
/// one vector lane), e.g. to set up or finish data that stays on the device without copying it
/// back and forth.
/// - Clauses before the body: async(q), if_ (false: on the host), device_num, default_present,
///   adaptive, and data clauses (copy, copyin, ...: a data region around the construct, with
///   its if_, async and device_num). Without async the call returns when the body has run.
/// - Captured acc::array / acc::view are mapped as for parallel_loop (implicit data: copy if
///   absent, copyin when const; default_present requires them present).
/// - A single GPU thread runs the body: keep it short, loops over large data belong in
///   parallel_loop.
/// e.g. acc::serial(ACC_LAMBDA() { a[0] = a[n - 1]; a[n + 1] = a[1]; });  // periodic halo
///
/// Functions, as acc::parallel's (acc/region.hpp says why), with the call site found the same way.
template <class Body>
void serial(Body&& body, std::source_location where = std::source_location::current()) {
  detail::run_serial<Body>(where, std::forward<Body>(body));
}
template <class First, class... Rest>
  requires(sizeof...(Rest) >= 1 && !std::is_same_v<std::remove_cvref_t<First>, default_present_t> &&
           !std::is_same_v<std::remove_cvref_t<First>, adaptive_t>)
void serial(First&& first, Rest&&... rest) {
  detail::run_serial<First, Rest...>(detail::location_of(first, rest...), std::forward<First>(first),
                                     std::forward<Rest>(rest)...);
}
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void serial(detail::sited_clause<default_present_t> first, Rest&&... rest) {
  detail::run_serial<const default_present_t&, Rest...>(first.where, first.clause, std::forward<Rest>(rest)...);
}
template <class... Rest>
  requires(sizeof...(Rest) >= 1)
void serial(detail::sited_clause<adaptive_t> first, Rest&&... rest) {
  detail::run_serial<const adaptive_t&, Rest...>(first.where, first.clause, std::forward<Rest>(rest)...);
}
/// acc::serial() without a body: a static_assert saying so.
template <int = 0>
void serial(std::source_location where = std::source_location::current()) {
  detail::run_serial<>(where);
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
