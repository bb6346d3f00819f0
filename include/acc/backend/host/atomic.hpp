//! @file Atomic operations on the host (OpenMP threads): the compiler's __atomic built-ins.
//!
//! They are what libstdc++'s std::atomic_ref is made of; using them directly keeps <atomic>
//! (pthread, gthr and the atomic waits in C++20) out of every translation unit that includes
//! acc/parallel.hpp (detail/memory_order.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/memory_order.hpp>

#include <type_traits>

namespace acc::detail::host {

// Integers have a built-in for every read-modify-write but min and max; floating-point values
// only for load, store, exchange and compare-exchange (as std::atomic_ref's, a bitwise compare),
// so their sums, min, max and the non-associative operators are compare-exchange loops.
struct atomic_ops {
  template <class T>
  static T add(T* p, T v) noexcept {
    return fetch_add(p, v, memory_order::relaxed);
  }

  template <class T>
  static T load(const T* p, memory_order o) noexcept {
    T r;
    __atomic_load(const_cast<T*>(p), &r, int(o));
    return r;
  }
  template <class T>
  static void store(T* p, T v, memory_order o) noexcept {
    __atomic_store(p, &v, int(o));
  }
  template <class T>
  static T exchange(T* p, T v, memory_order o) noexcept {
    T r;
    __atomic_exchange(p, &v, &r, int(o));
    return r;
  }
  template <class T>
  static bool compare_exchange(T* p, T& expected, T desired, memory_order success, memory_order failure) noexcept {
    return __atomic_compare_exchange(p, &expected, &desired, false, int(success), int(failure));
  }
  template <class T>
  static T fetch_add(T* p, T v, memory_order o) noexcept {
    if constexpr (std::is_integral_v<T>) return __atomic_fetch_add(p, v, int(o));
    else return fetch_apply(p, [v](T old) { return T(old + v); }, o);
  }
  template <class T>
  static T fetch_sub(T* p, T v, memory_order o) noexcept {
    if constexpr (std::is_integral_v<T>) return __atomic_fetch_sub(p, v, int(o));
    else return fetch_apply(p, [v](T old) { return T(old - v); }, o);
  }
  template <class T>
  static T fetch_and(T* p, T v, memory_order o) noexcept {
    return __atomic_fetch_and(p, v, int(o));
  }
  template <class T>
  static T fetch_or(T* p, T v, memory_order o) noexcept {
    return __atomic_fetch_or(p, v, int(o));
  }
  template <class T>
  static T fetch_xor(T* p, T v, memory_order o) noexcept {
    return __atomic_fetch_xor(p, v, int(o));
  }
  template <class T>
  static T fetch_min(T* p, T v, memory_order o) noexcept {
    return fetch_apply(p, [v](T old) { return v < old ? v : old; }, o);
  }
  template <class T>
  static T fetch_max(T* p, T v, memory_order o) noexcept {
    return fetch_apply(p, [v](T old) { return old < v ? v : old; }, o);
  }
  /// *p = f(*p) as one indivisible step; returns the old value.
  template <class T, class F>
  static T fetch_apply(T* p, const F& f, memory_order o) noexcept {
    T old = load(p, memory_order::relaxed);
    T next = f(old);
    while (!__atomic_compare_exchange(p, &old, &next, true, int(o), int(memory_order::relaxed))) next = f(old);
    return old;
  }
};

}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
