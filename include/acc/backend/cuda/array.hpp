//! @file What acc::array and acc::view do inside kernels: read device memory (read-only
//! elements through the read-only data cache), report bad indices with a message and a trap.
#pragma once

#include <acc/detail/header_open.hpp>

#include <cstddef>
#include <cstdio>
#include <source_location>
#include <type_traits>

namespace acc::detail::cuda {

/// The device side of array and view; detail/array_ops.hpp picks it in nvcc's device pass.
struct array_ops {
  /// Copies made in a kernel are bitwise images: no references, no capture records.
  static constexpr bool is_host = false;

  /// Views whose reference is a value (const arithmetic elements) read through __ldg, so
  /// that kernels get `ld.global.nc` loads.
  ///
  /// The element is in global memory: a captured array or view points to its device copy (or,
  /// under acc::deviceptr and unified memory, to memory the device reaches as global), and a
  /// view made in device code is over device memory too (team memory has its own types:
  /// gang_t::shared's span, cached_view). Saying so lets nvcc tell elements from team memory,
  /// which it cannot for a pointer read from a kernel parameter's member once the kernel holds
  /// any call or trap (gang_t::shared's check): `out[k].v += qb[j] * rb[j].x` over j would
  /// otherwise store out[k] on every iteration instead of keeping it in a register, as a
  /// hand-written kernel with out as a pointer parameter does.
  template <class Ref, class T>
  __device__ static Ref load(T*, T* dev, std::size_t k) noexcept {
    __builtin_assume(__isGlobal(dev));
    if constexpr (!std::is_reference_v<Ref>)
      return __ldg(dev + k);
    else
      return dev[k];
  }

  /// acc::section(v, lo, len) of rows outside v, made in a kernel (tile-level code, for
  /// acc::cache): the host's message without the label (the view's is a host pointer) and a trap.
  template <class V>
  __device__ static void rows_outside(const V& v, std::size_t lo, std::size_t len, bool rows,
                                      const std::source_location&) {
    printf("acc::section: [%lld:%lld] is outside the array, whose extent is %llu%s\n", (long long)lo, (long long)len,
           (unsigned long long)v.extent(0), rows ? " rows" : "");
    __trap();
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

#include <acc/detail/header_close.hpp>
