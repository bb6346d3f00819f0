//! @file Reduction of one value per thread over a block of any whole number of warps: the
//! constructs' blocks are sized at run time by num_workers x vector_length, which
//! cub::BlockReduce (sized at compile time) cannot follow.
#pragma once

#include <cub/warp/warp_reduce.cuh>

namespace acc::detail::cuda {

/// Reduces v over threads [0, valid) of the calling block (blockDim.x a multiple of 32, at
/// most 1024, every thread calling) and returns the result in thread 0. `slots` is 32 values
/// of shared memory; the call ends with a barrier, so they may be reused at once.
template <class T, class Op>
__device__ T block_reduce(T v, const Op& op, int valid, T* slots) {
  using warp_reduce = cub::WarpReduce<T>;
  typename warp_reduce::TempStorage temp;  // empty: shuffles need no memory
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int in_warp = valid - warp * 32;
  if (in_warp > 0) {
    v = warp_reduce(temp).Reduce(v, op, in_warp < 32 ? in_warp : 32);
    if (lane == 0) slots[warp] = v;
  }
  __syncthreads();
  const int warps = (valid + 31) / 32;
  if (warp == 0 && warps > 1) {
    T w = lane < warps ? slots[lane] : slots[0];
    v = warp_reduce(temp).Reduce(w, op, warps);
  }
  __syncthreads();
  return v;
}

}  // namespace acc::detail::cuda
