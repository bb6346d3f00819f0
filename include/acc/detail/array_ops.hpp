//! @file Which backend acc::array and acc::view use where the code runs: detail::array_ops.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <acc/backend/host/array.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/array.hpp>
#endif

namespace acc::detail {

// nvcc's device pass compiles element access for kernels, every other pass (and g++) for the host.
#if defined(ACC_DETAIL_DEVICE_PASS)
using array_ops = cuda::array_ops;
#else
using array_ops = host::array_ops;
#endif

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
