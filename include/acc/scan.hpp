//! @file Scans (prefix sums): acc::inclusive_scan / exclusive_scan over data, acc::parallel_scan
//! (a loop whose iterations see the prefix of the ones before). acc::loop_scan, the scan inside a
//! gang, is in gang.hpp.
//! OpenACC 3.3 has no scan; Xu et al. (2016, §4.1.7) proposed a `scan` clause for it.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/body_checks.hpp>
#include <acc/array.hpp>
#include <acc/clauses.hpp>
#include <acc/data.hpp>
#include <acc/detail/capture.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/construct_data.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/scan_value.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>
#include <acc/runtime.hpp>

#include <acc/backend/host/scan.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/scan.hpp>
#endif

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc {
namespace detail {

// The scans move their own data: a data clause passed to one is refused with this.
#define ACC_DETAIL_SCAN_DATA_CLAUSE(Name)                                                            \
  "acc::" Name ": takes no data clauses; present data is used on the device and absent data "   \
  "copied in and out for the call; for data that stays on the device put an acc::data region "     \
  "around the scans"

// ---- inclusive_scan / exclusive_scan ---------------------------------------------------------

/// A rank-1 acc::array or acc::view: element type, and whether it is one.
template <class X> struct scan_data { static constexpr bool valid = false; static constexpr std::size_t rank = 0; };
template <class T, std::size_t R> struct scan_data<view<T, R>> {
  static constexpr bool valid = true;
  static constexpr std::size_t rank = R;
  using element = T;
};
template <class T, std::size_t R> struct scan_data<array<T, R>> {
  static constexpr bool valid = true;
  static constexpr std::size_t rank = R;
  using element = T;
};
template <class X>
using scan_data_t = scan_data<std::remove_cvref_t<X>>;

template <class X>
inline constexpr bool is_scan_pointer_v = std::is_pointer_v<std::remove_cvref_t<X>>;

/// Where the optional op and the clauses start in a scan's arguments after the data: the
/// pointer form has (n, out), the array form (b); exclusive scans add init.
template <bool Exclusive, class First>
constexpr std::size_t scan_fixed_args() {
  return (is_scan_pointer_v<First> ? 2 : 1) + (Exclusive ? 1 : 0);
}

template <class Tuple, std::size_t From, std::size_t... I>
constexpr bool clauses_from(std::index_sequence<I...>) {
  return (is_clause_v<std::tuple_element_t<From + I, Tuple>> && ...);
}

/// Whether the argument after the fixed ones is an operator (not a clause).
template <class Tuple, std::size_t Fixed>
constexpr bool scan_has_op() {
  if constexpr (std::tuple_size_v<Tuple> > Fixed) return !is_clause_v<std::tuple_element_t<Fixed, Tuple>>;
  else return false;
}

template <class Tuple, std::size_t Fixed>
struct scan_op_of {
  using type = plus_t;
};
template <class Tuple, std::size_t Fixed>
  requires(scan_has_op<Tuple, Fixed>())
struct scan_op_of<Tuple, Fixed> {
  using type = std::remove_cvref_t<std::tuple_element_t<Fixed, Tuple>>;
};

/// The element types of a scan's input and output (void when the arguments have no such shape).
template <class First, class Args, bool Pointer = is_scan_pointer_v<First>>
struct scan_types {
  using in = void;
  using out = void;
};
template <class First, class Args>
struct scan_types<First, Args, true> {
  using in = std::remove_pointer_t<std::remove_cvref_t<First>>;
  using out = std::conditional_t<(std::tuple_size_v<Args> >= 2),
                                 std::remove_pointer_t<std::remove_cvref_t<std::tuple_element_t<1, Args>>>, void>;
};
template <class First, class Args>
  requires(scan_data_t<First>::valid && std::tuple_size_v<Args> >= 1 &&
           scan_data_t<std::tuple_element_t<0, Args>>::valid)
struct scan_types<First, Args, false> {
  using in = typename scan_data_t<First>::element;
  using out = typename scan_data_t<std::tuple_element_t<0, Args>>::element;
};

/// (n, out): an integer count and a pointer (the pointer form; at least two arguments).
template <bool Pointer, class Tuple>
struct pointer_scan_shape {
  static constexpr bool value = true;  // not the pointer form: nothing to check here
};
template <class Tuple>
struct pointer_scan_shape<true, Tuple> {
  static constexpr bool value = std::is_integral_v<std::remove_cvref_t<std::tuple_element_t<0, Tuple>>> &&
                                std::is_pointer_v<std::remove_cvref_t<std::tuple_element_t<1, Tuple>>>;
};
template <bool Pointer, class Tuple>
constexpr bool array_scan_valid() {
  if constexpr (Pointer) return true;
  else return scan_data_t<std::tuple_element_t<0, Tuple>>::valid;
}
template <bool Pointer, class Tuple>
constexpr bool array_scan_rank_one() {
  if constexpr (Pointer) return true;
  else return scan_data_t<std::tuple_element_t<0, Tuple>>::rank == 1;
}

/// The checks of inclusive_scan / exclusive_scan's arguments; only the first failure is reported.
template <bool Exclusive, class First, class... Args>
constexpr bool check_scan_args() {
  using Tuple = std::tuple<Args...>;
  constexpr std::size_t fixed = scan_fixed_args<Exclusive, First>();
  if constexpr (!is_scan_pointer_v<First> && !scan_data_t<First>::valid) {
    static_assert(dependent_false<First>,
                  "acc::inclusive_scan / exclusive_scan: the first argument must be a pointer (first, n, out) or "
                  "an acc::array / acc::view (a, b)");
    return false;
  } else if constexpr (sizeof...(Args) < fixed) {
    static_assert(!Exclusive || dependent_false<First>,
                  "acc::exclusive_scan: arguments missing; write exclusive_scan(first, n, out, init[, op]) or "
                  "exclusive_scan(a, b, init[, op])");
    static_assert(Exclusive || dependent_false<First>,
                  "acc::inclusive_scan: arguments missing; write inclusive_scan(first, n, out[, op]) or "
                  "inclusive_scan(a, b[, op])");
    return false;
  } else if constexpr (!pointer_scan_shape<is_scan_pointer_v<First>, Tuple>::value) {
    static_assert(dependent_false<First>,
                  "acc::inclusive_scan / exclusive_scan: with a pointer, the next arguments are the element count "
                  "and the output pointer: (first, n, out)");
    return false;
  } else if constexpr (!array_scan_valid<is_scan_pointer_v<First>, Tuple>()) {
    static_assert(dependent_false<First>,
                  "acc::inclusive_scan / exclusive_scan: with an array or view, the output must be an acc::array "
                  "or acc::view too: (a, b)");
    return false;
  } else if constexpr (!is_scan_pointer_v<First> &&
                       (scan_data_t<First>::rank != 1 || !array_scan_rank_one<is_scan_pointer_v<First>, Tuple>())) {
    static_assert(dependent_false<First>,
                  "acc::inclusive_scan / exclusive_scan: arrays and views must have rank 1; scan a rank-1 "
                  "acc::view over the elements instead");
    return false;
  } else {
    using In = typename scan_types<First, Tuple>::in;
    using Out = typename scan_types<First, Tuple>::out;
    using V = std::remove_cv_t<Out>;
    using Op = typename scan_op_of<Tuple, fixed>::type;
    constexpr std::size_t first_clause = fixed + (scan_has_op<Tuple, fixed>() ? 1 : 0);
    if constexpr (std::is_const_v<Out>) {
      static_assert(dependent_false<First>,
                    "acc::inclusive_scan / exclusive_scan: the output is const; pass a non-const pointer, "
                    "acc::array or acc::view for the result");
      return false;
    } else if constexpr (!std::is_trivially_copyable_v<V> || !std::is_trivially_copyable_v<std::remove_cv_t<In>>) {
      static_assert(dependent_false<First>,
                    "acc::inclusive_scan / exclusive_scan: element types must be trivially copyable, as they are "
                    "copied between host and device bytewise");
      return false;
    } else if constexpr (!std::is_default_constructible_v<V>) {
      static_assert(dependent_false<First>,
                    "acc::inclusive_scan / exclusive_scan: the output's element type must be default constructible "
                    "(the scan's partial sums are made before they are assigned)");
      return false;
    } else if constexpr (atomic_only_op<Op>) {
      static_assert(dependent_false<First>,
                    "acc::inclusive_scan / exclusive_scan: acc::minus, acc::divides, acc::shift_left and "
                    "acc::shift_right are atomic operators, not scan operators: a scan combines partial results in "
                    "any grouping, so its op must be associative (acc::plus, acc::maximum, ... or your own)");
      return false;
    } else if constexpr (!std::is_convertible_v<const In&, V>) {
      static_assert(dependent_false<First>,
                    "acc::inclusive_scan / exclusive_scan: the input elements do not convert to the output's "
                    "element type, in which the scan accumulates");
      return false;
    } else if constexpr (Exclusive && !std::is_convertible_v<const std::tuple_element_t<fixed - 1, Tuple>&, V>) {
      static_assert(dependent_false<First>,
                    "acc::exclusive_scan: init does not convert to the output's element type; write "
                    "exclusive_scan(first, n, out, init[, op]) with init of that type");
      return false;
    } else if constexpr ((is_data_clause_v<Args> || ...)) {
      static_assert(dependent_false<First>, ACC_DETAIL_SCAN_DATA_CLAUSE("inclusive_scan / exclusive_scan"));
      return false;
    } else if constexpr (!std::is_invocable_r_v<V, const Op&, V, V> || !std::is_copy_constructible_v<Op>) {
      static_assert(dependent_false<First>,
                    "acc::inclusive_scan / exclusive_scan: op cannot combine two values of the output's element "
                    "type; use acc::plus, acc::maximum, ... or a copyable ACC_ROUTINE callable T(T, T)");
      return false;
    } else if constexpr (!clauses_from<Tuple, first_clause>(
                             std::make_index_sequence<sizeof...(Args) - first_clause>{})) {
      static_assert(dependent_false<First>,
                    "acc::inclusive_scan / exclusive_scan: after the operator only clauses may follow "
                    "(acc::async, acc::if_, acc::device_num, acc::default_present)");
      return false;
    } else if constexpr (!clause_pack<tail_of_t<first_clause, Tuple>>::template accepted<construct::scan>()) {
      return false;
    } else {
      return true;
    }
  }
}

/// The labels of an array and a view, for messages: "'x'" or "an unlabelled array".
inline std::string label_of(const host_span& s) {
  return s.label && *s.label ? "'" + std::string(s.label) + "'" : std::string("an unlabelled array");
}

/// Runs one scan of n elements: checks, then the one dispatch.
template <bool Exclusive, class T, class V, class Op>
void run_scan(const T* in, std::uint64_t n, V* out, const V& init, const Op& op, const launch_spec& spec,
              const host_span& in_span, const host_span& out_span, const call_site& site) {
  // Ranges that overlap but are not the same elements would be read after they are written.
  const bool same = static_cast<const void*>(in) == static_cast<const void*>(out) && sizeof(T) == sizeof(V);
  if (!same && n > 0 && in_span.begin() < out_span.end() && out_span.begin() < in_span.end())
    fail<bad_clause>(site, "the input " + describe(in_span) + " and the output " + describe(out_span) +
                               " overlap; scan in place (out == first) or into separate memory");
  dispatch(scan_task<Exclusive, T, V, Op>{{}, in, n, out, init, op, in_span, out_span}, spec, no_body{}, site);
}

/// "scan.cpp:12 inclusive_scan": the NVTX range of one scan. Named per call, not registered
/// once as other constructs' are: one instantiation serves every call site with the same types.
inline std::string scan_range_text(const call_site& site) {
  std::string file = site.where.file_name();
  if (auto slash = file.find_last_of("/\\"); slash != std::string::npos) file.erase(0, slash + 1);
  return file + ":" + std::to_string(site.where.line()) + " " + site.construct;
}

/// Both scans: parses (first, n, out | a, b)[, init][, op][, clauses...] and runs.
template <bool Exclusive, class First, class... Args>
void scan_entry(const char* name, const First& first, const std::source_location& where, const Args&... args) {
  if constexpr (check_scan_args<Exclusive, First, Args...>()) {
    using Tuple = std::tuple<Args...>;
    const call_site site{name, where};
    const nvtx_text_range range([&] { return scan_range_text(site); });
    const auto all = std::forward_as_tuple(args...);
    constexpr std::size_t fixed = scan_fixed_args<Exclusive, First>();
    constexpr bool has_op = scan_has_op<Tuple, fixed>();
    using Op = typename scan_op_of<Tuple, fixed>::type;
    using V = std::remove_cv_t<typename scan_types<First, Tuple>::out>;
    const Op op = [&]() -> Op {
      if constexpr (has_op) return std::get<fixed>(all);
      else return Op{};
    }();
    constexpr std::size_t first_clause = fixed + (has_op ? 1 : 0);
    const launch_spec spec = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return fold_clauses(std::get<first_clause + I>(all)...);
    }(std::make_index_sequence<sizeof...(Args) - first_clause>{});
    V init{};
    if constexpr (Exclusive) init = static_cast<V>(std::get<fixed - 1>(all));
    if constexpr (is_scan_pointer_v<First>) {
      const auto n = std::get<0>(all);
      auto* out = std::get<1>(all);
      if constexpr (std::is_signed_v<std::remove_cvref_t<decltype(n)>>)
        if (n < 0) fail<bad_clause>(site, "the element count " + std::to_string(n) + " is negative");
      const std::uint64_t count = static_cast<std::uint64_t>(n);
      run_scan<Exclusive>(first, count, out, init, op, spec, span_of(first, count), span_of(out, count), site);
    } else {
      const auto& b = std::get<0>(all);
      const host_span sa = span_of(first, site), sb = span_of(b, site);
      if (first.size() != b.size())
        fail<bad_clause>(site, "the input " + label_of(sa) + " has " + std::to_string(first.size()) +
                                   " elements and the output " + label_of(sb) + " has " + std::to_string(b.size()) +
                                   "; they must have the same size");
      run_scan<Exclusive>(first.data(), first.size(), b.data(), init, op, spec, sa, sb, site);
    }
  }
}

// ---- parallel_scan -------------------------------------------------------------------------

struct deduce_t {};

template <class Explicit, class Extent, class Op, class Body>
constexpr bool check_parallel_scan_args(const char* = nullptr) {
  using T = scan_value_t<Explicit, Body>;
  if constexpr (!extent_traits<Extent>::valid || extent_traits<Extent>::rank != 1) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: the first argument must be an iteration count (an integer) or "
                  "acc::range(lo, hi)");
    return false;
  } else if constexpr (partial_by_value_v<Body>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: the body takes its partial by value, so what it adds is lost; take it by "
                  "reference: ACC_LAMBDA(int i, long& partial, bool final)");
    return false;
  } else if constexpr (atomic_only_op<Op>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: acc::minus, acc::divides, acc::shift_left and acc::shift_right are atomic "
                  "operators, not scan operators: a scan combines partial results in any grouping, so its op must "
                  "be associative (acc::plus, acc::maximum, ... or your own)");
    return false;
  } else if constexpr (std::is_void_v<T>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: cannot tell the scanned type from the body; give the body a typed "
                  "partial, ACC_LAMBDA(int i, long& partial, bool final), or write acc::parallel_scan<T>(n, body)");
    return false;
  } else if constexpr (!std::is_invocable_v<const Body&, typename extent_traits<Extent>::index_type, T&, bool>) {
    static_assert(!mutable_body<Body>(), ACC_DETAIL_MUTABLE_BODY("parallel_scan"));
    static_assert(mutable_body<Body>() || dependent_false<Extent>,
                  "acc::parallel_scan: body must take (i, T& partial, bool final), e.g. "
                  "ACC_LAMBDA(int i, long& partial, bool final) { if (final) out[partial] = x[i]; partial += keep; }");
    return false;
  } else if constexpr (!check_body_parallel_scan<Body, Extent>()) {
    return false;
  } else if constexpr (!std::is_trivially_copyable_v<T> || !std::is_default_constructible_v<T>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: the scanned type must be trivially copyable and default constructible");
    return false;
  } else if constexpr (is_data_clause_v<Op>) {
    static_assert(dependent_false<Extent>, ACC_DETAIL_SCAN_DATA_CLAUSE("parallel_scan"));
    return false;
  } else if constexpr (!std::is_invocable_r_v<T, const Op&, T, T>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: op cannot combine two values of the scanned type; use acc::plus, ... or "
                  "an ACC_ROUTINE callable T(T, T)");
    return false;
  } else if constexpr (!has_identity_v<Op, T>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: the operator has no identity; every partial starts from it, so give the "
                  "operator a `T identity() const`");
    return false;
  } else if constexpr (!body_copyable_v<Body>) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: the body must be copyable, as it is copied to every gang; capture by value");
    return false;
  } else {
    return true;
  }
}

template <class Explicit, class Extent, class Op, class Body>
auto parallel_scan_entry(const Extent& extent, const launch_spec& spec, const Op& op, const Body& body,
                         const std::source_location& where) {
  if constexpr (check_parallel_scan_args<Explicit, Extent, Op, Body>()) {
    using T = scan_value_t<Explicit, Body>;
    const call_site site{"parallel_scan", where};
    static nvtx_site nvtx;  // constant-initialised: no guard per construct
    const auto [space, total] = space_of(extent, site);
    return dispatch(parallel_scan_task<std::remove_const_t<decltype(space)>, Op, T>{space, total, op,
                                                                                   identity_of<T>(op)},
                    spec, body, site, &nvtx);
  } else {
    return 0;
  }
}

/// parallel_scan(extent, clauses..., [op,] body) with at least one clause; the call site is
/// `at` when known, else where the first clause was written (acc/clauses.hpp says why).
template <class Explicit, class Extent, class... Args>
auto parallel_scan_with_clauses(const std::source_location& at, const Extent& extent, const Args&... args) {
  constexpr std::size_t k = leading_clause_count<Args...>();
  constexpr std::size_t rest = sizeof...(Args) - k;
  if constexpr (rest < 1 || rest > 2) {
    static_assert(dependent_false<Extent>,
                  "acc::parallel_scan: after the clauses come an optional op and the body; write "
                  "parallel_scan(extent, clauses..., [op,] body)");
    return 0;
  } else if constexpr (!clause_pack<first_of_t<k, Args...>>::template accepted<construct::parallel_scan>()) {
    return 0;
  } else {
    return with_leading_clauses(
        [&](const launch_spec& spec, const std::source_location& where, const auto&... op_body) {
          const std::source_location& site = at.line() ? at : where;
          if constexpr (sizeof...(op_body) == 1)
            return parallel_scan_entry<Explicit>(extent, spec, plus, op_body..., site);
          else
            return parallel_scan_entry<Explicit>(extent, spec, op_body..., site);
        },
        args...);
  }
}

template <class Op>
inline constexpr bool scan_not_clause_v =
    !is_clause_v<Op> && !std::is_same_v<std::remove_cvref_t<Op>, std::source_location>;

}  // namespace detail

/// Inclusive scan: out[i] = op(in[0], ..., in[i]) for i in [0, n), in the output's element
/// type (the scan accumulates in it). Contract: api.md, Scans.
/// - Forms: inclusive_scan(first, n, out[, op][, clauses...]) with host pointers, and
///   inclusive_scan(a, b[, op][, clauses...]) with rank-1 acc::array / acc::view of equal size
///   (else acc::bad_clause naming both). out == first scans in place; other overlaps are
///   acc::bad_clause.
/// - Data: where the input or output is present (acc::data, enter_data) its device copy is
///   used and the result stays on the device (update_self brings it back); absent data is
///   copied in (input) and out (output) for this call. default_present makes absence an error.
/// - op: acc::plus (default), maximum, minimum, bit_or, ..., or any associative ACC_ROUTINE
///   callable T(T, T); it need not be commutative: the order of the elements is kept.
/// - Clauses after op: async(q) (returns at once; the result is ready after acc::wait(q)),
///   if_, device_num, default_present. Any size, 0 and beyond 2^31 included.
/// - On a GPU one pass with decoupled look-back (as cub::DeviceScan): float sums may differ in the
///   last bits from run to run, as the grouping depends on timing; integers are exact.
/// e.g. int x[] = {3, 1, 4}; acc::inclusive_scan(x, 3, x);  // x == {3, 4, 8}
template <class First, class... Args>
struct inclusive_scan {
  inclusive_scan(const First& first, const Args&... args, std::source_location where = std::source_location::current()) {
    detail::scan_entry<false>("inclusive_scan", first, where, args...);
  }
};
template <class First, class... Args>
inclusive_scan(First, Args...) -> inclusive_scan<First, Args...>;

/// Exclusive scan: out[i] = op(init, in[0], ..., in[i - 1]) for i in [0, n) (out[0] = init).
/// Forms exclusive_scan(first, n, out, init[, op][, clauses...]) and
/// exclusive_scan(a, b, init[, op][, clauses...]); everything else as acc::inclusive_scan.
/// e.g. int c[] = {2, 0, 3}; int start[3]; acc::exclusive_scan(c, 3, start, 0);  // {0, 2, 2}
template <class First, class... Args>
struct exclusive_scan {
  exclusive_scan(const First& first, const Args&... args, std::source_location where = std::source_location::current()) {
    detail::scan_entry<true>("exclusive_scan", first, where, args...);
  }
};
template <class First, class... Args>
exclusive_scan(First, Args...) -> exclusive_scan<First, Args...>;

/// A loop whose iterations see the combined contributions of the iterations before them
/// (Kokkos' parallel_scan): body(i, T& partial, bool final) adds iteration i's contribution
/// to partial (`partial += v`, or `partial = op(partial, v)`). Returns the total.
/// - When final is true, partial holds on entry the exclusive prefix (op of the contributions of
///   the iterations before i); act on it then (write out[partial]). Calls with final false only
///   compute contributions, may happen more than once per iteration, and must have no side
///   effects; each iteration has exactly one final call.
/// - T is the type of the body's partial parameter; for a generic body write
///   acc::parallel_scan<T>(n, body). op defaults to acc::plus; another needs an identity.
/// - extent: a count n or acc::range(lo, hi). Clauses, any number, before the op/body: async,
///   if_, device_num, default_present; the call always returns the finished total.
/// - Deterministic for a fixed device and configuration (floats: a fixed grouping).
/// e.g. long kept = acc::parallel_scan(n, ACC_LAMBDA(long i, long& p, bool final) {
///        if (final && x[i] > 0) y[p] = x[i]; p += x[i] > 0; });
template <class T = void, class Extent, class Body>
  requires detail::scan_not_clause_v<Body>
auto parallel_scan(Extent e, const Body& body, std::source_location where = std::source_location::current()) {
  return detail::parallel_scan_entry<T>(e, detail::launch_spec{}, plus, body, where);
}
template <class T = void, class Extent, class Op, class Body>
  requires(detail::scan_not_clause_v<Op> && detail::scan_not_clause_v<Body>)
auto parallel_scan(Extent e, const Op& op, const Body& body,
                   std::source_location where = std::source_location::current()) {
  return detail::parallel_scan_entry<T>(e, detail::launch_spec{}, op, body, where);
}
// With clauses the call site comes from the first clause; a constant one given first gets the
// call's line from its conversion to sited_clause (as parallel_reduce's).
template <class T = void, class Extent, class Clause, class... Rest>
  requires(detail::is_clause_v<Clause> && !detail::knows_no_line_v<Clause>)
auto parallel_scan(Extent e, const Clause& first, const Rest&... rest) {
  return detail::parallel_scan_with_clauses<T>(std::source_location{}, e, first, rest...);
}
template <class T = void, class Extent, class... Rest>
auto parallel_scan(Extent e, detail::sited_clause<adaptive_t> first, const Rest&... rest) {
  return detail::parallel_scan_with_clauses<T>(first.where, e, first.clause, rest...);
}
template <class T = void, class Extent, class... Rest>
auto parallel_scan(Extent e, detail::sited_clause<tuned_t> first, const Rest&... rest) {
  return detail::parallel_scan_with_clauses<T>(first.where, e, first.clause, rest...);
}
template <class T = void, class Extent, class... Rest>
auto parallel_scan(Extent e, detail::sited_clause<default_present_t> first, const Rest&... rest) {
  return detail::parallel_scan_with_clauses<T>(first.where, e, first.clause, rest...);
}

}  // namespace acc

#undef ACC_DETAIL_SCAN_DATA_CLAUSE

#include <acc/detail/header_close.hpp>
