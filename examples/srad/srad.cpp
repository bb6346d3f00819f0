// Rodinia srad_v2 with acc: speckle-reducing anisotropic diffusion, per iteration the ROI
// statistics and two stencil kernels, untiled (parallel_loop) and tiled (tile_loop with J, then
// the coefficients, fetched with halos), both checked against a CPU run of Rodinia's loops;
// with nvcc on a GPU also the hand-written shared-memory CUDA kernels.
//
//   srad [rows = 200] [cols = 150] [iterations = 10]   (ROI rows and columns 0..63, lambda 0.5,
//   as Rodinia's run script but for the image size; defaults not multiples of 16). Each acc
//   variant is timed as in the other Rodinia ports (median of 5 runs after a warm-up).
#include "srad.hpp"

#include "../common/rodinia.hpp"

#if defined(__CUDACC__)
#  include "srad_cuda.cuh"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

int main(int argc, char** argv) try {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 200;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 150;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 10;
  // A one-pixel ROI has no variance, and q0^2 = 0 divides by zero (in Rodinia too).
  if (rows < 2 || cols < 2 || iterations < 0) {
    std::fprintf(stderr, "usage: srad [rows >= 2] [cols >= 2] [iterations >= 0]\n");
    return 2;
  }
  const srad::params p{0, std::min(63, rows - 1), 0, std::min(63, cols - 1), 0.5f};
  const std::size_t size = std::size_t(rows) * cols;
  std::vector<float> j0(size);
  srad::make_image(j0.data(), size);
  std::vector<float> ref = j0;
  srad::reference(ref, rows, cols, p, iterations);

  srad::image im(rows, cols);
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  bool ok = true;
  // Float kernels against the same float loops on the CPU: GPUs fuse multiply-adds and sum the
  // ROI in another order, so allow a few hundred ulps after the iterations.
  auto check = [&](const char* what, double ms, const float* out) {
    double worst = 0.0;
    for (std::size_t k = 0; k < size; ++k) {
      const double err = std::fabs(double(out[k]) - ref[k]) / std::fabs(double(ref[k]));
      worst = std::isnan(err) ? INFINITY : std::fmax(worst, err);
    }
    const bool good = worst <= 5e-5;
    ok &= good;
    std::printf("srad: %-17s %dx%d, %d iterations on %s: %8.3f ms, max relative |acc - cpu| = %.3g\n", what, rows,
                cols, iterations, gpu ? "nvidia" : "host", ms, worst);
  };

  acc::data region{acc::create(im.J),  acc::create(im.dN), acc::create(im.dS),   acc::create(im.dW),
                   acc::create(im.dE), acc::create(im.c),  acc::create(im.q0sqr)};
  const struct {
    const char *name, *variant;
    void (*run)(srad::image&, srad::params, int, int);
  } versions[] = {{"untiled acc", "untiled", srad::untiled}, {"tiled acc", "tiled", srad::tiled}};
  for (const auto& v : versions) {
    auto reset = [&] {
      std::copy(j0.begin(), j0.end(), im.J.begin());
      acc::update_device(im.J);
    };
    const double seconds = rodinia::median_seconds(reset, [&] { v.run(im, p, iterations, 1); });
    rodinia::report(v.variant, seconds);
    acc::update_self(im.J);
    check(v.name, 1e3 * seconds, im.J.data());
  }
#if defined(__CUDACC__)
  if (gpu) {
    auto ms_since = [](auto start) {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    std::copy(j0.begin(), j0.end(), im.J.begin());
    acc::update_device(im.J);
    const srad::hand_image d{acc::deviceptr(im.J),  acc::deviceptr(im.dN), acc::deviceptr(im.dS),
                             acc::deviceptr(im.dW), acc::deviceptr(im.dE), acc::deviceptr(im.c),
                             acc::deviceptr(im.q0sqr)};
    const auto start = std::chrono::steady_clock::now();
    srad::hand(d, rows, cols, p, iterations, cudaStreamPerThread);
    const double ms = ms_since(start);
    acc::update_self(im.J);
    check("hand-written CUDA", ms, im.J.data());
  }
#endif
  std::printf("srad: %s\n", ok ? "verified" : "FAILED (the image differs from the CPU run)");
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "srad: %s\n", e.what());
  return 1;
}
