//! @file The hand-written CUDA version of srad.hpp's tiled iteration: the ROI statistics by one
//! block (a shared-memory tree in double), kernel 1 on 16 x 16 blocks with J and a halo of 1
//! in shared memory, kernel 2 with the coefficients and a halo of 1 south and east in shared
//! memory. The baseline of bench/tiles.cu and of the example's GPU run; nvcc only.
#pragma once

#include "srad.hpp"

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace srad {

template <int B>
__global__ void hand_roi(const float* __restrict__ J, int cols, params p, float* __restrict__ q0sqr) {
  __shared__ double part[2][B];
  const int w = p.c2 - p.c1 + 1, size = (p.r2 - p.r1 + 1) * w, l = int(threadIdx.x);
  double s = 0.0, s2 = 0.0;
  for (int k = l; k < size; k += B) {
    const double v = J[std::size_t(p.r1 + k / w) * cols + p.c1 + k % w];
    s += v;
    s2 += v * v;
  }
  part[0][l] = s;
  part[1][l] = s2;
  __syncthreads();
  for (int half = B / 2; half > 0; half /= 2) {
    if (l < half) {
      part[0][l] += part[0][l + half];
      part[1][l] += part[1][l + half];
    }
    __syncthreads();
  }
  if (l == 0) *q0sqr = q0sqr_of(part[0][0], part[1][0], size);
}

template <int B>
__global__ void hand_derivatives(const float* __restrict__ J, const float* __restrict__ q0sqr, float* __restrict__ dN,
                                 float* __restrict__ dS, float* __restrict__ dW, float* __restrict__ dE,
                                 float* __restrict__ c, int rows, int cols) {
  constexpr int H = B + 2;
  __shared__ float tile[H][H];
  const int i0 = int(blockIdx.y) * B, j0 = int(blockIdx.x) * B;
  for (int k = int(threadIdx.y) * B + int(threadIdx.x); k < H * H; k += B * B) {
    const int r = k / H, q = k - r * H, gi = i0 - 1 + r, gj = j0 - 1 + q;
    if (gi >= 0 && gi < rows && gj >= 0 && gj < cols) tile[r][q] = J[std::size_t(gi) * cols + gj];
  }
  __syncthreads();
  const int i = i0 + int(threadIdx.y), j = j0 + int(threadIdx.x);
  if (i >= rows || j >= cols) return;
  const int r = int(threadIdx.y) + 1, q = int(threadIdx.x) + 1;
  const float jc = tile[r][q];
  const float n = tile[i > 0 ? r - 1 : r][q] - jc, s = tile[i < rows - 1 ? r + 1 : r][q] - jc;
  const float w = tile[r][j > 0 ? q - 1 : q] - jc, e = tile[r][j < cols - 1 ? q + 1 : q] - jc;
  const std::size_t k = std::size_t(i) * cols + j;
  dN[k] = n;
  dS[k] = s;
  dW[k] = w;
  dE[k] = e;
  c[k] = coefficient(jc, n, s, w, e, *q0sqr);
}

template <int B>
__global__ void hand_update(float* __restrict__ J, const float* __restrict__ c, const float* __restrict__ dN,
                            const float* __restrict__ dS, const float* __restrict__ dW, const float* __restrict__ dE,
                            int rows, int cols, float lambda) {
  constexpr int H = B + 1;
  __shared__ float tile[H][H];
  const int i0 = int(blockIdx.y) * B, j0 = int(blockIdx.x) * B;
  for (int k = int(threadIdx.y) * B + int(threadIdx.x); k < H * H; k += B * B) {
    const int r = k / H, q = k - r * H, gi = i0 + r, gj = j0 + q;
    if (gi < rows && gj < cols) tile[r][q] = c[std::size_t(gi) * cols + gj];
  }
  __syncthreads();
  const int i = i0 + int(threadIdx.y), j = j0 + int(threadIdx.x);
  if (i >= rows || j >= cols) return;
  const int r = int(threadIdx.y), q = int(threadIdx.x);
  const std::size_t k = std::size_t(i) * cols + j;
  J[k] = updated(J[k], tile[r][q], tile[i < rows - 1 ? r + 1 : r][q], tile[r][j < cols - 1 ? q + 1 : q], dN[k], dS[k],
                 dW[k], dE[k], lambda);
}

inline void hand_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("srad hand-written CUDA: ") + what + ": " +
                                                 cudaGetErrorString(e));
}

/// Device addresses of an image's arrays.
struct hand_image {
  float *J, *dN, *dS, *dW, *dE, *c, *q0sqr;
};

/// `iterations` of srad_v2 on device memory, on `stream`; returns when done.
inline void hand(const hand_image& d, int rows, int cols, params p, int iterations, cudaStream_t stream) {
  constexpr int B = 16;
  const dim3 block(B, B), grid((cols + B - 1) / B, (rows + B - 1) / B);
  for (int it = 0; it < iterations; ++it) {
    hand_roi<1024><<<1, 1024, 0, stream>>>(d.J, cols, p, d.q0sqr);
    hand_check(cudaGetLastError(), "hand_roi launch");
    hand_derivatives<B><<<grid, block, 0, stream>>>(d.J, d.q0sqr, d.dN, d.dS, d.dW, d.dE, d.c, rows, cols);
    hand_check(cudaGetLastError(), "hand_derivatives launch");
    hand_update<B><<<grid, block, 0, stream>>>(d.J, d.c, d.dN, d.dS, d.dW, d.dE, rows, cols, p.lambda);
    hand_check(cudaGetLastError(), "hand_update launch");
  }
  hand_check(cudaStreamSynchronize(stream), "srad kernels");
}

}  // namespace srad
