//! @file The hand-written CUDA version of matmul_tiled.hpp's tiled product: 16 x 16 blocks, per
//! step of 16 in k the blocks of A and B loaded into shared memory (one element per thread),
//! then the partial dot products from there. The baseline of bench/tiles.cu and of the
//! example's GPU run; nvcc only.
#pragma once

#include "matmul_tiled.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace matmul_tiled {

template <int S>
__global__ void hand_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int M,
                            int K, int N) {
  __shared__ float as[S][S];
  __shared__ float bs[S][S];
  const int ty = int(threadIdx.y), tx = int(threadIdx.x);
  const int i = int(blockIdx.y) * S + ty, j = int(blockIdx.x) * S + tx;
  float s = 0.0f;
  for (int k0 = 0; k0 < K; k0 += S) {
    // Rows and columns outside the matrices are not loaded, and not read below.
    if (i < M && k0 + tx < K) as[ty][tx] = a[std::size_t(i) * K + k0 + tx];
    if (k0 + ty < K && j < N) bs[ty][tx] = b[std::size_t(k0 + ty) * N + j];
    __syncthreads();
    if (i < M && j < N) {
      if (k0 + S <= K) {
#pragma unroll
        for (int k = 0; k < S; ++k) s += as[ty][k] * bs[k][tx];
      } else {
        for (int k = 0; k < K - k0; ++k) s += as[ty][k] * bs[k][tx];
      }
    }
    __syncthreads();
  }
  if (i < M && j < N) c[std::size_t(i) * N + j] = s;
}

inline void hand_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("matmul_tiled hand-written CUDA: ") + what + ": " +
                                                 cudaGetErrorString(e));
}

/// c (M x N) = a (M x K) b (K x N), device memory, row-major, on `stream`; returns when done.
inline void hand(const float* a, const float* b, float* c, int M, int K, int N, cudaStream_t stream) {
  const dim3 block(side, side), grid((N + side - 1) / side, (M + side - 1) / side);
  hand_kernel<side><<<grid, block, 0, stream>>>(a, b, c, M, K, N);
  hand_check(cudaGetLastError(), "hand_kernel launch");
  hand_check(cudaStreamSynchronize(stream), "hand_kernel");
}

}  // namespace matmul_tiled
