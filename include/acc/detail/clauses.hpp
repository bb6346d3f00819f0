//! @file The one clause parser: which clauses each construct accepts (the table), and the
//! fold of a construct's clauses into one launch_spec, so backends never see a pack.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/error.hpp>

#include <cstddef>
#include <source_location>
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
  // acc::devices: captured arrays may be present on the device only in part (in_parts: a part
  // of a split loop, where an absent array is an error; in_parts_or_copied: the clause named
  // one device, where an absent array is copied in and out as without the clause).
  enum class presence : unsigned char { whole, in_parts, in_parts_or_copied } parts = presence::whole;
  std::size_t shared_bytes = 0;
  // acc::adaptive / acc::tuned (select_adaptive / select_tuned): placement and launch chosen by
  // measurement (detail/selection.hpp).
  unsigned char select = 0;
  // The first count clause given a value below 1; reported by check_spec, which knows the site.
  const char* bad_count_clause = nullptr;
  int bad_count = 0;
};

// ---- the table --------------------------------------------------------------------------------

inline constexpr unsigned char select_adaptive = 1, select_tuned = 2;

/// One bit per kind of clause. Clause kinds outside this file (tile_loop's) add theirs by
/// specialising clause_kind.
namespace clause_bit {
inline constexpr unsigned num_gangs = 1u << 0, num_workers = 1u << 1, vector_length = 1u << 2, async = 1u << 3,
                          if_ = 1u << 4, device_num = 1u << 5, default_present = 1u << 6, shared_bytes = 1u << 7,
                          reduction = 1u << 8, tile_size = 1u << 9, cache_bytes = 1u << 10, cached = 1u << 11,
                          devices = 1u << 12, adaptive = 1u << 13, tuned = 1u << 14;
}

/// The kind of a clause type; 0 for anything that is not a clause.
template <class C> struct clause_kind : std::integral_constant<unsigned, 0> {};
template <> struct clause_kind<num_gangs_t> : std::integral_constant<unsigned, clause_bit::num_gangs> {};
template <> struct clause_kind<num_workers_t> : std::integral_constant<unsigned, clause_bit::num_workers> {};
template <> struct clause_kind<vector_length_t> : std::integral_constant<unsigned, clause_bit::vector_length> {};
template <> struct clause_kind<async_t> : std::integral_constant<unsigned, clause_bit::async> {};
template <> struct clause_kind<if_t> : std::integral_constant<unsigned, clause_bit::if_> {};
template <> struct clause_kind<device_num_t> : std::integral_constant<unsigned, clause_bit::device_num> {};
template <> struct clause_kind<default_present_t> : std::integral_constant<unsigned, clause_bit::default_present> {};
template <> struct clause_kind<shared_bytes_t> : std::integral_constant<unsigned, clause_bit::shared_bytes> {};
template <> struct clause_kind<devices_t> : std::integral_constant<unsigned, clause_bit::devices> {};
template <> struct clause_kind<adaptive_t> : std::integral_constant<unsigned, clause_bit::adaptive> {};
template <> struct clause_kind<tuned_t> : std::integral_constant<unsigned, clause_bit::tuned> {};
template <class Op, class T>
struct clause_kind<reduction_t<Op, T>> : std::integral_constant<unsigned, clause_bit::reduction> {};

template <class C>
inline constexpr unsigned clause_kind_v = clause_kind<std::remove_cvref_t<C>>::value;
template <class C>
inline constexpr bool is_clause_v = clause_kind_v<C> != 0;
template <class C>
inline constexpr bool is_reduction_clause_v = clause_kind_v<C> == clause_bit::reduction;

/// The constructs, each with the clauses it accepts (OpenACC 3.3 §2.5.1, §2.5.3, §2.11;
/// tile_loop and the scans are acc's own). A clause means the same wherever it is accepted.
/// acc::tuned only where results cannot depend on the launch shape (no gang-redundant code).
namespace construct {
using namespace clause_bit;
inline constexpr unsigned queue_and_place = async | if_ | device_num | default_present;
inline constexpr unsigned shape = num_gangs | num_workers | vector_length;
struct parallel_loop { static constexpr unsigned accepts = shape | queue_and_place | reduction | devices | adaptive | tuned; };
struct parallel {
  static constexpr unsigned accepts = shape | shared_bytes | queue_and_place | reduction | adaptive;
};
struct serial { static constexpr unsigned accepts = queue_and_place | adaptive; };
struct parallel_reduce { static constexpr unsigned accepts = shape | queue_and_place | adaptive | tuned; };
struct scan { static constexpr unsigned accepts = queue_and_place; };
struct parallel_scan { static constexpr unsigned accepts = queue_and_place | adaptive; };
struct tile_loop {
  static constexpr unsigned accepts =
      num_gangs | vector_length | queue_and_place | tile_size | cache_bytes | cached | adaptive;
};
}  // namespace construct

/// The clause kinds among C... that Construct does not accept.
template <class Construct, class... C>
inline constexpr unsigned rejected_clauses_v = (clause_kind_v<C> | ... | 0u) & ~Construct::accepts;

/// Whether every C... is a clause.
template <class... C>
inline constexpr bool all_clauses_v = (is_clause_v<C> && ...);

/// Whether a clause kind occurs more than once among C... (reduction and cached may repeat).
template <class... C>
constexpr bool repeats_a_clause() {
  constexpr unsigned kinds[] = {clause_kind_v<C>..., 0u};
  constexpr unsigned may_repeat = clause_bit::reduction | clause_bit::cached;
  unsigned seen = 0;
  for (unsigned k : kinds) {
    if (k & seen & ~may_repeat) return true;
    seen |= k;
  }
  return false;
}

// static_assert messages must be literals, so each construct's row spells its name and its
// accepted clauses; the macro only stamps out one assert per clause kind.
#define ACC_DETAIL_REJECT(Bit, Clause)                                                               \
  static_assert(!(Rejected & clause_bit::Bit), "acc::" ACC_DETAIL_NAME ": acc::" Clause              \
                                               " is not a clause of this construct; it accepts " \
                                               ACC_DETAIL_ACCEPTED)
#define ACC_DETAIL_CLAUSE_ROW(Construct)                                                        \
  template <unsigned Rejected, bool Repeats>                                                    \
  struct clause_check<construct::Construct, Rejected, Repeats> {                                \
    ACC_DETAIL_REJECT(num_gangs, "num_gangs");                                                  \
    ACC_DETAIL_REJECT(num_workers, "num_workers");                                              \
    ACC_DETAIL_REJECT(vector_length, "vector_length");                                          \
    ACC_DETAIL_REJECT(async, "async");                                                          \
    ACC_DETAIL_REJECT(if_, "if_");                                                              \
    ACC_DETAIL_REJECT(device_num, "device_num");                                                \
    ACC_DETAIL_REJECT(default_present, "default_present");                                      \
    ACC_DETAIL_REJECT(shared_bytes, "shared_bytes (gang-shared memory is acc::parallel's)");    \
    ACC_DETAIL_REJECT(reduction, "reduction");                                                  \
    ACC_DETAIL_REJECT(tile_size, "tile_size");                                                  \
    ACC_DETAIL_REJECT(cache_bytes, "cache_bytes");                                              \
    ACC_DETAIL_REJECT(cached, "cached (or scratch)");                                           \
    ACC_DETAIL_REJECT(devices, "devices (splitting across devices is parallel_loop's)");        \
    ACC_DETAIL_REJECT(adaptive, "adaptive");                                                    \
    ACC_DETAIL_REJECT(tuned, "tuned (the launch shape must not change results)");               \
    static_assert(!Repeats, "acc::" ACC_DETAIL_NAME ": a clause is given twice; give each once " \
                            "(only reduction, cached and scratch may repeat)");               \
    static constexpr bool ok = Rejected == 0 && !Repeats;                                       \
  }

template <class Construct, unsigned Rejected, bool Repeats>
struct clause_check;

#define ACC_DETAIL_NAME "parallel_loop"
#define ACC_DETAIL_ACCEPTED \
  "num_gangs, num_workers, vector_length, async, if_, device_num, default_present, reduction, devices, adaptive, tuned"
ACC_DETAIL_CLAUSE_ROW(parallel_loop);
#undef ACC_DETAIL_NAME
#undef ACC_DETAIL_ACCEPTED
#define ACC_DETAIL_NAME "parallel"
#define ACC_DETAIL_ACCEPTED \
  "num_gangs, num_workers, vector_length, shared_bytes, async, if_, device_num, default_present, reduction, adaptive"
ACC_DETAIL_CLAUSE_ROW(parallel);
#undef ACC_DETAIL_NAME
#undef ACC_DETAIL_ACCEPTED
#define ACC_DETAIL_NAME "serial"
#define ACC_DETAIL_ACCEPTED \
  "async, if_, device_num, default_present, adaptive (one gang, one worker, one vector lane)"
ACC_DETAIL_CLAUSE_ROW(serial);
#undef ACC_DETAIL_NAME
#undef ACC_DETAIL_ACCEPTED
#define ACC_DETAIL_NAME "parallel_reduce"
#define ACC_DETAIL_ACCEPTED \
  "num_gangs, num_workers, vector_length, async, if_, device_num, default_present, adaptive, tuned (the result is " \
  "returned)"
ACC_DETAIL_CLAUSE_ROW(parallel_reduce);
#undef ACC_DETAIL_NAME
#undef ACC_DETAIL_ACCEPTED
#define ACC_DETAIL_NAME "inclusive_scan / exclusive_scan"
#define ACC_DETAIL_ACCEPTED "async, if_, device_num, default_present"
ACC_DETAIL_CLAUSE_ROW(scan);
#undef ACC_DETAIL_NAME
#undef ACC_DETAIL_ACCEPTED
#define ACC_DETAIL_NAME "parallel_scan"
#define ACC_DETAIL_ACCEPTED "async, if_, device_num, default_present, adaptive"
ACC_DETAIL_CLAUSE_ROW(parallel_scan);
#undef ACC_DETAIL_NAME
#undef ACC_DETAIL_ACCEPTED
#define ACC_DETAIL_NAME "tile_loop"
#define ACC_DETAIL_ACCEPTED \
  "tile_size, cached (and dist_*), scratch, cache_bytes, num_gangs, vector_length, async, if_, device_num, "      \
  "default_present, adaptive"
ACC_DETAIL_CLAUSE_ROW(tile_loop);
#undef ACC_DETAIL_NAME
#undef ACC_DETAIL_ACCEPTED
#undef ACC_DETAIL_CLAUSE_ROW
#undef ACC_DETAIL_REJECT

/// True when Construct accepts every clause C... (each at most once); otherwise the
/// static_asserts of clause_check name the construct, the clause and what it accepts.
template <class Construct, class... C>
constexpr bool check_clauses() {
  return clause_check<Construct, rejected_clauses_v<Construct, C...>, repeats_a_clause<C...>()>::ok;
}

// ---- the fold ---------------------------------------------------------------------------------

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
constexpr void apply_clause(launch_spec& s, if_t c) { s.if_ = c.value; }
constexpr void apply_clause(launch_spec& s, device_num_t c) { s.device_num = c.value; }
constexpr void apply_clause(launch_spec& s, default_present_t) { s.default_present = true; }
constexpr void apply_clause(launch_spec& s, shared_bytes_t c) { s.shared_bytes = c.value; }
constexpr void apply_clause(launch_spec& s, adaptive_t) { s.select |= select_adaptive; }
constexpr void apply_clause(launch_spec& s, tuned_t) { s.select |= select_tuned; }
/// Clauses the launch_spec has no field for (reductions, tile_loop's) are gathered elsewhere.
template <class C>
constexpr void apply_clause(launch_spec&, const C&) {}

/// The launch_spec of a construct's clauses.
template <class... C>
constexpr launch_spec fold_clauses(const C&... c) {
  launch_spec s;
  (apply_clause(s, c), ...);
  return s;
}

/// The reduction clauses among a construct's clauses, in order, as a tuple.
template <class... C>
constexpr auto reductions_of(const C&... c) {
  return std::tuple_cat([](const auto& x) {
    if constexpr (is_reduction_clause_v<decltype(x)>) return std::tuple(x);
    else return std::tuple<>();
  }(c)...);
}
template <class... C>
using reductions_t = decltype(reductions_of(std::declval<const C&>()...));

/// Where the first clause that knows its line was written (see acc/clauses.hpp); for
/// constructs whose location cannot be a defaulted parameter.
template <class... C>
constexpr std::source_location location_of(const C&... c) {
  std::source_location where{};
  [[maybe_unused]] const auto take = [&](const auto& x) {
    if constexpr (requires { x.where; })
      if (where.line() == 0) where = x.where;
  };
  (take(c), ...);
  return where;
}

/// Clauses that are constants and so know no line: given first to a construct that returns a
/// value, they are converted to sited_clause, whose defaulted argument is the call's line.
template <class C>
inline constexpr bool knows_no_line_v =
    std::is_same_v<C, adaptive_t> || std::is_same_v<C, tuned_t> || std::is_same_v<C, default_present_t>;
template <class C>
struct sited_clause {
  C clause;
  std::source_location where;
  sited_clause(const C& c, std::source_location w = std::source_location::current()) noexcept : clause(c), where(w) {}
};

/// Values no device accepts, whatever the device: these do not depend on where it runs.
ACC_DETAIL_NOINLINE inline void check_spec(const launch_spec& s, const call_site& site) {
  if (s.bad_count_clause)
    fail<bad_clause>(site, std::string(s.bad_count_clause) + "(" + std::to_string(s.bad_count) + ") must be at least 1");
  if (s.queue < 0 && s.queue != queue_sync && s.queue != queue_noval)
    fail<bad_clause>(site, "async(" + std::to_string(s.queue) +
                               ") is not a queue; use a queue number >= 0, acc::async_noval or acc::async_sync");
  if (s.device_num < -1) fail<bad_clause>(site, "device_num(" + std::to_string(s.device_num) + ") is negative");
}

// ---- constructs written `construct(clauses..., body)` -------------------------------------

/// A construct's arguments are `clauses..., body`: the body is the last one.
template <class... Args>
using body_of_t = std::remove_cvref_t<std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>>;

template <class Seq, class Tuple> struct first_of;
template <std::size_t... I, class Tuple>
struct first_of<std::index_sequence<I...>, Tuple> {
  using type = std::tuple<std::remove_cvref_t<std::tuple_element_t<I, Tuple>>...>;
};
/// The first N types of Args... as a std::tuple of their decayed types.
template <std::size_t N, class... Args>
using first_of_t = typename first_of<std::make_index_sequence<N>, std::tuple<Args...>>::type;

template <std::size_t From, class Seq, class Tuple> struct slice;
template <std::size_t From, std::size_t... I, class Tuple>
struct slice<From, std::index_sequence<I...>, Tuple> {
  using type = std::tuple<std::remove_cvref_t<std::tuple_element_t<From + I, Tuple>>...>;
};
/// The types of Tuple from index From on, decayed.
template <std::size_t From, class Tuple>
using tail_of_t = typename slice<From, std::make_index_sequence<std::tuple_size_v<Tuple> - From>, Tuple>::type;

template <class Tuple> struct clause_pack;
template <class... C> struct clause_pack<std::tuple<C...>> {
  static constexpr bool all = all_clauses_v<C...>;
  template <class Construct>
  static constexpr bool accepted() { return check_clauses<Construct, C...>(); }
  using reductions = reductions_t<C...>;
};
template <class... Args>
using leading_clauses = clause_pack<first_of_t<sizeof...(Args) - 1, Args...>>;

/// Whether every argument before the last (the body) is a clause.
template <class... Args>
constexpr bool clauses_then_body() { return leading_clauses<Args...>::all; }
/// Whether Construct accepts the clauses before the body (else a static_assert says why).
template <class Construct, class... Args>
constexpr bool clauses_accepted() { return leading_clauses<Args...>::template accepted<Construct>(); }
/// The reduction clauses before the body, as a tuple type.
template <class... Args>
using clause_reductions_t = typename leading_clauses<Args...>::reductions;

/// How many of Args... are clauses before the first that is not: constructs that return a
/// value take `clauses..., op, body[, init]`.
template <class... Args>
constexpr std::size_t leading_clause_count() {
  constexpr bool is[] = {is_clause_v<Args>..., false};
  std::size_t k = 0;
  while (is[k]) ++k;
  return k;
}

/// Calls f(launch_spec, where the first clause was written, rest...) for arguments
/// `clauses..., rest...` (constructs that return a value: rest is op, body[, init]).
template <class F, class... Args>
decltype(auto) with_leading_clauses(F&& f, const Args&... args) {
  constexpr std::size_t k = leading_clause_count<Args...>();
  const auto all = std::forward_as_tuple(args...);
  return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) -> decltype(auto) {
    return f(fold_clauses(std::get<I>(all)...), location_of(std::get<I>(all)...), std::get<k + J>(all)...);
  }(std::make_index_sequence<k>{}, std::make_index_sequence<sizeof...(Args) - k>{});
}

/// Calls f(launch_spec, reductions tuple, body) for arguments `clauses..., body`.
template <class F, class... Args>
decltype(auto) run_with_clauses(F&& f, const Args&... args) {
  const auto all = std::forward_as_tuple(args...);
  return [&]<std::size_t... I>(std::index_sequence<I...>) -> decltype(auto) {
    return f(fold_clauses(std::get<I>(all)...), reductions_of(std::get<I>(all)...), std::get<sizeof...(I)>(all));
  }(std::make_index_sequence<sizeof...(Args) - 1>{});
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
