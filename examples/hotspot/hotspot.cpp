// Rodinia hotspot with acc: `iterations` explicit steps of the chip's heat equation, untiled
// (parallel_loop) and tiled (tile_loop, 16 x 16 tiles fetched with a halo of 1, or Rodinia's
// pyramid of 2 and 3 steps per construct with halos of 2 and 3), all verified against a CPU
// run; with nvcc on a GPU also the hand-written shared-memory CUDA kernels. Each acc variant is
// timed as in the other Rodinia ports (median of 5 runs after a warm-up, "variant" lines).
//
//   hotspot [rows = 250] [cols = 333] [iterations = 12]   (defaults not multiples of 16)
#include "hotspot.hpp"

#include "../common/rodinia.hpp"

#if defined(__CUDACC__)
#  include "hotspot_cuda.cuh"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

double max_diff(const float* a, const std::vector<float>& ref) {
  double d = 0.0;
  for (std::size_t k = 0; k < ref.size(); ++k) d = std::fmax(d, std::fabs(double(a[k]) - ref[k]));
  return std::isnan(d) ? INFINITY : d;
}

}  // namespace

int main(int argc, char** argv) try {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 250;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 333;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 12;
  if (rows < 1 || cols < 1 || iterations < 0) {
    std::fprintf(stderr, "usage: hotspot [rows >= 1] [cols >= 1] [iterations >= 0]\n");
    return 2;
  }
  const std::size_t n = std::size_t(rows) * cols;
  const hotspot::coefficients c = hotspot::coefficients_of();
  std::vector<float> temp0(n), power0(n);
  hotspot::make_input(rows, cols, temp0.data(), power0.data());
  std::vector<float> ref = temp0;
  hotspot::reference(ref, power0, rows, cols, iterations, c);

  acc::array<float, 2> power("power", rows, cols), temp("temp", rows, cols), next("temp_next", rows, cols);
  std::copy(power0.begin(), power0.end(), power.begin());
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  // Temperatures within float rounding of the CPU's (GPUs fuse multiply-adds): 330 K has an ulp
  // of 3e-5, and the stable stencil damps what each step adds.
  const double tolerance = 2e-3;
  bool ok = true;

  // height 0: untiled; 1: one tiled step per construct; 2, 3: Rodinia's pyramid.
  for (int height : {0, 1, 2, 3}) {
    std::copy(temp0.begin(), temp0.end(), temp.begin());
    double ms = 0.0;
    {
      // Both grids copied back: after an odd number of constructs `temp` is the other storage.
      acc::data region{acc::copyin(power), acc::copy(temp), acc::copy(next)};
      // Each timed run starts again from temp0 (whichever storage `temp` names by then).
      auto reset = [&] {
        std::copy(temp0.begin(), temp0.end(), temp.begin());
        acc::update_device(temp);
      };
      auto run = [&] {
        if (height == 0) hotspot::untiled(temp, next, power, iterations, c);
        else hotspot::tiled(temp, next, power, iterations, c, height);
      };
      const double s = rodinia::median_seconds(reset, run);
      rodinia::report(height == 0 ? "untiled" : height == 1 ? "tiled" : height == 2 ? "pyramid_2" : "pyramid_3", s);
      ms = 1e3 * s;
    }
    const double d = max_diff(temp.data(), ref);
    ok &= d <= tolerance;
    std::printf("hotspot: %-17s %dx%d, %d iterations, height %d on %s: %8.3f ms, max |acc - cpu| = %.3g\n",
                height ? "tiled acc" : "untiled acc", rows, cols, iterations, height ? height : 1,
                gpu ? "nvidia" : "host", ms, d);
  }
#if defined(__CUDACC__)
  if (gpu) {
    for (int height : {1, 2, 3}) {
      std::copy(temp0.begin(), temp0.end(), temp.begin());
      acc::data region{acc::copyin(power), acc::copy(temp), acc::copy(next)};
      const auto start = std::chrono::steady_clock::now();
      const float* result = hotspot::hand(acc::deviceptr(temp), acc::deviceptr(next), acc::deviceptr(power), rows,
                                          cols, iterations, c, cudaStreamPerThread, height);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      std::vector<float> out(n);
      hotspot::hand_check(cudaMemcpy(out.data(), result, n * sizeof(float), cudaMemcpyDeviceToHost), "copy back");
      const double d = max_diff(out.data(), ref);
      ok &= d <= tolerance;
      std::printf("hotspot: %-17s %dx%d, %d iterations, height %d on nvidia: %8.3f ms, max |cuda - cpu| = %.3g\n",
                  "hand-written CUDA", rows, cols, iterations, height, ms, d);
    }
  }
#endif
  std::printf("hotspot: %s\n", ok ? "verified" : "FAILED (a result differs from the CPU run)");
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "hotspot: %s\n", e.what());
  return 1;
}
