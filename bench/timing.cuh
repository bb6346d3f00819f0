// What every benchmark shares: acc's synchronous stream, timing with CUDA events (warm-up,
// then the median of many runs), the inputs whose sums and scans are exact, and the
// command line / no-GPU preamble.
#pragma once

#include "check.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bench {

inline const cudaStream_t stream = cudaStreamPerThread;  // acc's synchronous queue

/// Median milliseconds of each f() (each must end synchronised), after warm-up. The
/// functions take turns within every run, so a slow spell of the GPU (clocks, a neighbour)
/// weighs on all of them alike instead of on whichever was being timed then.
template <class... F>
std::array<double, sizeof...(F)> time_each(int runs, F... f) {
  constexpr std::size_t k = sizeof...(F);
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i) (f(), ...);
  std::array<std::vector<float>, k> ms;
  const auto once = [&](std::vector<float>& into, auto& g) {
    CHECK(cudaEventRecord(start, stream));
    g();
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    into.push_back(t);
  };
  for (int i = 0; i < runs; ++i) {
    std::size_t j = 0;
    (once(ms[j++], f), ...);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::array<double, k> median{};
  for (std::size_t j = 0; j < k; ++j) {
    std::sort(ms[j].begin(), ms[j].end());
    median[j] = ms[j][ms[j].size() / 2];
  }
  return median;
}

/// Median milliseconds of f() alone.
template <class F>
double time_ms(int runs, F f) {
  return time_each(runs, f)[0];
}

/// p[i] = i % 17 - 8: sums and prefix sums stay exact integers for int and double alike.
template <class T>
__global__ void fill_mod17(T* p, long long n) {
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < n; i += 256LL * gridDim.x)
    p[i] = static_cast<T>(i % 17) - T(8);
}

/// The sum of fill_mod17's first n values.
inline long long sum_mod17(long long n) {
  long long s = 0;
  for (long long r = 0; r < 17; ++r) s += (r - 8) * (n / 17 + (r < n % 17 ? 1 : 0));
  return s;
}

/// The value after `name` on the command line (`--runs 20`), or `fallback`.
inline int int_arg(int argc, char** argv, const char* name, int fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return std::atoi(argv[i + 1]);
  return fallback;
}

/// Whether there is a GPU to measure; says so when there is none (the bench then exits 0).
inline bool have_gpu() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: nothing to measure\n");
    return false;
  }
  return true;
}

}  // namespace bench
