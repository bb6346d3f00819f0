//! @file The CUDA backend's tag: constructs reach its entries through it (detail/dispatch.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

namespace acc::detail::cuda {

/// The CUDA backend: one kernel (or a few) per construct kind, launched on the queue's stream.
/// Its entries have the host backend's names, files and signatures (backend/host/backend.hpp
/// lists them); runtime operations that code compiled by g++ also needs (device memory,
/// queues) are reached through the device_ops table that runtime.hpp registers.
struct backend {};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
