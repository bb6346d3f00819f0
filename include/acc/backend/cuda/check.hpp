//! @file Every CUDA call acc makes goes through ACC_DETAIL_CUDA_CHECK.
#pragma once

#include <acc/detail/config.hpp>
#include <acc/error.hpp>

#include <cuda_runtime.h>

#include <cstring>
#include <string>

namespace acc::detail::cuda {

/// "acc/backend/cuda/loop.hpp:97" rather than the install prefix of whoever built it.
inline const char* library_path(const char* file) {
  const char* p = std::strstr(file, "acc/");
  return p ? p : file;
}

[[noreturn]] ACC_DETAIL_COLD inline void throw_cuda(cudaError_t e, const char* call, const call_site& site, const char* file,
                                    int line) {
  throw device_error(describe(site) + ": " + call + " failed: " + cudaGetErrorName(e) + " (" +
                     cudaGetErrorString(e) + ") [" + library_path(file) + ":" + std::to_string(line) + "]");
}

inline void check(cudaError_t e, const char* call, const call_site& site, const char* file, int line) {
  if (e != cudaSuccess) {
    (void)cudaGetLastError();  // clear a non-sticky error so the next call does not report it again
    throw_cuda(e, call, site, file, line);
  }
}

}  // namespace acc::detail::cuda

/// Checks a CUDA call; on failure throws acc::device_error naming the call, this line and
/// the user's construct (`site`, an acc::detail::call_site).
#define ACC_DETAIL_CUDA_CHECK(call, site) ::acc::detail::cuda::check((call), #call, (site), __FILE__, __LINE__)
