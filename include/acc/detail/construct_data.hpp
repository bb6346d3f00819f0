//! @file Data clauses on a compute construct (OpenACC 3.3 §2.5.1: `parallel loop copyin(a)`): the
//! construct runs inside a data region made of them.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/data_actions.hpp>
#include <acc/detail/devices.hpp>
#include <acc/error.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail {

/// A data clause (acc::copy, copyin, copyout, create, no_create, present, deviceptr, delete_).
template <class C>
inline constexpr bool is_data_clause_v = data_clause_kind<std::remove_cvref_t<C>>::is_data;

/// Whether the arguments are clauses and data clauses, at least one of them a data clause, and
/// then the body. Constructs ask only once their arguments are not plain clauses then a body,
/// so a construct without data clauses compiles none of this.
template <class... Args>
constexpr bool data_clauses_then_body() {
  constexpr std::size_t n = sizeof...(Args);
  if constexpr (n < 2) {
    return false;
  } else {
    constexpr bool data[] = {is_data_clause_v<Args>...};
    constexpr bool clause[] = {(is_clause_v<Args> || is_data_clause_v<Args>)...};
    bool any = false;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      if (!clause[i]) return false;
      any = any || data[i];
    }
    return any && !clause[n - 1];
  }
}

/// How many of Args... are clauses or data clauses before the first that is neither (constructs
/// that return a value take `clauses..., op, body[, init]`).
template <class... Args>
constexpr std::size_t leading_clause_or_data_count() {
  constexpr bool is[] = {(is_clause_v<Args> || is_data_clause_v<Args>)..., false};
  std::size_t k = 0;
  while (is[k]) ++k;
  return k;
}

/// The message for a delete_ among a construct's clauses (static_assert messages are literals).
#define ACC_DETAIL_DELETE_ON_CONSTRUCT(CONSTRUCT)                                                      \
  "acc::" CONSTRUCT ": delete_ is an acc::exit_data clause; a construct's own data clauses (copy, "  \
  "copyin, copyout, create, no_create, present, deviceptr) end with it anyway"

/// Whether a delete_ is among the arguments: an acc::exit_data clause, which no construct takes.
template <class... Args>
inline constexpr bool has_delete_clause_v =
    (std::is_same_v<std::remove_cvref_t<Args>, data_clause_t<data_kind::delete_>> || ...);

/// Whether a construct runs with_construct_data: data clauses it can take, then the body (the
/// construct's checks say what is wrong otherwise).
template <class... Args>
constexpr bool construct_data_ok() {
  return data_clauses_then_body<Args...>() && !has_delete_clause_v<Args...> && !has_devices_v<Args...>;
}

/// The positions of the arguments that are not data clauses, in order.
template <class... Args>
constexpr auto positions_of_other_args() {
  constexpr bool data[] = {is_data_clause_v<Args>..., false};
  std::array<std::size_t, sizeof...(Args) - data_clause_count<Args...>> at{};
  std::size_t k = 0;
  for (std::size_t i = 0; i < sizeof...(Args); ++i)
    if (!data[i]) at[k++] = i;
  return at;
}

/// Returns `run(rest...)`, where rest is `args` without their data clauses, run inside a data
/// region of those clauses with the construct's if_, async and device_num (OpenACC 3.3 §2.5.1):
/// the data is entered before the construct and copied out and freed after it, on its async
/// queue, and not at all with if_(false), where the construct runs on the host. `site` names
/// the construct.
template <class Run, class... Args>
decltype(auto) with_construct_data(const call_site& site, Run&& run, const Args&... args) {
  constexpr auto rest_at = positions_of_other_args<Args...>();
  const auto all = std::forward_as_tuple(args...);
  structured_region<data_clause_count<Args...>> region;
  region.enter(site, args...);
  return [&]<std::size_t... K>(std::index_sequence<K...>) -> decltype(auto) {
    return run(std::get<rest_at[K]>(all)...);
  }(std::make_index_sequence<rest_at.size()>{});
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
