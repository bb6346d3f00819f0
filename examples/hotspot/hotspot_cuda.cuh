//! @file The hand-written CUDA versions of hotspot.hpp's tiled steps: 16 x 16 blocks, the tile and
//! a one-cell halo loaded cooperatively into shared memory, then the stencil from there; and the
//! pyramid of `height` steps per launch. The baselines of bench/tiles.cu and of the example's GPU
//! run; nvcc only.
#pragma once

#include "hotspot.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace hotspot {

template <int B>
__global__ void hand_step(const float* __restrict__ temp, const float* __restrict__ power, float* __restrict__ out,
                          int rows, int cols, coefficients c) {
  constexpr int H = B + 2;  // tile plus one cell each side
  __shared__ float tile[H][H];
  const int i0 = int(blockIdx.y) * B, j0 = int(blockIdx.x) * B;
  // Consecutive threads take consecutive columns (coalesced); cells outside the grid stay
  // unloaded, and the clamped neighbours below never read them.
  for (int k = int(threadIdx.y) * B + int(threadIdx.x); k < H * H; k += B * B) {
    const int r = k / H, q = k - r * H, gi = i0 - 1 + r, gj = j0 - 1 + q;
    if (gi >= 0 && gi < rows && gj >= 0 && gj < cols) tile[r][q] = temp[std::size_t(gi) * cols + gj];
  }
  __syncthreads();
  const int i = i0 + int(threadIdx.y), j = j0 + int(threadIdx.x);
  if (i >= rows || j >= cols) return;
  const int r = int(threadIdx.y) + 1, q = int(threadIdx.x) + 1;
  const int n = i > 0 ? r - 1 : r, s = i < rows - 1 ? r + 1 : r;
  const int w = j > 0 ? q - 1 : q, e = j < cols - 1 ? q + 1 : q;
  const std::size_t k = std::size_t(i) * cols + j;
  out[k] = cell(tile[r][q], tile[n][q], tile[s][q], tile[r][e], tile[r][w], power[k], c);
}

// hotspot.hpp's pyramid_tiled by hand: buffers a (tile + halo h, fetched), b and p (tile +
// halo h - 1; p the fetched power) in dynamic shared memory, rows of width 16 + 2 h and
// 16 + 2 (h - 1), indexed from the tile's origin minus the halo.
template <int B>
__global__ void hand_pyramid(const float* __restrict__ temp, const float* __restrict__ power, float* __restrict__ out,
                             int rows, int cols, coefficients c, int h) {
  extern __shared__ float buffers[];
  const int wa = B + 2 * h, wb = B + 2 * (h - 1);
  float* const a = buffers;
  float* const b = a + wa * wa;
  float* const p = b + wb * wb;
  const int i0 = int(blockIdx.y) * B, j0 = int(blockIdx.x) * B;
  const int ni = min(B, rows - i0), nj = min(B, cols - j0);
  const int tid = int(threadIdx.y) * B + int(threadIdx.x);
  for (int k = tid; k < wa * wa; k += B * B) {
    const int gi = i0 - h + k / wa, gj = j0 - h + k % wa;
    if (gi >= 0 && gi < rows && gj >= 0 && gj < cols) a[k] = temp[std::size_t(gi) * cols + gj];
  }
  for (int k = tid; k < wb * wb; k += B * B) {
    const int gi = i0 - (h - 1) + k / wb, gj = j0 - (h - 1) + k % wb;
    if (gi >= 0 && gi < rows && gj >= 0 && gj < cols) p[k] = power[std::size_t(gi) * cols + gj];
  }
  __syncthreads();
  const bool mine = int(threadIdx.y) < ni && int(threadIdx.x) < nj;
  const int l = int(threadIdx.y) * nj + int(threadIdx.x);
  for (int s = 1; s <= h; ++s) {
    // Buffer `in` holds the previous step over its box (origin i0 - oi, width wi).
    const float* in = (s & 1) ? a : b;
    float* to = (s & 1) ? b : a;
    const int oi = (s & 1) ? h : h - 1, wi = (s & 1) ? wa : wb;
    const int ot = (s & 1) ? h - 1 : h, wt = (s & 1) ? wb : wa;
    const int e = h - s;
    const int r_lo = max(i0 - e, 0), r_hi = min(i0 + ni + e, rows);
    const int c_lo = max(j0 - e, 0), c_hi = min(j0 + nj + e, cols);
    const int wc = c_hi - c_lo, cells = (r_hi - r_lo) * wc;
    auto at = [&](int x, int y) {
      const int n = x > 0 ? x - 1 : x, so = x < rows - 1 ? x + 1 : x;
      const int w = y > 0 ? y - 1 : y, ea = y < cols - 1 ? y + 1 : y;
      auto v = [&](int gx, int gy) { return in[(gx - i0 + oi) * wi + (gy - j0 + oi)]; };
      return cell(v(x, y), v(n, y), v(so, y), v(x, ea), v(x, w), p[(x - i0 + h - 1) * wb + (y - j0 + h - 1)], c);
    };
    if (mine) {
      if (e == 0) {
        const int i = i0 + int(threadIdx.y), j = j0 + int(threadIdx.x);
        out[std::size_t(i) * cols + j] = at(i, j);
      } else {
        for (int k = l; k < cells; k += ni * nj) {
          const int x = r_lo + k / wc, y = c_lo + k % wc;
          to[(x - i0 + ot) * wt + (y - j0 + ot)] = at(x, y);
        }
      }
    }
    __syncthreads();
  }
}

inline void hand_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("hotspot hand-written CUDA: ") + what + ": " +
                                                 cudaGetErrorString(e));
}

/// `iterations` steps on device memory, `height` per launch (1: hand_step, more: hand_pyramid),
/// ping-ponging temp and next on `stream`; returns the buffer holding the result.
inline float* hand(float* temp, float* next, const float* power, int rows, int cols, int iterations,
                   coefficients c, cudaStream_t stream, int height = 1) {
  constexpr int B = 16;
  const dim3 block(B, B), grid((cols + B - 1) / B, (rows + B - 1) / B);
  for (int it = 0; it < iterations; it += height) {
    const int h = iterations - it < height ? iterations - it : height;
    if (h == 1) {
      hand_step<B><<<grid, block, 0, stream>>>(temp, power, next, rows, cols, c);
      hand_check(cudaGetLastError(), "hand_step launch");
    } else {
      const std::size_t wa = B + 2 * h, wb = B + 2 * (h - 1);
      const std::size_t shared = (wa * wa + 2 * wb * wb) * sizeof(float);
      if (shared > 48 * 1024)
        hand_check(cudaFuncSetAttribute(hand_pyramid<B>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)),
                   "cudaFuncSetAttribute");
      hand_pyramid<B><<<grid, block, shared, stream>>>(temp, power, next, rows, cols, c, h);
      hand_check(cudaGetLastError(), "hand_pyramid launch");
    }
    std::swap(temp, next);
  }
  hand_check(cudaStreamSynchronize(stream), "hotspot steps");
  return temp;
}

}  // namespace hotspot
