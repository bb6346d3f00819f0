// Launch overhead: an empty acc::parallel_loop against an empty <<<1, 1>>> kernel, in
// microseconds of host time per launch.
//   sync:  each launch waits for its kernel (acc without async; raw launch + stream sync)
//   async: N launches on one queue, then one wait (acc::async(1) + acc::wait(1); raw launches
//          on a non-blocking stream + cudaStreamSynchronize)
// Exits 0 without a GPU (nothing to measure).
#include <acc/async.hpp>
#include <acc/loop.hpp>
#include <acc/runtime.hpp>

#include <cuda_runtime.h>

#include "check.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>


namespace {

constexpr int reps = 20;            // batches timed; the median is reported
constexpr int sync_launches = 1000; // per batch
constexpr int async_launches = 10000;
constexpr int queue = 1;

__global__ void empty_kernel() {}

// Microseconds per launch: median over `reps` batches, after one untimed batch that pays for
// the first-use costs (module load, acc's per-kernel occupancy lookup, the queue's stream).
template <class Batch>
double us_per_launch(int launches, Batch batch) {
  batch();
  std::vector<double> us;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    batch();
    const auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / launches);
  }
  std::sort(us.begin(), us.end());
  return 0.5 * (us[reps / 2 - 1] + us[reps / 2]);
}

// The raw baselines check for errors once per batch, the least a correct program does, so
// the ratio shows everything acc adds, its per-launch checks included.

// acc's synchronous queue is the per-thread default stream, so the raw launches use it too.
double acc_sync() {
  return us_per_launch(sync_launches, [] {
    for (int i = 0; i < sync_launches; ++i) acc::parallel_loop(1, ACC_LAMBDA(int) {});
  });
}

double raw_sync() {
  return us_per_launch(sync_launches, [] {
    for (int i = 0; i < sync_launches; ++i) {
      empty_kernel<<<1, 1, 0, cudaStreamPerThread>>>();
      CHECK(cudaStreamSynchronize(cudaStreamPerThread));
    }
    CHECK(cudaGetLastError());
  });
}

double acc_async() {
  return us_per_launch(async_launches, [] {
    for (int i = 0; i < async_launches; ++i) acc::parallel_loop(1, acc::async(queue), ACC_LAMBDA(int) {});
    acc::wait(queue);
  });
}

// A non-blocking stream, as acc makes for each async queue.
double raw_async() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const double us = us_per_launch(async_launches, [s] {
    for (int i = 0; i < async_launches; ++i) empty_kernel<<<1, 1, 0, s>>>();
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGetLastError());
  });
  CHECK(cudaStreamDestroy(s));
  return us;
}

}  // namespace

int main() try {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: nothing to measure\n");
    return 0;
  }
  const int device = acc::get_device_num(acc::device_type::nvidia);  // the GPU acc launches on
  CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("device %d: %s\n", device, prop.name);
  std::printf("us per launch, host time, median of %d batches\n", reps);
  std::printf("%-6s %9s %10s %10s %9s\n", "mode", "launches", "acc", "raw", "acc/raw");

  const double as = acc_sync(), rs = raw_sync();
  std::printf("%-6s %9d %10.3f %10.3f %9.3f\n", "sync", sync_launches, as, rs, as / rs);
  const double aa = acc_async(), ra = raw_async();
  std::printf("%-6s %9d %10.3f %10.3f %9.3f\n", "async", async_launches, aa, ra, aa / ra);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_launch: %s\n", e.what());
  return 1;
}
