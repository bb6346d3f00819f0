// acc::graph: a sequence of small constructs on one queue issued one by one (acc::async(q),
// then acc::wait(q)) against the same sequence recorded once and replayed (g.replay(), then
// acc::wait(q)); and, as a reference, raw CUDA: the same kernels launched one by one and as a
// CUDA graph captured by hand. Host time per sequence, median of `--runs` batches. The bar:
// replay >= 2x faster than issuing, at 100 constructs.
//   bench_graph [--constructs 100] [--n 4096] [--runs 50]
// Exits 1 if a result is wrong, 0 without a GPU (nothing to measure).
#include <acc/async.hpp>
#include <acc/graph.hpp>
#include <acc/loop.hpp>
#include <acc/runtime.hpp>

#include <cuda_runtime.h>

#include "timing.cuh"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <vector>

namespace {

constexpr int queue = 1;

// Step s: v = v * 3 + s + i (mod 2^64): a step missing or out of order changes every value.
__global__ void step_k(unsigned long long* p, int n, int s) {
  if (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n) p[i] = p[i] * 3 + s + i;
}

void acc_steps(unsigned long long* p, int n, int constructs) {
  for (int s = 1; s <= constructs; ++s)
    acc::parallel_loop(n, acc::async(queue), ACC_LAMBDA(int i) { p[i] = p[i] * 3 + s + i; });
}

void raw_steps(unsigned long long* p, int n, int constructs, cudaStream_t st) {
  for (int s = 1; s <= constructs; ++s) step_k<<<(n + 255) / 256, 256, 0, st>>>(p, n, s);
}

/// Median microseconds of host time per call of f (each ends synchronised), after 3 warm-ups.
template <class F>
double median_us(int runs, F f) {
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> us;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

// The values after `sequences` runs of the steps, from 0.
bool check(const unsigned long long* d, int n, int constructs, long sequences, const char* what) {
  std::vector<unsigned long long> h(n);
  CHECK(cudaMemcpy(h.data(), d, sizeof(unsigned long long) * n, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned long long v = 0;
    for (long r = 0; r < sequences; ++r)
      for (int s = 1; s <= constructs; ++s) v = v * 3 + s + i;
    if (h[i] != v) {
      std::fprintf(stderr, "%s: element %d is %llu, expected %llu\n", what, i, h[i], v);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) try {
  const int constructs = bench::int_arg(argc, argv, "--constructs", 100);
  const int n = bench::int_arg(argc, argv, "--n", 4096);
  const int runs = bench::int_arg(argc, argv, "--runs", 50);
  if (!bench::have_gpu()) return 0;
  const int device = acc::get_device_num(acc::device_type::nvidia);
  CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, device));

  unsigned long long *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, sizeof(unsigned long long) * n));
  CHECK(cudaMalloc(&b, sizeof(unsigned long long) * n));
  cudaStream_t raw_stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&raw_stream, cudaStreamNonBlocking));
  bool ok = true;
  const long sequences = 3 + runs;  // warm-ups and timed runs of each measurement

  // acc: issued one by one, then recorded and replayed, both on the same array, checked after each.
  CHECK(cudaMemset(a, 0, sizeof(unsigned long long) * n));
  const double acc_issue = median_us(runs, [&] {
    acc_steps(a, n, constructs);
    acc::wait(queue);
  });
  ok &= check(a, n, constructs, sequences, "acc, issued");
  CHECK(cudaMemset(a, 0, sizeof(unsigned long long) * n));
  acc::graph g;
  unsigned long long* pa = a;
  g.record(acc::async(queue), [=] { acc_steps(pa, n, constructs); });
  const double acc_replay = median_us(runs, [&] {
    g.replay();
    acc::wait(queue);
  });
  ok &= check(a, n, constructs, sequences, "acc, replayed");

  // Raw CUDA: launches one by one, and a graph captured from the same launches.
  CHECK(cudaMemset(b, 0, sizeof(unsigned long long) * n));
  const double raw_issue = median_us(runs, [&] {
    raw_steps(b, n, constructs, raw_stream);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(raw_stream));
  });
  ok &= check(b, n, constructs, sequences, "raw, issued");
  CHECK(cudaMemset(b, 0, sizeof(unsigned long long) * n));
  cudaGraph_t raw_graph = nullptr;
  cudaGraphExec_t raw_exec = nullptr;
  CHECK(cudaStreamBeginCapture(raw_stream, cudaStreamCaptureModeThreadLocal));
  raw_steps(b, n, constructs, raw_stream);
  CHECK(cudaStreamEndCapture(raw_stream, &raw_graph));
  CHECK(cudaGraphInstantiate(&raw_exec, raw_graph, 0));
  const double raw_replay = median_us(runs, [&] {
    CHECK(cudaGraphLaunch(raw_exec, raw_stream));
    CHECK(cudaStreamSynchronize(raw_stream));
  });
  ok &= check(b, n, constructs, sequences, "raw, replayed");

  std::printf("device: %s; %d constructs of %d elements each, host us per sequence (median of %d)\n", prop.name,
              constructs, n, runs);
  std::printf("%-6s %10s %10s %8s\n", "", "issued", "replayed", "speedup");
  std::printf("%-6s %10.1f %10.1f %8.2f   (asked: >= 2)\n", "acc", acc_issue, acc_replay, acc_issue / acc_replay);
  std::printf("%-6s %10.1f %10.1f %8.2f\n", "raw", raw_issue, raw_replay, raw_issue / raw_replay);
  std::printf("acc replayed / raw replayed: %.3f\n", acc_replay / raw_replay);

  CHECK(cudaGraphExecDestroy(raw_exec));
  CHECK(cudaGraphDestroy(raw_graph));
  CHECK(cudaStreamDestroy(raw_stream));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  if (!ok) std::fprintf(stderr, "FAILED: wrong results (see above)\n");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_graph: %s\n", e.what());
  return 1;
}
