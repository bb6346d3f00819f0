//! @file acc::atomic_add, OpenACC's `atomic update` for x += v (OpenACC 3.3 §2.12).
#pragma once

#include <acc/detail/config.hpp>

#include <atomic>
#include <type_traits>

namespace acc {

/// *p += v as one indivisible update, from compute constructs on any backend (OpenACC 3.3
/// §2.12 `#pragma acc atomic update`); returns the old value. T: int, unsigned, long long,
/// unsigned long long, float or double (what CUDA's atomicAdd takes; long where it is 64-bit).
/// - Relaxed ordering, as OpenACC's atomics: it orders nothing else.
/// e.g. acc::parallel_loop(n, ACC_LAMBDA(int i) { acc::atomic_add(&count[key[i]], 1); });
template <class T>
ACC_DETAIL_HD T atomic_add(T* p, T v) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8),
                "acc::atomic_add: T must be a 4- or 8-byte integer or floating-point type (int, unsigned, long "
                "long, float, double)");
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_floating_point_v<T>) {
    return atomicAdd(p, v);
  } else if constexpr (sizeof(T) == 4) {
    using U = std::conditional_t<std::is_signed_v<T>, int, unsigned>;
    return static_cast<T>(atomicAdd(reinterpret_cast<U*>(p), static_cast<U>(v)));
  } else {
    // Two's complement: the unsigned 64-bit add gives the signed sum too.
    return static_cast<T>(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
  }
#else
  return std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
#endif
}

}  // namespace acc
