//! @file The hand-written CUDA version of pathfinder.hpp's tiled pyramid: blocks of 256
//! columns, the costs and a halo of `height` columns loaded into one shared buffer, rows
//! computed alternately into a second one, the widened columns taken by the first threads.
//! The baseline of bench/tiles.cu and of the example's GPU run; nvcc only.
#pragma once

#include "pathfinder.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace pathfinder {

__global__ void hand_first_row(const int* __restrict__ wall, int* __restrict__ src, int cols) {
  const int c = int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x);
  if (c < cols) src[c] = wall[c];
}

template <int B>
__global__ void hand_pyramid(const int* __restrict__ wall, const int* __restrict__ src, int* __restrict__ dst,
                             int cols, int row0, int height) {
  extern __shared__ int buffers[];  // two of B + 2 height
  const int width = B + 2 * height;
  int* const a = buffers;
  int* const b = buffers + width;
  const int lo = int(blockIdx.x) * B, count = min(B, cols - lo), hi = lo + count, base = lo - height;
  for (int k = int(threadIdx.x); k < width; k += B) {
    const int x = base + k;
    if (x >= 0 && x < cols) a[k] = src[x];
  }
  __syncthreads();
  const int l = int(threadIdx.x);
  for (int s = 1; s <= height; ++s) {
    const int* in = (s & 1) ? a : b;
    int* out = (s & 1) ? b : a;
    const int row = row0 + s - 1, widen = height - s;
    auto cost = [&](int x) {
      int m = in[x - base];
      if (x > 0) m = min_of(m, in[x - 1 - base]);
      if (x < cols - 1) m = min_of(m, in[x + 1 - base]);
      return wall[std::size_t(row) * cols + x] + m;
    };
    if (l < count) {
      const int c = lo + l;
      if (widen == 0) {
        dst[c] = cost(c);
      } else {
        out[c - base] = cost(c);
        for (int k = l; k < 2 * widen; k += count) {
          const int x = k < widen ? lo - widen + k : hi + (k - widen);
          if (x >= 0 && x < cols) out[x - base] = cost(x);
        }
      }
    }
    __syncthreads();
  }
}

inline void hand_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("pathfinder hand-written CUDA: ") + what + ": " +
                                                 cudaGetErrorString(e));
}

/// Every row on device memory (wall: rows x cols), `height` rows per launch, on `stream`;
/// returns the buffer (src or dst) holding the bottom row's costs.
inline int* hand(const int* wall, int* src, int* dst, int rows, int cols, int height, cudaStream_t stream) {
  hand_first_row<<<(cols + 255) / 256, 256, 0, stream>>>(wall, src, cols);
  hand_check(cudaGetLastError(), "hand_first_row launch");
  for (int t = 1; t < rows; t += height) {
    const int h = rows - t < height ? rows - t : height;
    const std::size_t shared = 2 * (tile + 2 * std::size_t(h)) * sizeof(int);
    hand_pyramid<tile><<<(cols + tile - 1) / tile, tile, shared, stream>>>(wall, src, dst, cols, t, h);
    hand_check(cudaGetLastError(), "hand_pyramid launch");
    std::swap(src, dst);
  }
  hand_check(cudaStreamSynchronize(stream), "hand_pyramid");
  return src;
}

}  // namespace pathfinder
