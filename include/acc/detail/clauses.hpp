//! @file Folds a construct's clause pack into one launch_spec, so backends never see a pack.
#pragma once

#include <acc/clauses.hpp>
#include <acc/error.hpp>

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail {

/// For static_asserts in discarded branches: false, but only once the branch is instantiated.
template <class...>
inline constexpr bool dependent_false = false;

/// Everything the clauses of one compute construct said; 0 / -1 mean "not given".
struct launch_spec {
  int num_gangs = 0;
  int num_workers = 0;
  int vector_length = 0;
  int queue = queue_sync;
  bool if_ = true;
  int device_num = -1;
  bool default_present = false;
  std::size_t shared_bytes = 0;
  // The first count clause given a value below 1; reported by check_spec, which knows the site.
  const char* bad_count_clause = nullptr;
  int bad_count = 0;
};

template <class C> struct is_compute_clause : std::false_type {};
template <> struct is_compute_clause<num_gangs_t> : std::true_type {};
template <> struct is_compute_clause<num_workers_t> : std::true_type {};
template <> struct is_compute_clause<vector_length_t> : std::true_type {};
template <> struct is_compute_clause<async_t> : std::true_type {};
template <> struct is_compute_clause<if_t> : std::true_type {};
template <> struct is_compute_clause<device_num_t> : std::true_type {};
template <> struct is_compute_clause<default_present_t> : std::true_type {};
template <> struct is_compute_clause<shared_bytes_t> : std::true_type {};
template <class Op, class T> struct is_compute_clause<reduction_t<Op, T>> : std::true_type {};

template <class C> struct is_reduction_clause : std::false_type {};
template <class Op, class T> struct is_reduction_clause<reduction_t<Op, T>> : std::true_type {};
template <class C>
inline constexpr bool is_reduction_clause_v = is_reduction_clause<std::remove_cvref_t<C>>::value;

template <class C>
inline constexpr bool is_compute_clause_v = is_compute_clause<std::remove_cvref_t<C>>::value;

constexpr void apply_count(launch_spec& s, int& field, int value, const char* clause) {
  if (value < 1 && !s.bad_count_clause) {
    s.bad_count_clause = clause;
    s.bad_count = value;
  }
  field = value;
}
constexpr void apply_clause(launch_spec& s, num_gangs_t c) { apply_count(s, s.num_gangs, c.value, "num_gangs"); }
constexpr void apply_clause(launch_spec& s, num_workers_t c) { apply_count(s, s.num_workers, c.value, "num_workers"); }
constexpr void apply_clause(launch_spec& s, vector_length_t c) {
  apply_count(s, s.vector_length, c.value, "vector_length");
}
constexpr void apply_clause(launch_spec& s, async_t c) { s.queue = c.queue; }
constexpr void apply_clause(launch_spec& s, if_t c) { s.if_ = s.if_ && c.value; }
constexpr void apply_clause(launch_spec& s, device_num_t c) { s.device_num = c.value; }
constexpr void apply_clause(launch_spec& s, default_present_t) { s.default_present = true; }
constexpr void apply_clause(launch_spec& s, shared_bytes_t c) { s.shared_bytes = c.value; }
// Reductions are gathered separately (reductions_of), not into the launch_spec.
template <class Op, class T>
constexpr void apply_clause(launch_spec&, const reduction_t<Op, T>&) {}

/// The reduction clauses among a construct's clauses, in order, as a tuple.
template <class... C>
constexpr auto reductions_of(const C&... c) {
  return std::tuple_cat([](const auto& x) {
    if constexpr (is_reduction_clause_v<decltype(x)>) return std::tuple(x);
    else return std::tuple<>();
  }(c)...);
}

/// The reduction clauses among a construct's first I... arguments.
template <class Tuple, std::size_t... I>
constexpr auto reductions_in(const Tuple& args, std::index_sequence<I...>) {
  return reductions_of(std::get<I>(args)...);
}

/// Whether the first elements I... of a construct's argument tuple are all clauses.
template <class Tuple, std::size_t... I>
constexpr bool all_compute_clauses(std::index_sequence<I...>) {
  return (is_compute_clause_v<std::tuple_element_t<I, Tuple>> && ...);
}

template <class Tuple, std::size_t... I>
constexpr launch_spec fold_clauses(const Tuple& args, std::index_sequence<I...>) {
  launch_spec s;
  (apply_clause(s, std::get<I>(args)), ...);
  return s;
}

/// A construct's arguments are `clauses..., body`: the body is the last one.
template <class... Args>
using body_of_t = std::remove_cvref_t<std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>>;

/// Splits `clauses..., body` into the folded clauses and a reference to the body.
template <class... Args>
constexpr auto split_clauses(Args&... args) {
  auto all = std::forward_as_tuple(args...);
  constexpr std::size_t n = sizeof...(Args);
  return std::pair<launch_spec, const body_of_t<Args...>&>(fold_clauses(all, std::make_index_sequence<n - 1>{}),
                                                          std::get<n - 1>(all));
}

/// Values no device accepts, whatever the device: these do not depend on where it runs.
inline void check_spec(const launch_spec& s, const call_site& site) {
  if (s.bad_count_clause)
    fail<bad_clause>(site, std::string(s.bad_count_clause) + "(" + std::to_string(s.bad_count) + ") must be at least 1");
  if (s.queue < 0 && s.queue != queue_sync && s.queue != queue_noval)
    fail<bad_clause>(site, "async(" + std::to_string(s.queue) +
                               ") is not a queue; use a queue number >= 0, acc::async_noval or acc::async_sync");
  if (s.device_num < -1) fail<bad_clause>(site, "device_num(" + std::to_string(s.device_num) + ") is negative");
}

}  // namespace acc::detail
