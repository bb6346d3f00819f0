//! @file Atomic updates on the host (OpenMP threads): std::atomic_ref.
#pragma once

#include <atomic>

namespace acc::detail::host {

struct atomic_ops {
  template <class T>
  static T add(T* p, T v) noexcept {
    return std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
  }
};

}  // namespace acc::detail::host
