//! @file The hand-written CUDA version of nbody.hpp's tiled forces (GPU Gems 3, ch. 31: blocks
//! of 256 bodies, each block of 256 others loaded into shared memory, one per thread, then
//! every thread adds their forces from there). The baseline of bench/tiles.cu and of the
//! example's GPU run; nvcc only.
#pragma once

#include "nbody.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace nbody {

template <int B>
__global__ void hand_kernel(const body* __restrict__ pos, vec3* __restrict__ out, int n, float eps2) {
  __shared__ body staged[B];
  const int i = int(blockIdx.x) * B + int(threadIdx.x);
  const body me = i < n ? pos[i] : body{0.0f, 0.0f, 0.0f, 0.0f};
  vec3 a{0.0f, 0.0f, 0.0f};
  for (int jt = 0; jt < n; jt += B) {
    __syncthreads();  // the previous block of others is no longer read
    if (jt + int(threadIdx.x) < n) staged[threadIdx.x] = pos[jt + threadIdx.x];
    __syncthreads();
    const int jn = n - jt < B ? n - jt : B;
    if (i < n) {
#pragma unroll 4
      for (int j = 0; j < jn; ++j) interact(a, me, staged[j], eps2);
    }
  }
  if (i < n) out[i] = a;
}

inline void hand_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("nbody hand-written CUDA: ") + what + ": " +
                                                 cudaGetErrorString(e));
}

/// out[i] = acceleration of body i, device memory, on `stream`; returns when done.
inline void hand(const body* pos, vec3* out, int n, float eps2, cudaStream_t stream) {
  hand_kernel<tile><<<(n + tile - 1) / tile, tile, 0, stream>>>(pos, out, n, eps2);
  hand_check(cudaGetLastError(), "hand_kernel launch");
  hand_check(cudaStreamSynchronize(stream), "hand_kernel");
}

}  // namespace nbody
