//! @file The hand-written CUDA version of fwt.hpp's tiled transform: radix-2 stages of stride
//! 1024 and more over global memory, then one kernel with a block of 512 threads per 1024
//! elements running the smaller strides in shared memory, a butterfly pair per thread. The baseline of
//! bench/tiles.cu and of the example's GPU run; nvcc only.
#pragma once

#include "fwt.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace fwt {

__global__ void hand_stage(float* __restrict__ d, int half, int s) {
  const int p = int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x);
  if (p >= half) return;
  const int lo = ((p & ~(s - 1)) << 1) | (p & (s - 1));
  const float a = d[lo], b = d[lo + s];
  d[lo] = a + b;
  d[lo + s] = a - b;
}

template <int W>
__global__ void hand_stages(float* __restrict__ d, int n) {
  __shared__ float x[W];
  const int w = n < W ? n : W, half = w / 2, c = int(threadIdx.x);
  float* row = d + std::size_t(blockIdx.x) * w;
  for (int k = c; k < w; k += half) x[k] = row[k];
  __syncthreads();
  for (int s = half; s >= 1; s /= 2) {
    const int lo = ((c & ~(s - 1)) << 1) | (c & (s - 1));
    const float a = x[lo], b = x[lo + s];
    if (s > 1) {
      x[lo] = a + b;
      x[lo + s] = a - b;
      __syncthreads();
    } else {
      row[lo] = a + b;
      row[lo + s] = a - b;
    }
  }
}

__global__ void hand_modulate(float* __restrict__ d, const float* __restrict__ k, int n, float rcp_n) {
  const int i = int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x);
  if (i < n) d[i] = d[i] * (k[i] * rcp_n);
}

inline void hand_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("fwt hand-written CUDA: ") + what + ": " +
                                                 cudaGetErrorString(e));
}

inline void hand_transform(float* d, int n, cudaStream_t stream) {
  for (int s = n / 2; s >= tile; s /= 2) {
    hand_stage<<<(n / 2 + 255) / 256, 256, 0, stream>>>(d, n / 2, s);
    hand_check(cudaGetLastError(), "hand_stage launch");
  }
  const int w = n < tile ? n : tile;
  if (w < 2) return;
  hand_stages<tile><<<n / w, w / 2, 0, stream>>>(d, n);
  hand_check(cudaGetLastError(), "hand_stages launch");
}

/// data = dyadic convolution of data and kernel (device memory, n = 2^k each, kernel
/// zero-padded; kernel overwritten by its spectrum), on `stream`; returns when done.
inline void hand(float* data, float* kernel, int n, cudaStream_t stream) {
  hand_transform(data, n, stream);
  hand_transform(kernel, n, stream);
  hand_modulate<<<(n + 255) / 256, 256, 0, stream>>>(data, kernel, n, 1.0f / float(n));
  hand_check(cudaGetLastError(), "hand_modulate launch");
  hand_transform(data, n, stream);
  hand_check(cudaStreamSynchronize(stream), "hand transform");
}

}  // namespace fwt
