//! @file Rodinia srad_v2 (speckle-reducing anisotropic diffusion of an image) for acc: per
//! iteration the ROI statistics q0^2, then two stencil kernels: derivatives and the diffusion
//! coefficient from J and its four neighbours, then the divergence update of J from the
//! coefficients of the cell and its south and east neighbours. The CPU reference (Rodinia's
//! OpenMP loops), the untiled acc version (two collapsed parallel_loops) and the tiled acc
//! version (two tile_loops, 16 x 16, J fetched with a halo of 1 on every side, then C with a
//! halo of 1 after). Shared by examples/srad and bench/tiles.cu; the hand-written CUDA kernels
//! of the same algorithm are in srad_cuda.cuh.
#pragma once

#include <acc/parallel.hpp>
#include <acc/tile.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace srad {

/// Rodinia's region of interest (rows r1..r2, columns c1..c2, inclusive) and lambda.
struct params {
  int r1, r2, c1, c2;
  float lambda;
};

/// q0^2 from the ROI's sum and sum of squares, as srad_v2's main loop (meanROI, varROI).
ACC_ROUTINE inline float q0sqr_of(double sum, double sum2, int size) {
  const double mean = sum / size, var = sum2 / size - mean * mean;
  return float(var / (mean * mean));
}

/// The diffusion coefficient of a cell from its value and the differences to its neighbours
/// (srad_v2's kernel 1, equations 33 and on), saturated to [0, 1]. Rodinia mixes in double
/// literals (0.5, .25); float here throughout.
ACC_ROUTINE inline float coefficient(float jc, float n, float s, float w, float e, float q0sqr) {
  const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  const float l = (n + s + w + e) / jc;
  const float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
  const float den = 1.0f + (0.25f * l);
  const float qsqr = num / (den * den);
  const float d = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  const float c = 1.0f / (1.0f + d);
  return c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
}

/// The new value of a cell (srad_v2's kernel 2: divergence, equation 58; update, 61).
ACC_ROUTINE inline float updated(float jc, float cc, float cs, float ce, float n, float s, float w, float e,
                                 float lambda) {
  const float d = cc * n + cs * s + cc * w + ce * e;
  return jc + 0.25f * lambda * d;
}

/// Rodinia's image: exp of uniform [0, 1) noise (srad_v2 random_matrix, then J = exp(I)).
inline void make_image(float* j, std::size_t count) {
  std::uint64_t x = 0x6a09e667f3bcc909ull;
  for (std::size_t k = 0; k < count; ++k) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    j[k] = float(std::exp(double((z ^ (z >> 31)) >> 11) * 0x1.0p-53));
  }
}

/// The CPU reference: Rodinia's OpenMP srad_v2 loops (neighbour indices clamped at the
/// edges), `iterations` times; J is updated in place.
inline void reference(std::vector<float>& J, int rows, int cols, params p, int iterations) {
  const std::size_t size = std::size_t(rows) * cols;
  std::vector<float> dN(size), dS(size), dW(size), dE(size), c(size);
  auto at = [cols](int i, int j) { return std::size_t(i) * cols + j; };
  for (int it = 0; it < iterations; ++it) {
    double sum = 0.0, sum2 = 0.0;
    for (int i = p.r1; i <= p.r2; ++i)
      for (int j = p.c1; j <= p.c2; ++j) {
        const double v = J[at(i, j)];
        sum += v;
        sum2 += v * v;
      }
    const float q0sqr = q0sqr_of(sum, sum2, (p.r2 - p.r1 + 1) * (p.c2 - p.c1 + 1));
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const std::size_t k = at(i, j);
        const float jc = J[k];
        dN[k] = J[at(i > 0 ? i - 1 : i, j)] - jc;
        dS[k] = J[at(i < rows - 1 ? i + 1 : i, j)] - jc;
        dW[k] = J[at(i, j > 0 ? j - 1 : j)] - jc;
        dE[k] = J[at(i, j < cols - 1 ? j + 1 : j)] - jc;
        c[k] = coefficient(jc, dN[k], dS[k], dW[k], dE[k], q0sqr);
      }
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const std::size_t k = at(i, j);
        J[k] = updated(J[k], c[k], c[at(i < rows - 1 ? i + 1 : i, j)], c[at(i, j < cols - 1 ? j + 1 : j)], dN[k], dS[k],
                       dW[k], dE[k], p.lambda);
      }
  }
}

/// The device arrays of one image: J and the per-iteration fields (acc::array handles).
struct image {
  acc::array<float, 2> J, dN, dS, dW, dE, c;
  acc::array<float> q0sqr;  // one element: this iteration's q0^2, computed on the device
  image(int rows, int cols)
      : J("J", rows, cols), dN("dN", rows, cols), dS("dS", rows, cols), dW("dW", rows, cols), dE("dE", rows, cols),
        c("c", rows, cols), q0sqr("q0sqr", 1) {}
};

// q0^2 of the ROI on the device, by one gang (the ROI is small): two vector reductions in double.
// Shared by both acc versions. OpenACC: a `parallel num_gangs(1)` with `loop vector reduction(+)`.
inline void roi_statistics(acc::view<const float, 2> J, acc::view<float> q0sqr, params p, int queue) {
  const int w = p.c2 - p.c1 + 1, size = (p.r2 - p.r1 + 1) * w;
  acc::parallel(acc::num_gangs(1), acc::vector_length(1024), acc::default_present, acc::async(queue),
                ACC_LAMBDA(const acc::gang_t& g) {
                  const double sum = acc::loop_reduce(g, acc::vector, size, acc::plus, [&](int k) {
                    return double(J(p.r1 + k / w, p.c1 + k % w));
                  });
                  const double sum2 = acc::loop_reduce(g, acc::vector, size, acc::plus, [&](int k) {
                    const double v = J(p.r1 + k / w, p.c1 + k % w);
                    return v * v;
                  });
                  acc::single(g, acc::per_gang, [&] { q0sqr(0) = q0sqr_of(sum, sum2, size); });
                });
}

// Kernel 1, untiled. OpenACC: `#pragma acc parallel loop collapse(2) present(...)`.
inline void derivatives_untiled(acc::view<const float, 2> J, acc::view<const float> q0sqr, acc::view<float, 2> dN,
                                acc::view<float, 2> dS, acc::view<float, 2> dW, acc::view<float, 2> dE,
                                acc::view<float, 2> c, int queue) {
  const int rows = int(J.extent(0)), cols = int(J.extent(1));
  acc::parallel_loop(acc::collapse(rows, cols), acc::default_present, acc::async(queue), ACC_LAMBDA(int i, int j) {
    const float jc = J(i, j);
    const float n = J(i > 0 ? i - 1 : i, j) - jc, s = J(i < rows - 1 ? i + 1 : i, j) - jc;
    const float w = J(i, j > 0 ? j - 1 : j) - jc, e = J(i, j < cols - 1 ? j + 1 : j) - jc;
    dN(i, j) = n;
    dS(i, j) = s;
    dW(i, j) = w;
    dE(i, j) = e;
    c(i, j) = coefficient(jc, n, s, w, e, q0sqr(0));
  });
}

// Kernel 2, untiled.
inline void update_untiled(acc::view<float, 2> J, acc::view<const float, 2> c, acc::view<const float, 2> dN,
                           acc::view<const float, 2> dS, acc::view<const float, 2> dW, acc::view<const float, 2> dE,
                           float lambda, int queue) {
  const int rows = int(J.extent(0)), cols = int(J.extent(1));
  acc::parallel_loop(acc::collapse(rows, cols), acc::default_present, acc::async(queue), ACC_LAMBDA(int i, int j) {
    J(i, j) = updated(J(i, j), c(i, j), c(i < rows - 1 ? i + 1 : i, j), c(i, j < cols - 1 ? j + 1 : j), dN(i, j),
                      dS(i, j), dW(i, j), dE(i, j), lambda);
  });
}

// Kernel 1, tiled: 16 x 16 tiles, J fetched with a halo of 1 on every side. OpenACC + fcw:
//   fcw(fetch: J[i-1:i+1][j-1:j+1])
inline void derivatives_tiled(acc::view<const float, 2> J, acc::view<const float> q0sqr, acc::view<float, 2> dN,
                              acc::view<float, 2> dS, acc::view<float, 2> dW, acc::view<float, 2> dE,
                              acc::view<float, 2> c, int queue) {
  const int rows = int(J.extent(0)), cols = int(J.extent(1));
  acc::tile_loop(acc::collapse(rows, cols), acc::tile_size(16, 16),
                 acc::cached(J, acc::fetch, acc::halo(1, 1), acc::halo(1, 1)), acc::default_present, acc::async(queue),
                 ACC_LAMBDA(int i, int j, const acc::cached_view<const float, 2>& Jc) {
                   const float jc = Jc(i, j);
                   const float n = Jc(i > 0 ? i - 1 : i, j) - jc, s = Jc(i < rows - 1 ? i + 1 : i, j) - jc;
                   const float w = Jc(i, j > 0 ? j - 1 : j) - jc, e = Jc(i, j < cols - 1 ? j + 1 : j) - jc;
                   dN(i, j) = n;
                   dS(i, j) = s;
                   dW(i, j) = w;
                   dE(i, j) = e;
                   c(i, j) = coefficient(jc, n, s, w, e, q0sqr(0));
                 });
}

// Kernel 2, tiled: the coefficients fetched with a halo of 1 after (south, east). OpenACC + fcw:
//   fcw(fetch: c[i:i+1][j:j+1])
inline void update_tiled(acc::view<float, 2> J, acc::view<const float, 2> c, acc::view<const float, 2> dN,
                         acc::view<const float, 2> dS, acc::view<const float, 2> dW, acc::view<const float, 2> dE,
                         float lambda, int queue) {
  const int rows = int(J.extent(0)), cols = int(J.extent(1));
  acc::tile_loop(acc::collapse(rows, cols), acc::tile_size(16, 16),
                 acc::cached(c, acc::fetch, acc::halo(0, 1), acc::halo(0, 1)), acc::default_present, acc::async(queue),
                 ACC_LAMBDA(int i, int j, const acc::cached_view<const float, 2>& cc) {
                   const float cs = cc(i < rows - 1 ? i + 1 : i, j), ce = cc(i, j < cols - 1 ? j + 1 : j);
                   J(i, j) = updated(J(i, j), cc(i, j), cs, ce, dN(i, j), dS(i, j), dW(i, j), dE(i, j), lambda);
                 });
}

/// `iterations` of srad_v2, untiled kernels; every array of `im` must be present.
inline void untiled(image& im, params p, int iterations, int queue = 1) {
  for (int it = 0; it < iterations; ++it) {
    roi_statistics(im.J, im.q0sqr, p, queue);
    derivatives_untiled(im.J, im.q0sqr, im.dN, im.dS, im.dW, im.dE, im.c, queue);
    update_untiled(im.J, im.c, im.dN, im.dS, im.dW, im.dE, p.lambda, queue);
  }
  acc::wait(queue);
}

/// As untiled(), with the tiled kernels.
inline void tiled(image& im, params p, int iterations, int queue = 1) {
  for (int it = 0; it < iterations; ++it) {
    roi_statistics(im.J, im.q0sqr, p, queue);
    derivatives_tiled(im.J, im.q0sqr, im.dN, im.dS, im.dW, im.dE, im.c, queue);
    update_tiled(im.J, im.c, im.dN, im.dS, im.dW, im.dE, p.lambda, queue);
  }
  acc::wait(queue);
}

}  // namespace srad
