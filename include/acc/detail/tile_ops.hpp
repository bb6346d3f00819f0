//! @file The operations code inside a tile runs (cached views' element addressing, tile_for's
//! and tile_barrier's waits, per_iteration's storage, acc::cache's loads): the CUDA backend's
//! in nvcc's device pass, the host backend's everywhere else. This alias is the one place tile
//! code tells the passes apart; both structs have the same members (backend/*/tile_ops.hpp),
//! but for the host's cache_overflow, which only an Ops with overflow_at_call has.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/host/tile_ops.hpp>
#include <acc/detail/config.hpp>

#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/tile_ops.hpp>
#endif

namespace acc::detail {

#if defined(ACC_DETAIL_DEVICE_PASS)
using tile_ops = cuda::tile_ops;
#else
using tile_ops = host::tile_ops;
#endif

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
