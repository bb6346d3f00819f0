//! @file Leak checks for the data environment: device memory in use before and after a scenario.
#pragma once

#include <acc/parallel.hpp>

#include <cstddef>
#include <stdexcept>

#if defined(__CUDACC__)
#  include <cuda_runtime.h>
#endif

#include "support/buffer.hpp"

namespace acc_test {

/// Bytes acc holds on the current GPU now (0 on the host), after every queue is waited for so
/// that stream-ordered frees have happened. acc allocates device memory only from its own
/// stream-ordered pool, so the pool's count is exact, and unlike cudaMemGetInfo it is not
/// disturbed by other processes on the GPU (ctest -j runs test cases side by side) nor by the
/// freed memory the pool keeps for reuse.
inline long long device_memory_in_use() {
  if (!gpu_run()) return 0;
  acc::wait_all();
#if defined(__CUDACC__)
  const int device = acc::get_device_num(acc::device_type::nvidia);
  cudaMemPool_t pool = acc::detail::cuda::memory_pool(device, {"device_memory_in_use"});
  unsigned long long used = 0;  // cuuint64_t, which cuda_runtime.h does not name
  if (cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used) != cudaSuccess)
    throw std::runtime_error("acc_test: cannot read the device memory pool's usage");
  return static_cast<long long>(used);
#else
  return 0;  // a g++ build never runs on a GPU
#endif
}

/// Runs `scenario` twice and returns the device memory the second run left in use. The first
/// run loads the kernels (lazy module loading allocates device memory once per kernel).
template <class Scenario>
long long leaked_by(Scenario&& scenario) {
  scenario();
  const long long before = device_memory_in_use();
  scenario();
  return device_memory_in_use() - before;
}

}  // namespace acc_test
