//! @file Which backend performs acc's atomic updates where the code runs: detail::atomic_ops.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <acc/backend/host/atomic.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/atomic.hpp>
#endif

namespace acc::detail {

// nvcc's device pass compiles kernels, every other pass (and g++) host threads.
#if defined(ACC_DETAIL_DEVICE_PASS)
using atomic_ops = cuda::atomic_ops;
#else
using atomic_ops = host::atomic_ops;
#endif

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
