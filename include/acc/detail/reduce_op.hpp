//! @file Reduction operators, how acc finds an operator's identity for a type, and which
//! operators fit which types (the checks of every entry that takes one).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/extent.hpp>

#include <concepts>
#include <cstddef>
#include <limits>
#include <tuple>
#include <type_traits>

namespace acc {

/// A value and where it was found, as min_loc / max_loc reduce it (OpenACC has no such
/// operator; MPI_MINLOC and Kokkos' MinLoc do). Ties go to the smaller index, as a sequential
/// scan that keeps the first extremum.
template <class T, class Index>
struct loc_t {
  T value;
  Index index;
  friend constexpr bool operator==(const loc_t&, const loc_t&) = default;
};

/// `acc::loc(x[i], i)`: what a min_loc / max_loc body returns.
template <class T, class Index>
ACC_DETAIL_HD constexpr loc_t<T, Index> loc(T value, Index index) noexcept {
  return {value, index};
}

namespace detail {
/// The least and greatest values of T: -inf and +inf for floating types, so that a maximum of
/// values that are all -inf is -inf (lowest() is -DBL_MAX), and min_loc / max_loc of values all
/// +inf / -inf tie with the identity and take an index of the range.
template <class T>
constexpr T least() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}
template <class T>
constexpr T greatest() {
  if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max();
}
/// Whether least<T>() and greatest<T>() mean anything: for a type without a numeric_limits
/// specialization (std::chrono::duration, a fixed-point struct) both would be T{}, so
/// minimum, maximum, min_loc and max_loc have no identity for it.
template <class T>
concept limits_known = std::numeric_limits<T>::is_specialized;
}  // namespace detail

// Built-in operators: their identity depends on the type, so identity<T>() is a template.
// OpenACC 3.3 §2.9.11 lists the operators and their initial values (Table: "+" 0, "*" 1,
// "max" least, "min" largest, "&" ~0, "|" 0, "^" 0, "&&" 1, "||" 0).

struct plus_t {
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return a + b; }
  template <class T> static constexpr T identity() { return T(0); }
};
struct multiplies_t {
  // bool: a && b, which a * b is, without g++'s -Wint-in-bool-context.
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const {
    if constexpr (std::is_same_v<T, bool>) return a && b;
    else return a * b;
  }
  template <class T> static constexpr T identity() { return T(1); }
};
struct maximum_t {
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return a < b ? b : a; }
  template <class T> requires detail::limits_known<T> static constexpr T identity() { return detail::least<T>(); }
};
struct minimum_t {
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return b < a ? b : a; }
  template <class T> requires detail::limits_known<T> static constexpr T identity() { return detail::greatest<T>(); }
};
struct bit_and_t {
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a & b); }
  template <class T> static constexpr T identity() {
    if constexpr (std::is_same_v<T, bool>) return true;  // ~false is the int -1 (-Wbool-operation)
    else return T(~T(0));
  }
};
struct bit_or_t {
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a | b); }
  template <class T> static constexpr T identity() { return T(0); }
};
struct bit_xor_t {
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a ^ b); }
  template <class T> static constexpr T identity() { return T(0); }
};
struct logical_and_t {
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a && b); }
  template <class T> static constexpr T identity() { return T(1); }
};
struct logical_or_t {
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a || b); }
  template <class T> static constexpr T identity() { return T(0); }
};
struct min_loc_t {
  template <class T, class I>
  ACC_DETAIL_HD constexpr loc_t<T, I> operator()(const loc_t<T, I>& a, const loc_t<T, I>& b) const {
    return (b.value < a.value || (!(a.value < b.value) && b.index < a.index)) ? b : a;
  }
  template <class L>
    requires detail::limits_known<decltype(L::value)> && detail::limits_known<decltype(L::index)>
  static constexpr L identity() {
    using T = decltype(L::value);
    using I = decltype(L::index);
    return {detail::greatest<T>(), std::numeric_limits<I>::max()};
  }
};
struct max_loc_t {
  template <class T, class I>
  ACC_DETAIL_HD constexpr loc_t<T, I> operator()(const loc_t<T, I>& a, const loc_t<T, I>& b) const {
    return (a.value < b.value || (!(b.value < a.value) && b.index < a.index)) ? b : a;
  }
  template <class L>
    requires detail::limits_known<decltype(L::value)> && detail::limits_known<decltype(L::index)>
  static constexpr L identity() {
    using T = decltype(L::value);
    using I = decltype(L::index);
    return {detail::least<T>(), std::numeric_limits<I>::max()};
  }
};

namespace detail {
/// acc::minus, divides, shift_left, shift_right: operators of acc::atomic_update only.
template <class Op>
concept atomic_only_op = requires { Op::atomic_only; };
}  // namespace detail

// Operators of OpenACC's `atomic update` that are not reduction operators (OpenACC 3.3 §2.12:
// `x -= e`, `x /= e`, `x <<= e`, `x >>= e`): not associative, so they have no identity, and
// `atomic_only` lets reduction clauses and constructs reject them by name.
struct minus_t {
  static constexpr bool atomic_only = true;
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a - b); }
};
struct divides_t {
  static constexpr bool atomic_only = true;
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a / b); }
};
struct shift_left_t {
  static constexpr bool atomic_only = true;
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a << b); }
};
struct shift_right_t {
  static constexpr bool atomic_only = true;
  template <class T> ACC_DETAIL_HD constexpr T operator()(const T& a, const T& b) const { return T(a >> b); }
};

ACC_DETAIL_OPERATOR_OBJECT plus_t plus{};
ACC_DETAIL_OPERATOR_OBJECT multiplies_t multiplies{};
ACC_DETAIL_OPERATOR_OBJECT maximum_t maximum{};
ACC_DETAIL_OPERATOR_OBJECT minimum_t minimum{};
ACC_DETAIL_OPERATOR_OBJECT bit_and_t bit_and{};
ACC_DETAIL_OPERATOR_OBJECT bit_or_t bit_or{};
ACC_DETAIL_OPERATOR_OBJECT bit_xor_t bit_xor{};
ACC_DETAIL_OPERATOR_OBJECT logical_and_t logical_and{};
ACC_DETAIL_OPERATOR_OBJECT logical_or_t logical_or{};
ACC_DETAIL_OPERATOR_OBJECT min_loc_t min_loc{};
ACC_DETAIL_OPERATOR_OBJECT max_loc_t max_loc{};
/// x -= v in acc::atomic_update / atomic_capture only.
inline constexpr minus_t minus{};
/// x /= v in acc::atomic_update / atomic_capture only.
inline constexpr divides_t divides{};
/// x <<= v in acc::atomic_update / atomic_capture only.
inline constexpr shift_left_t shift_left{};
/// x >>= v in acc::atomic_update / atomic_capture only.
inline constexpr shift_right_t shift_right{};

namespace detail {

template <class Op, class T>
concept templated_identity = requires { { Op::template identity<T>() } -> std::convertible_to<T>; };
template <class Op, class T>
concept member_identity = requires(const Op& op) { { op.identity() } -> std::convertible_to<T>; };

template <class Op, class T>
inline constexpr bool has_identity_v = templated_identity<Op, T> || member_identity<Op, T>;

template <class T> struct is_loc : std::false_type {};
template <class T, class I> struct is_loc<loc_t<T, I>> : std::true_type {};

/// Whether a built-in operator's expression is valid for T (every other operator: true, and
/// std::is_invocable decides). Their operator() templates are unconstrained, so is_invocable
/// holds for any T and a bit_and of doubles would fail only inside the library.
template <class Op, class T>
constexpr bool builtin_op_fits() {
  if constexpr (std::is_same_v<Op, plus_t>) return requires(const T& a) { T(a + a); };
  else if constexpr (std::is_same_v<Op, multiplies_t>) return requires(const T& a) { T(a * a); };
  else if constexpr (std::is_same_v<Op, maximum_t> || std::is_same_v<Op, minimum_t>)
    return requires(const T& a) { { a < a } -> std::convertible_to<bool>; };
  else if constexpr (std::is_same_v<Op, bit_and_t> || std::is_same_v<Op, bit_or_t> || std::is_same_v<Op, bit_xor_t>)
    return !std::is_floating_point_v<T> && requires(const T& a) { T(a & a); T(a | a); T(a ^ a); T(~T(0)); };
  else if constexpr (std::is_same_v<Op, logical_and_t> || std::is_same_v<Op, logical_or_t>)
    return requires(const T& a) { T(a && a); T(a || a); };
  else if constexpr (std::is_same_v<Op, min_loc_t> || std::is_same_v<Op, max_loc_t>) {
    if constexpr (is_loc<T>::value)
      return requires(const T& a) {
        { a.value < a.value } -> std::convertible_to<bool>;
        { a.index < a.index } -> std::convertible_to<bool>;
      };
    else
      return false;
  } else {
    return true;
  }
}

/// What is wrong with reducing T with op, in the order a user would fix it (none: nothing).
/// The one table behind the checks of acc::reduction, parallel_reduce and loop_reduce.
/// HasInit: the construct starts from a value the user gives, so op needs no identity.
/// array: T cannot be combined and is an array (a C array, or anything with data() and size():
/// acc::array, acc::view, std::vector), the form of OpenACC's `reduction(+:a[0:n])`.
enum class op_fault { none, atomic_only, loc_type, bitwise_type, array, cannot_combine, no_limits, no_identity };

template <class T>
inline constexpr bool array_like_v = std::is_array_v<T> || requires(T& t) {
  t.data();
  t.size();
};
template <class Op, class T, bool HasInit>
constexpr op_fault op_fault_of() {
  constexpr bool loc_op = std::is_same_v<Op, min_loc_t> || std::is_same_v<Op, max_loc_t>;
  constexpr bool bitwise_op =
      std::is_same_v<Op, bit_and_t> || std::is_same_v<Op, bit_or_t> || std::is_same_v<Op, bit_xor_t>;
  if constexpr (atomic_only_op<Op>) return op_fault::atomic_only;
  else if constexpr (loc_op && !is_loc<T>::value) return op_fault::loc_type;
  else if constexpr (bitwise_op && !builtin_op_fits<Op, T>()) return op_fault::bitwise_type;
  else if constexpr (!builtin_op_fits<Op, T>() || !std::is_invocable_r_v<T, const Op&, T, T>)
    return array_like_v<T> ? op_fault::array : op_fault::cannot_combine;
  else if constexpr (HasInit || has_identity_v<Op, T>) return op_fault::none;
  else if constexpr (loc_op || std::is_same_v<Op, maximum_t> || std::is_same_v<Op, minimum_t>)
    return op_fault::no_limits;
  else return op_fault::no_identity;
}

// The check of each entry that takes an operator: true, or false after a static_assert that
// names the entry and the fault. `VALUE` says where T comes from; `INIT_HINT` offers an initial
// value where the entry takes one.
#define ACC_DETAIL_OP_CHECK(ENTRY, VALUE, INIT_HINT)                                                        \
  template <class Op, class T, bool HasInit>                                                                 \
  constexpr bool check_op_##ENTRY() {                                                                       \
    constexpr op_fault fault = op_fault_of<Op, T, HasInit>();                                                \
    static_assert(fault != op_fault::atomic_only,                                                            \
                  "acc::" #ENTRY ": acc::minus, divides, shift_left and shift_right are atomic_update operators, "  \
                  "not reduction operators; use acc::plus, multiplies, maximum, minimum, bit_and, bit_or, "        \
                  "bit_xor, logical_and or logical_or");                                                     \
    static_assert(fault != op_fault::loc_type,                                                               \
                  "acc::" #ENTRY ": acc::min_loc and max_loc reduce an acc::loc_t<T, Index> (a value and its "       \
                  "index), and " VALUE " is not one; reduce acc::loc(x[i], i) into an acc::loc_t<T, Index>, or "    \
                  "use acc::minimum / acc::maximum for the value alone");                                    \
    static_assert(fault != op_fault::bitwise_type,                                                           \
                  "acc::" #ENTRY ": acc::bit_and, bit_or and bit_xor need an integer type, and " VALUE " is not "   \
                  "one (floating-point values have no bitwise operators); reduce integers, or write a user "      \
                  "op T(T, T) with a `T identity() const`");                                                 \
    static_assert(fault != op_fault::array,                                                                  \
                  "acc::" #ENTRY ": " VALUE " is an array; an array reduction (OpenACC reduction(+:a[0:n])) "      \
                  "is written here as a reduction of a struct holding the n values, with an element-wise user "   \
                  "op T(T, T), or as acc::atomic_update(a[k], acc::plus, v) in the loop");                    \
    static_assert(fault != op_fault::cannot_combine,                                                         \
                  "acc::" #ENTRY ": op cannot combine two values of " VALUE "; use acc::plus, acc::maximum, ... "    \
                  "or a callable T(T, T)");                                                                   \
    static_assert(fault != op_fault::no_limits,                                                              \
                  "acc::" #ENTRY ": acc::minimum, maximum, min_loc and max_loc start from the type's extreme "      \
                  "value, std::numeric_limits<T>::max() or lowest(), and std::numeric_limits is not specialized " \
                  "for " VALUE " (it would give T{}); " INIT_HINT "use a user op T(T, T) with a "               \
                  "`T identity() const`");                                                                   \
    static_assert(fault != op_fault::no_identity,                                                            \
                  "acc::" #ENTRY ": this operator has no identity(); " INIT_HINT "add `T identity() const` to "     \
                  "the operator");                                                                           \
    return fault == op_fault::none;                                                                          \
  }

ACC_DETAIL_OP_CHECK(parallel_reduce, "the body's return type",
                    "give the initial value as the last argument, parallel_reduce(extent, op, body, init), or ")
ACC_DETAIL_OP_CHECK(reduction, "the variable's type", "")
ACC_DETAIL_OP_CHECK(loop_reduce, "the body's return type", "")

#undef ACC_DETAIL_OP_CHECK

/// nvcc computes long double as double in device code while the host keeps its 80-bit layout,
/// so a long double reduced on a GPU is garbage: the CUDA backend rejects it at compile time.
template <class T>
inline constexpr bool device_reducible_v = !std::is_same_v<std::remove_cv_t<T>, long double>;

/// The identity of op for T: the built-ins' identity<T>(), or a user op's identity().
template <class T, class Op>
constexpr T identity_of(const Op& op) {
  if constexpr (templated_identity<Op, T>) return Op::template identity<T>();
  else return static_cast<T>(op.identity());
}

/// The private starting values of reduction clauses R... (each operator's identity).
template <class... R>
constexpr std::tuple<typename R::value_type...> identities_of(const std::tuple<R...>& reds) {
  return std::apply(
      [](const R&... r) { return std::tuple<typename R::value_type...>{identity_of<typename R::value_type>(r.op)...}; },
      reds);
}

/// A construct with no iterations: each variable combined with its operator's identity, as
/// OpenACC combines the original value with the private copies (for && and ||, 2 becomes 1).
template <class... R>
void combine_identities(const std::tuple<R...>& reds) {
  std::apply([](const R&... r) { ((*r.var = r.op(*r.var, identity_of<typename R::value_type>(r.op))), ...); }, reds);
}

/// The type a reduction body returns for an extent (checked invocable before use).
template <class Body, class I, std::size_t Rank> struct reduce_value;
template <class Body, class I> struct reduce_value<Body, I, 1> { using type = std::invoke_result_t<const Body&, I>; };
template <class Body, class I> struct reduce_value<Body, I, 2> { using type = std::invoke_result_t<const Body&, I, I>; };
template <class Body, class I> struct reduce_value<Body, I, 3> {
  using type = std::invoke_result_t<const Body&, I, I, I>;
};
template <class Extent, class Body>
using reduce_value_t = std::remove_cvref_t<
    typename reduce_value<Body, typename extent_traits<Extent>::index_type, extent_traits<Extent>::rank>::type>;

}  // namespace detail
}  // namespace acc

#include <acc/detail/header_close.hpp>
