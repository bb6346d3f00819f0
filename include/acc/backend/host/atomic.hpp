//! @file Atomic operations on the host (OpenMP threads): std::atomic_ref.
#pragma once

#include <atomic>

namespace acc::detail::host {

// std::atomic_ref has every operation but min, max and the non-associative ones; those are
// compare-exchange loops over it.
struct atomic_ops {
  template <class T>
  static T add(T* p, T v) noexcept {
    return std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
  }

  template <class T>
  static T load(const T* p, std::memory_order o) noexcept {
    return std::atomic_ref<T>(*const_cast<T*>(p)).load(o);
  }
  template <class T>
  static void store(T* p, T v, std::memory_order o) noexcept {
    std::atomic_ref<T>(*p).store(v, o);
  }
  template <class T>
  static T exchange(T* p, T v, std::memory_order o) noexcept {
    return std::atomic_ref<T>(*p).exchange(v, o);
  }
  template <class T>
  static bool compare_exchange(T* p, T& expected, T desired, std::memory_order success,
                               std::memory_order failure) noexcept {
    return std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired, success, failure);
  }
  template <class T>
  static T fetch_add(T* p, T v, std::memory_order o) noexcept {
    return std::atomic_ref<T>(*p).fetch_add(v, o);
  }
  template <class T>
  static T fetch_sub(T* p, T v, std::memory_order o) noexcept {
    return std::atomic_ref<T>(*p).fetch_sub(v, o);
  }
  template <class T>
  static T fetch_and(T* p, T v, std::memory_order o) noexcept {
    return std::atomic_ref<T>(*p).fetch_and(v, o);
  }
  template <class T>
  static T fetch_or(T* p, T v, std::memory_order o) noexcept {
    return std::atomic_ref<T>(*p).fetch_or(v, o);
  }
  template <class T>
  static T fetch_xor(T* p, T v, std::memory_order o) noexcept {
    return std::atomic_ref<T>(*p).fetch_xor(v, o);
  }
  template <class T>
  static T fetch_min(T* p, T v, std::memory_order o) noexcept {
    return fetch_apply(p, [v](T old) { return v < old ? v : old; }, o);
  }
  template <class T>
  static T fetch_max(T* p, T v, std::memory_order o) noexcept {
    return fetch_apply(p, [v](T old) { return old < v ? v : old; }, o);
  }
  /// *p = f(*p) as one indivisible step; returns the old value.
  template <class T, class F>
  static T fetch_apply(T* p, const F& f, std::memory_order o) noexcept {
    std::atomic_ref<T> r(*p);
    T old = r.load(std::memory_order_relaxed);
    while (!r.compare_exchange_weak(old, f(old), o, std::memory_order_relaxed)) {
    }
    return old;
  }
};

}  // namespace acc::detail::host
