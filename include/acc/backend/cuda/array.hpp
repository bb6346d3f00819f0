//! @file What acc::array and acc::view do inside kernels: read device memory (read-only
//! elements through the read-only data cache), report bad indices with a message and a trap.
#pragma once

#include <cstddef>
#include <cstdio>
#include <type_traits>

namespace acc::detail::cuda {

/// The device side of array and view; detail/array_ops.hpp picks it in nvcc's device pass.
struct array_ops {
  /// Copies made in a kernel are bitwise images: no references, no capture records.
  static constexpr bool is_host = false;

  /// Views whose reference is a value (const arithmetic elements) read through __ldg, so
  /// that kernels get `ld.global.nc` loads.
  template <class Ref, class T>
  __device__ static Ref load(T*, T* dev, std::size_t k) noexcept {
    if constexpr (!std::is_reference_v<Ref>)
      return __ldg(dev + k);
    else
      return dev[k];
  }

  /// Kernels cannot throw: the message names the array by the label copied into the view.
  __device__ static void index_error(const char*, const char* device_label, std::size_t dim, long long index,
                                     std::size_t extent) {
    const char* label = device_label && device_label[0] ? device_label : nullptr;
    printf("acc: index %lld is outside extent %llu of dimension %llu of %s%s%s\n", index, (unsigned long long)extent,
           (unsigned long long)dim, label ? "'" : "an unlabelled array", label ? label : "", label ? "'" : "");
    __trap();
  }
};

}  // namespace acc::detail::cuda
