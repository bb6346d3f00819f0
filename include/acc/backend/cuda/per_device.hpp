//! @file Values the CUDA backend computes once per device and then reads on every launch.
#pragma once

#include <acc/error.hpp>

#include <array>
#include <mutex>

namespace acc::detail::cuda {

inline constexpr int max_devices = 64;

/// A value computed once per device, on first use; later lookups cost one atomic load, which
/// matters because every launch consults these (bench/launch).
template <class T>
class per_device {
public:
  template <class Make>
  const T& get(int device, Make&& make) {
    if (device < 0 || device >= max_devices) throw bad_clause("acc: device numbers above 63 are not supported");
    std::call_once(once_[device], [&] { value_[device] = make(); });
    return value_[device];
  }

private:
  std::array<std::once_flag, max_devices> once_;
  std::array<T, max_devices> value_{};
};

}  // namespace acc::detail::cuda
