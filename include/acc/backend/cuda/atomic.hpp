//! @file Atomic updates inside kernels: CUDA's atomicAdd on the types it takes.
#pragma once

#include <type_traits>

namespace acc::detail::cuda {

struct atomic_ops {
  template <class T>
  __device__ static T add(T* p, T v) noexcept {
    if constexpr (std::is_floating_point_v<T>) {
      return atomicAdd(p, v);
    } else if constexpr (sizeof(T) == 4) {
      using U = std::conditional_t<std::is_signed_v<T>, int, unsigned>;
      return static_cast<T>(atomicAdd(reinterpret_cast<U*>(p), static_cast<U>(v)));
    } else {
      // Two's complement: the unsigned 64-bit add gives the signed sum too.
      return static_cast<T>(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
    }
  }
};

}  // namespace acc::detail::cuda
