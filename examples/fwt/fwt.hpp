//! @file Dyadic (XOR) convolution through the fast Walsh-Hadamard transform for acc:
//! result = FWT(FWT(data) * FWT(kernel)) / n, the algorithm of the CUDA SDK's fastWalshTransform
//! sample. The CPU reference is the direct sum; the untiled acc version runs every radix-2
//! stage as a parallel_loop over global memory; the tiled acc version runs the stages with
//! strides of 1024 and more that way and the last ten in one tile_loop, each 1024 elements in
//! shared memory (fetch, then channel: every stage's butterflies in place, acc::tile_for's
//! barrier between stages), 512 iterations per tile each owning a pair.
//! Shared by examples/fwt and bench/tiles.cu; the hand-written CUDA kernel of the same
//! algorithm is in fwt_cuda.cuh.
#pragma once

#include <acc/parallel.hpp>
#include <acc/tile.hpp>

#include <cstddef>
#include <vector>

namespace fwt {

/// Elements per tile (two per iteration): the in-tile stages are those with strides below it.
inline constexpr int tile = 1024;

/// The CPU reference: r[i] = sum over j < kn of data[i ^ j] kernel[j], in double (n = data's
/// size, a power of two, at least kn).
inline std::vector<double> reference(const std::vector<float>& data, const std::vector<float>& kernel) {
  const std::size_t n = data.size(), kn = kernel.size();
  std::vector<double> r(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (std::size_t j = 0; j < kn; ++j) s += double(data[i ^ j]) * kernel[j];
    r[i] = s;
  }
  return r;
}

// One radix-2 stage of stride s over global memory: each iteration takes the pair (lo, lo + s)
// to (a + b, a - b). OpenACC: `#pragma acc parallel loop present(d)` over n / 2 pairs.
inline void stage_untiled(acc::view<float> d, int s, int queue) {
  acc::parallel_loop(int(d.extent(0) / 2), acc::default_present, acc::async(queue), ACC_LAMBDA(int p) {
    const int lo = ((p & ~(s - 1)) << 1) | (p & (s - 1));
    const float a = d(lo), b = d(lo + s);
    d(lo) = a + b;
    d(lo + s) = a - b;
  });
}

// The stages of stride tile / 2 .. 1 (n / 2 .. 1 for a shorter array) in one tile_loop. The
// array is seen as rows of w = min(n, 1024) elements, and each tile is one row: w / 2
// iterations, each owning one butterfly pair per stage. The row is fetched into a channel
// buffer with a halo of w / 2 after the tile's iterations (the tile's 512 iterations own 1024
// elements); every stage updates its pairs there in place (the same operations as
// stage_untiled(); acc::tile_for's barrier orders the stages) and the last one stores its
// pairs straight to global memory. OpenACC + fcw:  fcw(fetch channel: d[r][c:c+512])
inline void stages_tiled(acc::view<float> d, int queue) {
  const int n = int(d.extent(0)), w = n < tile ? n : tile, half = w / 2;
  if (half == 0) return;  // one element: no stage
  const acc::view<float, 2> rows(d.label(), d.data(), n / w, w);
  acc::tile_loop(acc::collapse(n / w, half), acc::tile_size(1, half),
                 acc::cached(rows, acc::fetch | acc::channel, acc::halo(0, 0), acc::halo(0, half)),
                 acc::default_present, acc::async(queue),
                 ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<float, 2>& x) {
                   for (int s = half; s >= 1; s /= 2) {
                     acc::tile_for(t, [&](int r, int c) {
                       const int lo = ((c & ~(s - 1)) << 1) | (c & (s - 1));
                       const float a = x(r, lo), b = x(r, lo + s);
                       if (s > 1) {
                         x(r, lo) = a + b;
                         x(r, lo + s) = a - b;
                       } else {
                         rows(r, lo) = a + b;
                         rows(r, lo + s) = a - b;
                       }
                     });
                   }
                 });
}

/// d = d * k / n elementwise (the product of the spectra, normalised as the SDK's modulate).
inline void modulate(acc::view<float> d, acc::view<const float> k, int queue) {
  const float rcp_n = 1.0f / float(d.extent(0));
  acc::parallel_loop(int(d.extent(0)), acc::default_present, acc::async(queue),
                     ACC_LAMBDA(int i) { d(i) = d(i) * (k(i) * rcp_n); });
}

/// The unnormalised Walsh-Hadamard transform of d in place, every stage over global memory,
/// strides from n / 2 down to 1.
inline void transform_untiled(acc::view<float> d, int queue) {
  for (int s = int(d.extent(0) / 2); s >= 1; s /= 2) stage_untiled(d, s, queue);
}

/// The same transform, the same stage order, the strides below 1024 in shared memory.
inline void transform_tiled(acc::view<float> d, int queue) {
  for (int s = int(d.extent(0) / 2); s >= tile; s /= 2) stage_untiled(d, s, queue);
  stages_tiled(d, queue);
}

/// data = dyadic convolution of data and kernel (both of n = 2^k elements, kernel zero-padded;
/// both overwritten, kernel with its spectrum). Both must be present. Untiled transforms.
inline void untiled(acc::view<float> data, acc::view<float> kernel, int queue = 1) {
  transform_untiled(data, queue);
  transform_untiled(kernel, queue);
  modulate(data, kernel, queue);
  transform_untiled(data, queue);
  acc::wait(queue);
}

/// As untiled(), with tiled transforms.
inline void tiled(acc::view<float> data, acc::view<float> kernel, int queue = 1) {
  transform_tiled(data, queue);
  transform_tiled(kernel, queue);
  modulate(data, kernel, queue);
  transform_tiled(data, queue);
  acc::wait(queue);
}

}  // namespace fwt
