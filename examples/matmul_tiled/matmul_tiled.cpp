// Single-precision C = A B with acc, untiled (one thread per element of C) and tiled (16 x 16
// tiles staging A's and B's blocks with acc::cache, or in team memory), all checked against a double-precision CPU
// product; with nvcc on a GPU also the hand-written shared-memory CUDA kernel.
//
//   matmul_tiled [M = 130] [K = 75] [N = 97]   (defaults not multiples of 16)
#include "matmul_tiled.hpp"

#if defined(__CUDACC__)
#  include "matmul_tiled_cuda.cuh"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

int main(int argc, char** argv) try {
  const int M = argc > 1 ? std::atoi(argv[1]) : 130;
  const int K = argc > 2 ? std::atoi(argv[2]) : 75;
  const int N = argc > 3 ? std::atoi(argv[3]) : 97;
  if (M < 1 || K < 1 || N < 1) {
    std::fprintf(stderr, "usage: matmul_tiled [M >= 1] [K >= 1] [N >= 1]\n");
    return 2;
  }
  acc::array<float, 2> a("a", M, K), b("b", K, N), c("c", M, N);
  // Mixed signs, so that cancellation makes the tolerance a real test.
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) a(i, k) = float(std::sin(0.37 * i + 0.11 * k) + 0.25);
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j) b(k, j) = float(std::cos(0.23 * k - 0.19 * j));
  std::vector<double> ref, scale;
  matmul_tiled::reference(a.data(), b.data(), M, K, N, ref, scale);

  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  bool ok = true;
  // Float sums of K terms against a double one: within K ulps of the sum of |terms|.
  auto check = [&](const char* what, double ms, const float* out) {
    double worst = 0.0;
    for (std::size_t k = 0; k < ref.size(); ++k) {
      const double err = std::fabs(out[k] - ref[k]) / (scale[k] > 0.0 ? scale[k] : 1.0);
      worst = std::isnan(err) ? INFINITY : std::fmax(worst, err);
    }
    const bool good = worst <= K * 1.2e-7;
    ok &= good;
    std::printf("matmul_tiled: %-17s %dx%d * %dx%d on %s: %8.3f ms, %.2f GFLOP/s, max error / sum|terms| = %.3g\n",
                what, M, K, K, N, gpu ? "nvidia" : "host", ms, 2.0 * M * K * N / ms * 1e-6, worst);
  };
  auto ms_since = [](auto start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };

  acc::data region{acc::copyin(a), acc::copyin(b), acc::create(c)};
  const struct {
    const char* name;
    void (*run)(acc::view<const float, 2>, acc::view<const float, 2>, acc::view<float, 2>, int);
  } versions[] = {{"untiled acc", matmul_tiled::untiled},
                  {"tiled acc", matmul_tiled::tiled},
                  {"tiled acc (team)", matmul_tiled::tiled_team}};
  for (const auto& v : versions) {
    std::fill(c.begin(), c.end(), -1.0f);
    acc::update_device(c);
    v.run(a, b, c, 1);  // warm-up: module load, first allocation
    const auto start = std::chrono::steady_clock::now();
    v.run(a, b, c, 1);
    const double ms = ms_since(start);
    acc::update_self(c);
    check(v.name, ms, c.data());
  }
#if defined(__CUDACC__)
  if (gpu) {
    std::vector<float> out(std::size_t(M) * N);
    matmul_tiled::hand(acc::deviceptr(a), acc::deviceptr(b), acc::deviceptr(c), M, K, N, cudaStreamPerThread);
    const auto start = std::chrono::steady_clock::now();
    matmul_tiled::hand(acc::deviceptr(a), acc::deviceptr(b), acc::deviceptr(c), M, K, N, cudaStreamPerThread);
    const double ms = ms_since(start);
    matmul_tiled::hand_check(cudaMemcpy(out.data(), acc::deviceptr(c), out.size() * sizeof(float),
                                        cudaMemcpyDeviceToHost), "copy back");
    check("hand-written CUDA", ms, out.data());
  }
#endif
  std::printf("matmul_tiled: %s\n", ok ? "verified" : "FAILED (a product differs from the CPU's)");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "matmul_tiled: %s\n", e.what());
  return 1;
}
