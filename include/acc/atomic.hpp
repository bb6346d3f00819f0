//! @file Atomics (OpenACC 3.3 §2.12 `atomic`): acc::atomic_read / write / update / capture,
//! acc::atomic_ref, and acc::atomic_add.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/atomic_ops.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/memory_order.hpp>
#include <acc/detail/reduce_op.hpp>

#include <cstddef>
#include <type_traits>

// Every atomic here works on an lvalue of an integer type (not bool), float or double, on the
// host (the compiler's __atomic built-ins) and in kernels (CUDA's atomic functions), and needs the object aligned
// to its size, as std::atomic_ref<T>::required_alignment does: a plain variable, array element
// or struct member of that type always is; a T placed at an arbitrary byte offset is not.

namespace acc {
namespace detail {

template <class T>
inline constexpr bool atomic_value_v = (std::is_integral_v<T> && !std::is_same_v<T, bool>) ||
                                       std::is_same_v<T, float> || std::is_same_v<T, double>;

template <class Op>
inline constexpr bool atomic_bitwise_op_v = std::is_same_v<Op, bit_and_t> || std::is_same_v<Op, bit_or_t> ||
                                            std::is_same_v<Op, bit_xor_t> || std::is_same_v<Op, shift_left_t> ||
                                            std::is_same_v<Op, shift_right_t>;

template <class Op>
inline constexpr bool atomic_op_v =
    std::is_same_v<Op, plus_t> || std::is_same_v<Op, minus_t> || std::is_same_v<Op, multiplies_t> ||
    std::is_same_v<Op, divides_t> || std::is_same_v<Op, minimum_t> || std::is_same_v<Op, maximum_t> ||
    std::is_same_v<Op, logical_and_t> || std::is_same_v<Op, logical_or_t> || atomic_bitwise_op_v<Op>;

/// new = op(old, v), for the operators the hardware has no atomic instruction for.
template <class T, class Op>
struct apply_op {
  Op op;
  T v;
  ACC_DETAIL_HD T operator()(T old) const { return static_cast<T>(op(old, v)); }
};

/// x = op(x, v) atomically, relaxed; returns the old value.
template <class T, class Op>
ACC_DETAIL_HD T atomic_fetch(T* p, Op op, T v) {
  constexpr auto o = memory_order::relaxed;
  if constexpr (std::is_same_v<Op, plus_t>) return atomic_ops::fetch_add(p, v, o);
  else if constexpr (std::is_same_v<Op, minus_t>) return atomic_ops::fetch_sub(p, v, o);
  else if constexpr (std::is_same_v<Op, bit_and_t>) return atomic_ops::fetch_and(p, v, o);
  else if constexpr (std::is_same_v<Op, bit_or_t>) return atomic_ops::fetch_or(p, v, o);
  else if constexpr (std::is_same_v<Op, bit_xor_t>) return atomic_ops::fetch_xor(p, v, o);
  else if constexpr (std::is_same_v<Op, minimum_t>) return atomic_ops::fetch_min(p, v, o);
  else if constexpr (std::is_same_v<Op, maximum_t>) return atomic_ops::fetch_max(p, v, o);
  else return atomic_ops::fetch_apply(p, apply_op<T, Op>{op, v}, o);
}

/// new = x op v as the sequential `x op= v` computes it, in the common type of x and v (C's
/// usual arithmetic conversions), for a v of another type than x.
template <class T, class V, class Op>
struct apply_op_in_common_type {
  Op op;
  V v;
  ACC_DETAIL_HD T operator()(T old) const {
    using C = std::common_type_t<T, V>;
    return static_cast<T>(op(static_cast<C>(old), static_cast<C>(v)));
  }
};

/// Whether `x op= v` leaves x the same when v is first converted to x's type T, so that T's
/// hardware atomic can do it: v of type T or of a type that converts to T in the sequential
/// expression too (T is the common type: an int into a double x), integer sums, products and
/// bitwise operations (exact modulo 2^n), and shifts (v is only a count). Otherwise (an int x
/// divided by 2.5, a float x plus a double) the update is computed in the common type.
template <class T, class V, class Op>
inline constexpr bool converts_exactly_v = [] {
  if constexpr (std::is_same_v<T, V> || !std::is_arithmetic_v<V>) return true;
  else
    return std::is_same_v<std::common_type_t<T, V>, T> || std::is_same_v<Op, shift_left_t> ||
           std::is_same_v<Op, shift_right_t> ||
           (std::is_integral_v<T> && std::is_integral_v<V> &&
            (std::is_same_v<Op, plus_t> || std::is_same_v<Op, minus_t> || std::is_same_v<Op, multiplies_t> ||
             std::is_same_v<Op, bit_and_t> || std::is_same_v<Op, bit_or_t> || std::is_same_v<Op, bit_xor_t>));
}();

/// atomic_fetch for a v of any type: x = x op v, relaxed; returns the old value.
template <class T, class Op, class V>
ACC_DETAIL_HD T atomic_fetch_any(T* p, Op op, const V& v) {
  static_assert(std::is_convertible_v<const V&, T>, "acc::atomic_update / atomic_capture: v must convert to x's type");
  static_assert(!atomic_bitwise_op_v<Op> || !std::is_floating_point_v<V>,
                "acc::atomic_update / atomic_capture: bit_and, bit_or, bit_xor, shift_left and shift_right need "
                "an integer v");
  if constexpr (converts_exactly_v<T, V, Op>) return atomic_fetch(p, op, static_cast<T>(v));
  else return atomic_ops::fetch_apply(p, apply_op_in_common_type<T, V, Op>{op, v}, memory_order::relaxed);
}

template <class T, class Op>
constexpr bool check_atomic_op() {
  static_assert(!std::is_const_v<T>, "acc::atomic_update / atomic_capture: x is const; they need a modifiable lvalue");
  if constexpr (std::is_const_v<T>) {
    return false;
  } else {
    static_assert(atomic_value_v<T>,
                  "acc::atomic_update / atomic_capture: x must be an lvalue of an integer type (not bool), float or "
                  "double");
    static_assert(atomic_op_v<Op>,
                  "acc::atomic_update / atomic_capture: op must be acc::plus, minus, multiplies, divides, minimum, "
                  "maximum, bit_and, bit_or, bit_xor, shift_left, shift_right, logical_and or logical_or");
    static_assert(!atomic_bitwise_op_v<Op> || std::is_integral_v<T>,
                  "acc::atomic_update / atomic_capture: bit_and, bit_or, bit_xor, shift_left and shift_right need "
                  "an integer x");
    return true;
  }
}

}  // namespace detail

/// *p += v as one indivisible update, from compute constructs on any backend (OpenACC 3.3
/// §2.12 `#pragma acc atomic update`); returns the old value. T: int, unsigned, long long,
/// unsigned long long, float or double (what a GPU adds atomically; long where it is 64-bit).
/// - Relaxed ordering, as OpenACC's atomics: it orders nothing else.
/// e.g. acc::parallel_loop(n, ACC_LAMBDA(int i) { acc::atomic_add(&count[key[i]], 1); });
/// - v converts to T (acc::atomic_add(&sum, 1) for a double sum).
template <class T>
ACC_DETAIL_HD T atomic_add(T* p, std::type_identity_t<T> v) {
  static_assert(!std::is_const_v<T>, "acc::atomic_add: p points to const; an atomic add needs modifiable memory");
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8),
                "acc::atomic_add: T must be a 4- or 8-byte integer or floating-point type (int, unsigned, long "
                "long, float, double)");
  if constexpr (!std::is_const_v<T>) return detail::atomic_ops::add(p, v);
  else return v;
}

/// `#pragma acc atomic read` (v = x): x read as one indivisible load. Relaxed, as every
/// acc::atomic_* function: it orders no other memory access (use acc::atomic_ref for orders).
/// e.g. int seen = acc::atomic_read(flag[i]);
template <class T>
ACC_DETAIL_HD T atomic_read(const T& x) {
  static_assert(detail::atomic_value_v<T>,
                "acc::atomic_read: x must be an lvalue of an integer type (not bool), float or double");
  return detail::atomic_ops::load(&x, detail::memory_order::relaxed);
}

/// `#pragma acc atomic write` (x = v): one indivisible store.
/// e.g. acc::atomic_write(done[i], 1);
template <class T>
ACC_DETAIL_HD void atomic_write(T& x, std::type_identity_t<T> v) {
  static_assert(!std::is_const_v<T>, "acc::atomic_write: x is const; an atomic write needs a modifiable lvalue");
  static_assert(detail::atomic_value_v<T>,
                "acc::atomic_write: x must be an lvalue of an integer type (not bool), float or double");
  if constexpr (!std::is_const_v<T>) detail::atomic_ops::store(&x, v, detail::memory_order::relaxed);
}

/// `#pragma acc atomic update` (x = x op v, x op= v): op is acc::plus, minus, multiplies,
/// divides, minimum, maximum, bit_and, bit_or, bit_xor, shift_left, shift_right, logical_and
/// or logical_or (the bitwise ones and shifts for integers only). The result is the
/// sequential `x op= v`'s: a v of another type is combined with x in their common type, as C++
/// does (an int x divided by 2.5 becomes int(x / 2.5)), then stored as x's type.
/// - Sums, differences, bitwise operations and integer min / max are single hardware atomics on
///   a GPU where v's type lets them be (see detail::converts_exactly_v); the others retry a
///   compare-and-swap while other threads update x.
/// e.g. acc::atomic_update(hist[bin(x[i])], acc::plus, 1); acc::atomic_update(lo, acc::minimum, x[i]);
template <class T, class Op, class V>
ACC_DETAIL_HD void atomic_update(T& x, Op op, const V& v) {
  if constexpr (detail::check_atomic_op<T, Op>()) detail::atomic_fetch_any(&x, op, v);
}

/// `#pragma acc atomic capture` ({old = x; x op= v;}): as atomic_update, returning the value x
/// had just before this update; no two concurrent captures see the same old value of a
/// strictly monotone update (each `plus 1` capture gets a distinct ticket).
/// e.g. long slot = acc::atomic_capture(next, acc::plus, 1L); out[slot] = x[i];
template <class T, class Op, class V>
ACC_DETAIL_HD T atomic_capture(T& x, Op op, const V& v) {
  if constexpr (detail::check_atomic_op<T, Op>()) return detail::atomic_fetch_any(&x, op, v);
  else return T{};
}

/// std::atomic_ref<T>'s interface on the host and in kernels: atomic operations on an object
/// that is otherwise accessed normally, for as long as some atomic_ref to it exists.
/// - T: an integer type (not bool), float or double; the object aligned to required_alignment.
/// - Memory orders as std's (std::memory_order_*, from <atomic>, which this header does not
///   include); on a GPU they hold at device scope (other threads of the same GPU), and any
///   order other than relaxed fences the operation on both sides.
/// - fetch_min / fetch_max (C++26's) are provided; wait / notify are not.
/// e.g. acc::atomic_ref<int> c(count[k]); if (c.fetch_add(1) == 0) first[k] = i;
template <class T>
class atomic_ref {
  static_assert(detail::atomic_value_v<T> && !std::is_const_v<T>,
                "acc::atomic_ref: T must be an integer type (not bool), float or double, and not const");

public:
  using value_type = T;
  using difference_type = T;
  static constexpr bool is_always_lock_free = true;
  static constexpr std::size_t required_alignment = sizeof(T);

  ACC_DETAIL_HD explicit atomic_ref(T& obj) noexcept : p_(&obj) {}
  ACC_DETAIL_HD atomic_ref(const atomic_ref& o) noexcept : p_(o.p_) {}
  atomic_ref& operator=(const atomic_ref&) = delete;

  ACC_DETAIL_HD bool is_lock_free() const noexcept { return true; }

  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD void store(T v, Order o = {}) const noexcept {
    detail::atomic_ops::store(p_, v, detail::order_of(o));
  }
  ACC_DETAIL_HD T operator=(T v) const noexcept {
    store(v);
    return v;
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T load(Order o = {}) const noexcept {
    return detail::atomic_ops::load(p_, detail::order_of(o));
  }
  ACC_DETAIL_HD operator T() const noexcept { return load(); }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T exchange(T v, Order o = {}) const noexcept {
    return detail::atomic_ops::exchange(p_, v, detail::order_of(o));
  }

  template <class Success, class Failure>
  ACC_DETAIL_HD bool compare_exchange_strong(T& expected, T desired, Success success, Failure failure) const noexcept {
    return detail::atomic_ops::compare_exchange(p_, expected, desired, detail::order_of(success),
                                                detail::order_of(failure));
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD bool compare_exchange_strong(T& expected, T desired, Order o = {}) const noexcept {
    const detail::memory_order order = detail::order_of(o);
    return detail::atomic_ops::compare_exchange(p_, expected, desired, order, failure_order(order));
  }
  // Never fails spuriously: the weak form is the strong one.
  template <class Success, class Failure>
  ACC_DETAIL_HD bool compare_exchange_weak(T& expected, T desired, Success success, Failure failure) const noexcept {
    return compare_exchange_strong(expected, desired, success, failure);
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD bool compare_exchange_weak(T& expected, T desired, Order o = {}) const noexcept {
    return compare_exchange_strong(expected, desired, o);
  }

  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T fetch_add(T v, Order o = {}) const noexcept {
    return detail::atomic_ops::fetch_add(p_, v, detail::order_of(o));
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T fetch_sub(T v, Order o = {}) const noexcept {
    return detail::atomic_ops::fetch_sub(p_, v, detail::order_of(o));
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T fetch_min(T v, Order o = {}) const noexcept {
    return detail::atomic_ops::fetch_min(p_, v, detail::order_of(o));
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T fetch_max(T v, Order o = {}) const noexcept {
    return detail::atomic_ops::fetch_max(p_, v, detail::order_of(o));
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T fetch_and(T v, Order o = {}) const noexcept
    requires std::is_integral_v<T>
  {
    return detail::atomic_ops::fetch_and(p_, v, detail::order_of(o));
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T fetch_or(T v, Order o = {}) const noexcept
    requires std::is_integral_v<T>
  {
    return detail::atomic_ops::fetch_or(p_, v, detail::order_of(o));
  }
  template <class Order = detail::seq_cst_t>
  ACC_DETAIL_HD T fetch_xor(T v, Order o = {}) const noexcept
    requires std::is_integral_v<T>
  {
    return detail::atomic_ops::fetch_xor(p_, v, detail::order_of(o));
  }

  // As std::atomic_ref: compound assignments return the new value, postfix forms the old.
  ACC_DETAIL_HD T operator+=(T v) const noexcept { return static_cast<T>(fetch_add(v) + v); }
  ACC_DETAIL_HD T operator-=(T v) const noexcept { return static_cast<T>(fetch_sub(v) - v); }
  ACC_DETAIL_HD T operator&=(T v) const noexcept
    requires std::is_integral_v<T>
  {
    return static_cast<T>(fetch_and(v) & v);
  }
  ACC_DETAIL_HD T operator|=(T v) const noexcept
    requires std::is_integral_v<T>
  {
    return static_cast<T>(fetch_or(v) | v);
  }
  ACC_DETAIL_HD T operator^=(T v) const noexcept
    requires std::is_integral_v<T>
  {
    return static_cast<T>(fetch_xor(v) ^ v);
  }
  ACC_DETAIL_HD T operator++() const noexcept
    requires std::is_integral_v<T>
  {
    return static_cast<T>(fetch_add(T(1)) + T(1));
  }
  ACC_DETAIL_HD T operator++(int) const noexcept
    requires std::is_integral_v<T>
  {
    return fetch_add(T(1));
  }
  ACC_DETAIL_HD T operator--() const noexcept
    requires std::is_integral_v<T>
  {
    return static_cast<T>(fetch_sub(T(1)) - T(1));
  }
  ACC_DETAIL_HD T operator--(int) const noexcept
    requires std::is_integral_v<T>
  {
    return fetch_sub(T(1));
  }

private:
  // As std::atomic_ref's one-order compare-exchange: a failed exchange only loads.
  ACC_DETAIL_HD static constexpr detail::memory_order failure_order(detail::memory_order o) noexcept {
    if (o == detail::memory_order::acq_rel) return detail::memory_order::acquire;
    if (o == detail::memory_order::release) return detail::memory_order::relaxed;
    return o;
  }
  T* p_;
};

}  // namespace acc

#include <acc/detail/header_close.hpp>
