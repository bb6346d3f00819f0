//! @file The runtime's definitions of acc/devices.hpp (acc::devices_of). Compiled with
//! detail/runtime-inl.hpp, which includes it.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_DEVICES_INL)
#define ACC_DETAIL_DEVICES_INL

#include <acc/detail/devices.hpp>

#include <source_location>
#include <vector>

namespace acc {

// Out of line: the vector's construction would cost every translation unit its instantiation.
ACC_DETAIL_RUNTIME_FN std::vector<int> devices_of(const devices_t& d, std::source_location where) {
  const detail::device_list list = detail::resolve_devices(d, true, {"devices_of", where});
  if (list.count == 0) return {d.count > 0 ? d.ids[0] : 0};
  return std::vector<int>(list.ids, list.ids + list.count);
}

}  // namespace acc

#endif
