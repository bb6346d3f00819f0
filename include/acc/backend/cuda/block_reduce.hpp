//! @file Reduction of one value per thread over a block of any whole number of warps: the
//! constructs' blocks are sized at run time by num_workers x vector_length, which
//! a block reduction sized at compile time (as cub::BlockReduce) cannot follow.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/warp.hpp>

namespace acc::detail::cuda {

/// Reduces v over threads [0, valid) of the calling block (blockDim.x a multiple of 32, at
/// most 1024, every thread calling) and returns the result in thread 0. `slots` is 32 values
/// of shared memory; the call ends with a barrier, so they may be reused at once.
template <class T, class Op>
__device__ T block_reduce(T v, const Op& op, int valid, T* slots) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int in_warp = valid - warp * 32;
  if (in_warp > 0) {
    v = warp_reduce(v, op, in_warp < 32 ? in_warp : 32);
    if (lane == 0) slots[warp] = v;
  }
  __syncthreads();
  const int warps = (valid + 31) / 32;
  if (warp == 0 && warps > 1) {
    T w = lane < warps ? slots[lane] : slots[0];
    v = warp_reduce(w, op, warps);
  }
  __syncthreads();
  return v;
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
