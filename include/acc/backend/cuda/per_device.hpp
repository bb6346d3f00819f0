//! @file Values the CUDA backend computes once per device and then reads on every launch.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <type_traits>

namespace acc::detail::cuda {

inline constexpr int max_devices = 64;

/// A value computed once per device, on first use; later lookups cost one acquire load, which
/// matters because every launch consults these (bench/launch). The once-logic is the
/// runtime's (call_once_at), so that a kernel's static cache instantiates no locking code.
template <class T>
class per_device {
public:
  template <class Make>
  const T& get(int device, Make&& make) {
    if (device < 0 || device >= max_devices) throw bad_clause("acc: device numbers above 63 are not supported");
    if (!done_at(done_, device)) {
      struct context {
        per_device* self;
        int device;
        std::remove_reference_t<Make>* make;
      } c{this, device, &make};
      call_once_at(
          done_, device,
          [](void* p) {
            auto& x = *static_cast<context*>(p);
            x.self->value_[x.device] = (*x.make)();
          },
          &c);
    }
    return value_[device];
  }

private:
  int done_[max_devices] = {};
  T value_[max_devices] = {};
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
