//! @file Leak checks for the data environment: device memory in use before and after a scenario.
#pragma once

#include <acc/parallel.hpp>

#include <cstddef>

#include "support/buffer.hpp"

namespace acc_test {

/// Bytes of the current GPU in use now (0 on the host): every queue waited for first, so that
/// stream-ordered frees have reached the device.
inline std::size_t device_memory_in_use() {
  if (!gpu_run()) return 0;
  acc::wait_all();
  std::size_t free = 0, total = 0;
  acc::detail::cuda_ops().mem_info(acc::get_device_num(acc::device_type::nvidia), &free, &total);
  return total - free;
}

/// Runs `scenario` twice and returns the device memory the second run left in use. The first
/// run loads the kernels (lazy module loading allocates device memory once per kernel).
template <class Scenario>
long long leaked_by(Scenario&& scenario) {
  scenario();
  const std::size_t before = device_memory_in_use();
  scenario();
  return static_cast<long long>(device_memory_in_use()) - static_cast<long long>(before);
}

}  // namespace acc_test
