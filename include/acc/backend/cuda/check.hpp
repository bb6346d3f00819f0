//! @file Every CUDA call acc makes goes through ACC_DETAIL_CUDA_CHECK.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/error.hpp>

#include <cuda_runtime.h>

#include <string>

namespace acc::detail::cuda {

/// Throws acc::device_error for the CUDA call `call` that failed with `e` at file:line of acc,
/// in the construct at `site`. Cold and never inlined: its definition says so (g++ warns about
/// noinline on an inline declaration).
[[noreturn]] ACC_DETAIL_CUDA_RUNTIME_FN void throw_cuda(cudaError_t e, const char* call, const call_site& site,
                                                        const char* file, int line);

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

#include <acc/detail/header_close.hpp>
