// Rodinia pathfinder with acc: the cheapest top-to-bottom path costs of a grid of weights, untiled
// (one parallel_loop per row) and tiled (pyramid: `height` rows per tile_loop, halo `height`),
// each checked exactly against a CPU run; with nvcc on a GPU also the hand-written CUDA kernel.
// Each acc variant is timed as in the other Rodinia ports (median of 5 runs after a warm-up).
//
//   pathfinder [cols = 1000] [rows = 100] [height = 0: each of 2, 5 and 12]
#include "pathfinder.hpp"

#include "../common/rodinia.hpp"

#if defined(__CUDACC__)
#  include "pathfinder_cuda.cuh"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

long differences(const int* a, const std::vector<int>& ref) {
  long d = 0;
  for (std::size_t k = 0; k < ref.size(); ++k) d += a[k] != ref[k];
  return d;
}

}  // namespace

int main(int argc, char** argv) try {
  const int cols = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int rows = argc > 2 ? std::atoi(argv[2]) : 100;
  const int height_arg = argc > 3 ? std::atoi(argv[3]) : 0;
  if (cols < 1 || rows < 1 || height_arg < 0) {
    std::fprintf(stderr, "usage: pathfinder [cols >= 1] [rows >= 1] [height >= 1]\n");
    return 2;
  }
  std::vector<int> heights = {2, 5, 12};
  if (height_arg) heights = {height_arg};

  acc::array<int, 2> wall("wall", rows, cols);
  acc::array<int> src("src", cols), dst("dst", cols);
  std::vector<int> wall_h(std::size_t(rows) * cols);
  for (std::size_t k = 0; k < wall_h.size(); ++k) wall.data()[k] = wall_h[k] = pathfinder::weight(k);
  const std::vector<int> ref = pathfinder::reference(wall_h, rows, cols);
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  bool ok = true;

  auto report = [&](const char* what, int height, double ms, const int* result) {
    const long d = differences(result, ref);
    ok &= d == 0;
    std::printf("pathfinder: %-16s %d cols x %d rows, height %2d on %s: %8.3f ms, %ld costs differ from the CPU's\n",
                what, cols, rows, height, gpu ? "nvidia" : "host", ms, d);
  };

  acc::data region{acc::copyin(wall), acc::create(src), acc::create(dst)};
  {
    const double seconds = rodinia::median_seconds([&] { pathfinder::untiled(wall, src, dst); });
    rodinia::report("untiled", seconds);
    const double ms = 1e3 * seconds;
    acc::update_self(src);
    report("untiled acc", 1, ms, src.data());
  }
  for (int h : heights) {
    const double seconds = rodinia::median_seconds([&] { pathfinder::tiled(wall, src, dst, h); });
    rodinia::report(("pyramid_" + std::to_string(h)).c_str(), seconds);
    const double ms = 1e3 * seconds;
    acc::update_self(src);
    report("tiled acc", h, ms, src.data());
  }
#if defined(__CUDACC__)
  if (gpu) {
    auto ms_since = [](auto start) {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    for (int h : heights) {
      std::vector<int> out(cols);
      const auto start = std::chrono::steady_clock::now();
      const int* result = pathfinder::hand(acc::deviceptr(wall), acc::deviceptr(src), acc::deviceptr(dst), rows, cols,
                                           h, cudaStreamPerThread);
      const double ms = ms_since(start);
      pathfinder::hand_check(cudaMemcpy(out.data(), result, cols * sizeof(int), cudaMemcpyDeviceToHost), "copy back");
      report("hand-written CUDA", h, ms, out.data());
    }
  }
#endif
  std::printf("pathfinder: %s\n", ok ? "verified" : "FAILED (costs differ from the CPU run)");
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "pathfinder: %s\n", e.what());
  return 1;
}
