// Reductions: acc::parallel_reduce against cub::DeviceReduce (the bar, issue 4: >= 0.97x its
// throughput) and thrust::reduce, on 2^28 doubles and ints in the same run.
//   bench_reduce [--log2 28] [--runs 50]
// Exits 1 if a result is wrong, 0 without a GPU (nothing to measure).
#include <acc/parallel.hpp>

#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cuda_runtime.h>

#include "check.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>


namespace {

const cudaStream_t stream = cudaStreamPerThread;  // acc's synchronous queue

template <class T>
__global__ void fill(T* p, long long n) {
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < n; i += 256LL * gridDim.x)
    p[i] = static_cast<T>(i % 17) - T(8);  // exact sums for both types: sum is known
}

// Median milliseconds of f() (which must end synchronised), after warm-up.
template <class F>
double time_ms(int runs, F f) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 5; ++i) f();
  std::vector<float> ms;
  for (int i = 0; i < runs; ++i) {
    CHECK(cudaEventRecord(start, stream));
    f();
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class T>
bool bench(const char* type, long long n, int runs) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(T) * n));
  fill<<<4096, 256, 0, stream>>>(d, n);
  CHECK(cudaGetLastError());
  long long expect = 0;
  for (long long r = 0; r < 17; ++r) expect += (r - 8) * (n / 17 + (r < n % 17 ? 1 : 0));

  T acc_sum = 0, cub_sum = 0, thrust_sum = 0;
  const double acc_ms = time_ms(runs, [&] {
    acc_sum = acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(long long i) { return d[i]; });
  });

  // CUB with its temporary storage allocated once, outside the timing: its best case.
  T* out = nullptr;
  std::size_t bytes = 0;
  CHECK(cub::DeviceReduce::Sum(nullptr, bytes, d, out, n, stream));
  void* temp = nullptr;
  CHECK(cudaMalloc(&temp, bytes));
  CHECK(cudaMalloc(&out, sizeof(T)));
  const double cub_ms = time_ms(runs, [&] {
    CHECK(cub::DeviceReduce::Sum(temp, bytes, d, out, n, stream));
    CHECK(cudaMemcpyAsync(&cub_sum, out, sizeof(T), cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
  });
  const double thrust_ms = time_ms(runs, [&] { thrust_sum = thrust::reduce(thrust::cuda::par.on(stream), d, d + n); });

  const double gb = sizeof(T) * double(n) / 1e9;
  std::printf("%-7s 2^%-3d %10.1f %10.1f %10.1f %9.3f\n", type, int(std::log2(double(n))), gb / (acc_ms / 1e3),
              gb / (cub_ms / 1e3), gb / (thrust_ms / 1e3), cub_ms / acc_ms);
  CHECK(cudaFree(temp));
  CHECK(cudaFree(out));
  CHECK(cudaFree(d));
  const bool ok = acc_sum == T(expect) && cub_sum == T(expect) && thrust_sum == T(expect);
  if (!ok)
    std::fprintf(stderr, "%s: wrong sum: acc %.17g cub %.17g thrust %.17g expected %lld\n", type, double(acc_sum),
                 double(cub_sum), double(thrust_sum), expect);
  return ok;
}

}  // namespace

int main(int argc, char** argv) try {
  int log2n = 28, runs = 50;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--log2") log2n = std::atoi(argv[i + 1]);
    else if (arg == "--runs") runs = std::atoi(argv[i + 1]);
  }
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: nothing to measure\n");
    return 0;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, acc::get_device_num(acc::device_type::nvidia)));
  std::printf("device: %s; GB/s of input read, median of %d runs; each run returns the sum to the host\n",
              prop.name, runs);
  std::printf("%-7s %-5s %10s %10s %10s %9s\n", "type", "size", "acc", "cub", "thrust", "acc/cub");
  const long long n = 1LL << log2n;
  bool ok = bench<double>("double", n, runs);
  ok &= bench<int>("int", n, runs);
  ok &= bench<double>("double", n + 12345, runs);  // not a power of two
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_reduce: %s\n", e.what());
  return 1;
}
