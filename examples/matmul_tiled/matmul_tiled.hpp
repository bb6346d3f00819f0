//! @file Dense single-precision matrix product C = A B in 16 x 16 tiles for acc: the CPU
//! reference, the untiled acc version (one thread per element of C, the dot product over k
//! read from global memory) and the tiled acc version (one tile_loop over C in 16 x 16 tiles;
//! for each 16-wide step of k the tile stages A's 16 x 16 block and B's with one acc::cache call
//! (a list of two sections) and accumulates from shared memory; a variant fills gang-private
//! team-memory blocks instead). Shared by examples/matmul_tiled and bench/tiles.cu; the
//! hand-written CUDA kernel of the same algorithm is in matmul_tiled_cuda.cuh.
#pragma once

#include <acc/parallel.hpp>
#include <acc/tile.hpp>

#include <cstddef>
#include <vector>

// `#pragma unroll` for nvcc (g++ would warn about an unknown pragma); `unroll 1` for the last,
// partial step of k, which runs once per tile (unrolled, its remainder arithmetic would be
// computed in every full step).
#if defined(__CUDACC__)
#  define MATMUL_TILED_UNROLL _Pragma("unroll")
#  define MATMUL_TILED_ROLLED _Pragma("unroll 1")
#else
#  define MATMUL_TILED_UNROLL
#  define MATMUL_TILED_ROLLED
#endif

namespace matmul_tiled {

/// The tile's side: 16 x 16 iterations (elements of C), and 16 of k per step.
inline constexpr int side = 16;

/// The CPU reference, in double: c[i][j] = sum over k of a[i][k] b[k][j] (row-major), and the
/// sum of |terms| per element, the scale that bounds the float versions' rounding.
inline void reference(const float* a, const float* b, int M, int K, int N, std::vector<double>& c,
                      std::vector<double>& scale) {
  c.assign(std::size_t(M) * N, 0.0);
  scale.assign(std::size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      const double aik = a[std::size_t(i) * K + k];
      for (int j = 0; j < N; ++j) {
        const double t = aik * b[std::size_t(k) * N + j];
        c[std::size_t(i) * N + j] += t;
        scale[std::size_t(i) * N + j] += t < 0 ? -t : t;
      }
    }
}

// Untiled. OpenACC:
//   #pragma acc parallel loop collapse(2) present(a, b, c)
//   for i, j: { float s = 0; for (k = 0; k < K; ++k) s += a[i][k] * b[k][j]; c[i][j] = s; }
inline void untiled(acc::view<const float, 2> a, acc::view<const float, 2> b, acc::view<float, 2> c, int queue = 1) {
  const int M = int(a.extent(0)), K = int(a.extent(1)), N = int(b.extent(1));
  acc::parallel_loop(acc::collapse(M, N), acc::default_present, acc::async(queue), ACC_LAMBDA(int i, int j) {
    float s = 0.0f;
    for (int k = 0; k < K; ++k) s += a(i, k) * b(k, j);
    c(i, j) = s;
  });
  acc::wait(queue);
}

// Tiled: a 16 x 16 tile of C per gang; per step of 16 in k, one acc::cache call stages
// A[i0:16][k0:16] and B[k0:16][j0:16] (clipped at the matrices' edges) and every iteration
// accumulates its dot product from shared memory in a per_iteration register; the same additions
// in the same order as untiled(). OpenACC: `#pragma acc cache(a[i0:16][k0:16], b[k0:16][j0:16])`
// in the k loop, a list of two sections. On a GPU both blocks have the tile's shape, so each
// thread loads one element of each, both loads issued before either store to shared memory (one
// global-load latency per step, as the hand-written kernel), one barrier for both, and the
// unrolled k loop reads as(i, k0 + k) four elements at a time.
inline void tiled(acc::view<const float, 2> a, acc::view<const float, 2> b, acc::view<float, 2> c, int queue = 1) {
  const int M = int(a.extent(0)), K = int(a.extent(1)), N = int(b.extent(1));
  acc::tile_loop(acc::collapse(M, N), acc::tile_size(side, side), acc::cache_bytes(2 * side * side * sizeof(float)),
                 acc::default_present, acc::async(queue), ACC_LAMBDA(const acc::tile_t<2>& t) {
                   const int i0 = t.origin(0), j0 = t.origin(1);
                   acc::per_iteration<float> sum(t, 0.0f);
                   for (int k0 = 0; k0 < K; k0 += side) {
                     const auto [as, bs] = acc::cache(t, acc::section(a, acc::fixed(i0, side), acc::fixed(k0, side)),
                                                         acc::section(b, acc::fixed(k0, side), acc::fixed(j0, side)));
                     acc::tile_for(t, [&](int i, int j) {
                       float s = sum(i, j);
                       if (k0 + side <= K) {
                         MATMUL_TILED_UNROLL
                         for (int k = 0; k < side; ++k) s += as(i, k0 + k) * bs(k0 + k, j);
                       } else {
                         MATMUL_TILED_ROLLED
                         for (int k = k0; k < K; ++k) s += as(i, k) * bs(k, j);
                       }
                       sum(i, j) = s;
                     });
                   }
                   acc::tile_for(t, [&](int i, int j) { c(i, j) = sum(i, j); });
                 });
  acc::wait(queue);
}

// Tiled with team memory (MACC's dist_private): the same tiles and steps, but the 16 x 16
// blocks are gang-private buffers the iterations fill themselves in one acc::tile_for, so that a
// step costs two barriers (fill, use), as in hand-written CUDA. Iteration (i, j) loads
// A(i, k0 + kk) for kk = j - j0, j - j0 + nj, ... and B(k0 + kk, j) for kk = i - i0, i - i0 + ni,
// ..., so that a tile at the matrices' edge (ni x nj iterations) still fills every row and column
// it reads. A full tile runs its full steps (kn = 16) in a loop of their own, before the rest:
// each iteration loads exactly one element of each block, both global loads before either store
// to shared memory (one load latency per step, as the hand-written kernel), and the step has no
// test in it. (With the full and partial cases tested inside one loop, per step, the H100 ran
// this 1.135x the hand-written kernel; split, 1.004x.)
// Buffer a_block has A's rows of the tile (halo 0) and 16 columns (fixed(0, 16), indexed by the
// offset kk in the step: a fixed last dimension, whose rows are 16-byte aligned, so
// a_block(i, kk) is read four at a time), b_block 16 rows and B's columns of the tile.
inline void tiled_team(acc::view<const float, 2> a, acc::view<const float, 2> b, acc::view<float, 2> c,
                       int queue = 1) {
  const int M = int(a.extent(0)), K = int(a.extent(1)), N = int(b.extent(1));
  // Shapes for the buffers only: mode none never reads or writes a or b through them.
  const acc::view<float, 2> a_shape(a.label(), const_cast<float*>(a.data()), M, K);
  const acc::view<float, 2> b_shape(b.label(), const_cast<float*>(b.data()), K, N);
  acc::tile_loop(acc::collapse(M, N), acc::tile_size(side, side),
                 acc::dist_private(a_shape, acc::halo(0, 0), acc::fixed(0, side)),
                 acc::dist_private(b_shape, acc::fixed(0, side), acc::halo(0, 0)), acc::default_present,
                 acc::async(queue),
                 ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<float, 2>& a_block,
                            const acc::cached_view<float, 2>& b_block) {
                   const int i0 = t.origin(0), j0 = t.origin(1), ni = t.count(0), nj = t.count(1);
                   acc::per_iteration<float> sum(t, 0.0f);
                   // Full steps of a full tile first, with no test per step; then whatever is left.
                   const int k_full = ni == side && nj == side ? K / side * side : 0;
                   int k0 = 0;
                   for (; k0 < k_full; k0 += side) {
                     acc::tile_for(t, [&](int i, int j) {
                       // One element of each block per iteration; both loads before both stores.
                       const float x = a(i, k0 + (j - j0)), y = b(k0 + (i - i0), j);
                       a_block(i, j - j0) = x;
                       b_block(i - i0, j) = y;
                     });
                     acc::tile_for(t, [&](int i, int j) {
                       float s = sum(i, j);
                       MATMUL_TILED_UNROLL
                       for (int kk = 0; kk < side; ++kk) s += a_block(i, kk) * b_block(kk, j);
                       sum(i, j) = s;
                     });
                   }
                   for (; k0 < K; k0 += side) {
                     const int kn = K - k0 < side ? K - k0 : side;
                     acc::tile_for(t, [&](int i, int j) {
                       for (int kk = j - j0; kk < kn; kk += nj) a_block(i, kk) = a(i, k0 + kk);
                       for (int kk = i - i0; kk < kn; kk += ni) b_block(kk, j) = b(k0 + kk, j);
                     });
                     acc::tile_for(t, [&](int i, int j) {
                       float s = sum(i, j);
                       MATMUL_TILED_ROLLED
                       for (int kk = 0; kk < kn; ++kk) s += a_block(i, kk) * b_block(kk, j);
                       sum(i, j) = s;
                     });
                   }
                   acc::tile_for(t, [&](int i, int j) { c(i, j) = sum(i, j); });
                 });
  acc::wait(queue);
}

}  // namespace matmul_tiled
