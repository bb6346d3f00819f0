//! @file acc::atomic_add, OpenACC's `atomic update` for x += v (OpenACC 3.3 §2.12).
#pragma once

#include <acc/detail/atomic_ops.hpp>
#include <acc/detail/config.hpp>

#include <type_traits>

namespace acc {

/// *p += v as one indivisible update, from compute constructs on any backend (OpenACC 3.3
/// §2.12 `#pragma acc atomic update`); returns the old value. T: int, unsigned, long long,
/// unsigned long long, float or double (what a GPU adds atomically; long where it is 64-bit).
/// - Relaxed ordering, as OpenACC's atomics: it orders nothing else.
/// e.g. acc::parallel_loop(n, ACC_LAMBDA(int i) { acc::atomic_add(&count[key[i]], 1); });
template <class T>
ACC_DETAIL_HD T atomic_add(T* p, T v) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8),
                "acc::atomic_add: T must be a 4- or 8-byte integer or floating-point type (int, unsigned, long "
                "long, float, double)");
  return detail::atomic_ops::add(p, v);
}

}  // namespace acc
