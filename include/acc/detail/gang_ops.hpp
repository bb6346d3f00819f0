//! @file Which backend runs the code inside acc::parallel: detail::gang_ops, the one place that
//! picks between backend/cuda/gang.hpp and backend/host/gang.hpp.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <acc/backend/host/gang.hpp>
#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/gang.hpp>
#endif

namespace acc::detail {

// One alias rather than an #if in every public function: nvcc's device pass runs a region body
// in every thread of a block, every other pass (and g++) in the one thread that runs a gang.
#if defined(ACC_DETAIL_DEVICE_PASS)
using gang_ops = cuda::gang_ops;
#else
using gang_ops = host::gang_ops;
#endif

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
