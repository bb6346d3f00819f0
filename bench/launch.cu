// Launch overhead: an empty acc::parallel_loop against an empty <<<1, 1>>> kernel, in
// microseconds of host time per launch.
//   sync:   each launch waits for its kernel (acc without async; raw launch + stream sync)
//   async:  N launches on one queue, then one wait (acc::async(1) + acc::wait(1); raw launches
//           on a non-blocking stream + cudaStreamSynchronize)
//   shaped: as async, against acc's own kernel shape launched by hand (what the GPU does per
//           launch is then the same on both sides)
//   issue:  a few hundred async launches timed until the last call returns, fewer than the
//           launch queue holds, so that the GPU never holds the host back: acc's host cost
// Exits 0 without a GPU (nothing to measure).
#include <acc/array.hpp>
#include <acc/async.hpp>
#include <acc/data.hpp>
#include <acc/loop.hpp>
#include <acc/runtime.hpp>

#include <cuda_runtime.h>

#include "check.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <utility>
#include <vector>


namespace {

constexpr int reps = 20;            // batches timed; the median is reported
constexpr int sync_launches = 1000; // per batch
constexpr int async_launches = 10000;
constexpr int issue_launches = 500; // fewer than the launch queue holds: the host never blocks
constexpr int queue = 1;

__global__ void empty_kernel() {}

// The kernel acc launches for an empty one-iteration loop, written by hand: the same
// parameters (lo, n, an empty body) and a block of one warp. Against this baseline the ratio
// is the host's work alone; against empty_kernel it includes the launch's shape.
struct empty_body {
  __device__ void operator()(int) const {}
};
__global__ void shaped_kernel(int lo, unsigned n, empty_body body) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) body(lo + int(t));
}

// A loop nest's usual captures: ten arrays, present on the device (NPB's sweeps take 5-20).
constexpr int arrays = 10;
struct ten_pointers {
  double* p[arrays];
};
__global__ void ten_arrays_kernel(unsigned n, ten_pointers a) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) a.p[0][t] += a.p[1][t] + a.p[2][t] + a.p[3][t] + a.p[4][t] + a.p[5][t] + a.p[6][t] + a.p[7][t] +
                         a.p[8][t] + a.p[9][t];
}

// Microseconds per launch of each batch, acc and raw taking turns (a slow spell of the GPU or
// the host weighs on both alike): the median over `reps` pairs, after one untimed pair that
// pays for the first-use costs (module load, acc's per-kernel occupancy lookup, the queue's
// stream). `settle` runs untimed after each batch (the issue mode waits there).
template <class Acc, class Raw, class Settle>
std::pair<double, double> us_per_launch(int launches, Acc acc, Raw raw, Settle settle) {
  acc();
  settle();
  raw();
  settle();
  std::vector<double> a, r;
  const auto time = [&](auto& batch, std::vector<double>& out) {
    const auto t0 = std::chrono::steady_clock::now();
    batch();
    const auto t1 = std::chrono::steady_clock::now();
    settle();
    out.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / launches);
  };
  for (int i = 0; i < reps; ++i) {
    time(acc, a);
    time(raw, r);
  }
  const auto median = [](std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    return 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
  };
  return {median(a), median(r)};
}

void print(const char* mode, int launches, std::pair<double, double> t) {
  std::printf("%-7s %9d %10.3f %10.3f %9.3f\n", mode, launches, t.first, t.second, t.first / t.second);
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
  std::printf("us per launch, host time, median of %d alternating batches\n", reps);
  std::printf("  sync:   each launch waits for its kernel (raw: empty_kernel<<<1, 1>>> + stream sync)\n");
  std::printf("  async:  %d launches on one queue, then one wait (raw: empty_kernel, a non-blocking stream)\n",
              async_launches);
  std::printf("  shaped: as async, raw is acc's kernel written by hand (same parameters, one warp)\n");
  std::printf("  issue:  %d async launches, timed until the last returns (the host's cost alone)\n", issue_launches);
  std::printf("  arrays: as issue, a loop of one iteration over %d present arrays (default_present)\n", arrays);
  std::printf("%-7s %9s %10s %10s %9s\n", "mode", "launches", "acc", "raw", "acc/raw");

  // The raw baselines check for errors once per batch, the least a correct program does, so
  // the ratio shows everything acc adds, its per-launch checks included. acc's synchronous
  // queue is the per-thread default stream, so the raw launches use it too.
  const auto nothing = [] {};
  print("sync", sync_launches,
        us_per_launch(
            sync_launches,
            [] {
              for (int i = 0; i < sync_launches; ++i) acc::parallel_loop(1, ACC_LAMBDA(int) {});
            },
            [] {
              for (int i = 0; i < sync_launches; ++i) {
                empty_kernel<<<1, 1, 0, cudaStreamPerThread>>>();
                CHECK(cudaStreamSynchronize(cudaStreamPerThread));
              }
              CHECK(cudaGetLastError());
            },
            nothing));

  // A non-blocking stream, as acc makes for each async queue.
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const auto acc_batch = [](int launches) {
    return [launches] {
      for (int i = 0; i < launches; ++i) acc::parallel_loop(1, acc::async(queue), ACC_LAMBDA(int) {});
    };
  };
  const auto acc_async = [acc_batch] {
    acc_batch(async_launches)();
    acc::wait(queue);
  };
  const auto wait_both = [s] {
    acc::wait(queue);
    CHECK(cudaStreamSynchronize(s));
  };
  print("async", async_launches,
        us_per_launch(
            async_launches,
            acc_async,
            [s] {
              for (int i = 0; i < async_launches; ++i) empty_kernel<<<1, 1, 0, s>>>();
              CHECK(cudaStreamSynchronize(s));
              CHECK(cudaGetLastError());
            },
            nothing));
  print("shaped", async_launches,
        us_per_launch(
            async_launches,
            acc_async,
            [s] {
              for (int i = 0; i < async_launches; ++i) shaped_kernel<<<1, 32, 0, s>>>(0, 1u, empty_body{});
              CHECK(cudaStreamSynchronize(s));
              CHECK(cudaGetLastError());
            },
            nothing));
  print("issue", issue_launches,
        us_per_launch(
            issue_launches, acc_batch(issue_launches),
            [s] {
              for (int i = 0; i < issue_launches; ++i) shaped_kernel<<<1, 32, 0, s>>>(0, 1u, empty_body{});
              CHECK(cudaGetLastError());
            },
            wait_both));

  std::vector<acc::array<double>> host;
  for (int k = 0; k < arrays; ++k) host.emplace_back(std::size_t(1));
  for (auto& a : host) acc::enter_data(acc::copyin(a));
  const acc::array<double> a0 = host[0], a1 = host[1], a2 = host[2], a3 = host[3], a4 = host[4], a5 = host[5],
                           a6 = host[6], a7 = host[7], a8 = host[8], a9 = host[9];
  ten_pointers raw{};
  for (int k = 0; k < arrays; ++k) raw.p[k] = static_cast<double*>(acc::deviceptr(host[k].data()));
  print("arrays", issue_launches,
        us_per_launch(
            issue_launches,
            [=] {
              for (int i = 0; i < issue_launches; ++i)
                acc::parallel_loop(1, acc::async(queue), acc::default_present, ACC_LAMBDA(int t) {
                  a0[t] += a1[t] + a2[t] + a3[t] + a4[t] + a5[t] + a6[t] + a7[t] + a8[t] + a9[t];
                });
            },
            [s, raw] {
              for (int i = 0; i < issue_launches; ++i) ten_arrays_kernel<<<1, 32, 0, s>>>(1u, raw);
              CHECK(cudaGetLastError());
            },
            wait_both));
  for (auto& a : host) acc::exit_data(acc::delete_(a));
  CHECK(cudaStreamDestroy(s));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_launch: %s\n", e.what());
  return 1;
}
