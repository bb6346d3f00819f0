// Reductions: acc::parallel_reduce against cub::DeviceReduce (the bar: >= 0.97x its
// throughput) and thrust::reduce, on 2^28 doubles and ints in the same run; then each of Xu's
// reduction positions against a hand-written kernel of the same mapping (bar: within 5%).
//   bench_reduce [--log2 28] [--runs 50]
// Exits 1 if a result is wrong, 0 without a GPU (nothing to measure).
#include <acc/parallel.hpp>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <cuda_runtime.h>

#include "timing.cuh"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>


namespace {

using bench::stream;
using bench::time_each;

template <class T>
T acc_sum_of(const T* d, long long n) {
  return acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(long long i) { return d[i]; });
}

template <class T>
bool bench_sum(const char* type, long long n, int runs) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, sizeof(T) * n));
  bench::fill_mod17<<<4096, 256, 0, stream>>>(d, n);
  CHECK(cudaGetLastError());
  const long long expect = bench::sum_mod17(n);

  T acc_sum = 0, cub_sum = 0, thrust_sum = 0;
  // CUB with its temporary storage allocated once, outside the timing: its best case.
  T* out = nullptr;
  std::size_t bytes = 0;
  CHECK(cub::DeviceReduce::Sum(nullptr, bytes, d, out, n, stream));
  void* temp = nullptr;
  CHECK(cudaMalloc(&temp, bytes));
  CHECK(cudaMalloc(&out, sizeof(T)));
  const auto [acc_ms, cub_ms, thrust_ms] = time_each(
      runs, [&] { acc_sum = acc_sum_of(d, n); },
      [&] {
        CHECK(cub::DeviceReduce::Sum(temp, bytes, d, out, n, stream));
        CHECK(cudaMemcpyAsync(&cub_sum, out, sizeof(T), cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));
      },
      [&] { thrust_sum = thrust::reduce(thrust::cuda::par.on(stream), d, d + n); });

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


// ---- Xu et al.'s reduction positions (OpenUH, 2016): acc against hand-written CUDA of the same
// mapping (gang = block, worker = threadIdx.y, vector = threadIdx.x), on rows of doubles whose
// sums are exact, so both sides must agree to the bit. Per-row cases (v, w, wv) write one
// result per row; across-gang cases (g, gv, gw, gwv, sgwv) return one sum to the host.

struct shape {
  int workers, vector;  // acc's num_workers / vector_length; the hand kernel's blockDim.y / x
};

// The grid both sides use: as many blocks of `threads` as are resident at once (acc's default
// num_gangs for regions, and its persistent grid for flat reductions).
template <class Kernel>
int resident_grid(Kernel k, int threads) {
  int per_sm = 0, sms = 0, dev = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  return per_sm * sms;
}

// Hand-written: row i of block b is reduced by its threads at the level's positions, then
// cub::BlockReduce. Level: 'v' (x lanes), 'w' (lane 0 of each y), 'b' (both: wv).
template <char Level, int X, int Y>
__device__ double hand_row(const double* row, int n) {
  double s = 0;
  if constexpr (Level == 'v') {
    if (threadIdx.y == 0)
      for (int k = threadIdx.x; k < n; k += X) s += row[k];
  } else if constexpr (Level == 'w') {
    if (threadIdx.x == 0)
      for (int k = threadIdx.y; k < n; k += Y) s += row[k];
  } else {
    for (int k = threadIdx.y * X + threadIdx.x; k < n; k += X * Y) s += row[k];
  }
  using block_reduce = cub::BlockReduce<double, X, cub::BLOCK_REDUCE_WARP_REDUCTIONS, Y>;
  __shared__ typename block_reduce::TempStorage temp;
  s = block_reduce(temp).Sum(s);
  __syncthreads();
  return s;  // valid in thread (0, 0)
}

// Per-row results (Xu's v, w, wv), or with `partial` each block's sum of its rows (gv, gw, gwv).
template <char Level, int X, int Y>
__global__ void __launch_bounds__(X * Y) hand_rows(const double* x, int ni, int n, double* out, double* partial) {
  double mine = 0;
  for (int i = blockIdx.x; i < ni; i += gridDim.x) {
    const double r = hand_row<Level, X, Y>(x + static_cast<long long>(i) * n, n);
    if (threadIdx.x == 0 && threadIdx.y == 0) {
      if (out) out[i] = r;
      mine += r;
    }
  }
  if (partial && threadIdx.x == 0 && threadIdx.y == 0) partial[blockIdx.x] = mine;
}

// Xu's g: the gang loop alone; one thread per block does the work (vector-single).
__global__ void __launch_bounds__(32) hand_gang(const double* x, long long n, double* partial) {
  double s = 0;
  if (threadIdx.x == 0)
    for (long long i = blockIdx.x; i < n; i += gridDim.x) s += x[i];
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

// Xu's single-loop gwv: a grid-stride loop over every thread, then cub::BlockReduce.
template <int Block>
__global__ void __launch_bounds__(Block) hand_flat(const double* x, long long n, double* partial) {
  double s = 0;
  for (long long i = blockIdx.x * static_cast<long long>(Block) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * Block)
    s += x[i];
  using block_reduce = cub::BlockReduce<double, Block>;
  __shared__ typename block_reduce::TempStorage temp;
  s = block_reduce(temp).Sum(s);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

template <int Block>
__global__ void __launch_bounds__(Block) hand_final(const double* partial, int count, double* out) {
  double s = 0;
  for (int i = threadIdx.x; i < count; i += Block) s += partial[i];
  using block_reduce = cub::BlockReduce<double, Block>;
  __shared__ typename block_reduce::TempStorage temp;
  s = block_reduce(temp).Sum(s);
  if (threadIdx.x == 0) *out = s;
}

// The hand-written path's tail, as acc's: combine the partials, copy the sum back, wait.
double hand_finish(double* partial, int grid, double* out) {
  hand_final<256><<<1, 256, 0, stream>>>(partial, grid, out);
  CHECK(cudaGetLastError());
  double r = 0;
  CHECK(cudaMemcpyAsync(&r, out, sizeof r, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  return r;
}

// acc: one function per construct (nvcc takes no ACC_LAMBDA inside another lambda).
template <class Level>
void acc_rows(Level level, shape c, const double* x, int ni, int n, double* out) {
  acc::parallel(acc::num_workers(c.workers), acc::vector_length(c.vector), ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, ni, [&](int i) {
      const double* row = x + static_cast<long long>(i) * n;
      const double r = acc::loop_reduce(g, level, n, acc::plus, [&](int k) { return row[k]; });
      acc::single(g, acc::per_gang, [&] { out[i] = r; });
    });
  });
}

template <class Level>
double acc_rows_total(Level level, shape c, const double* x, int ni, int n) {
  double total = 0;
  acc::parallel(acc::num_workers(c.workers), acc::vector_length(c.vector), acc::reduction(acc::plus, total),
                ACC_LAMBDA(const acc::gang_t& g, double& t) {
                  acc::loop(g, acc::gang, ni, [&](int i) {
                    const double* row = x + static_cast<long long>(i) * n;
                    t += acc::loop_reduce(g, level, n, acc::plus, [&](int k) { return row[k]; });
                  });
                });
  return total;
}

double acc_gang(const double* x, long long n) {
  double total = 0;
  acc::parallel(acc::vector_length(1), acc::reduction(acc::plus, total), ACC_LAMBDA(const acc::gang_t& g, double& t) {
    acc::loop(g, acc::gang, n, [&](long long i) { t += x[i]; });
  });
  return total;
}

double acc_flat(const double* x, long long n) {
  double total = 0;
  acc::parallel_loop(n, acc::reduction(acc::plus, total), ACC_LAMBDA(long long i, double& t) { t += x[i]; });
  return total;
}

struct xu_row {
  const char* name;
  double acc_ms, hand_ms;
  bool ok;
};

void print(const xu_row& r, double bytes) {
  std::printf("%-5s %10.1f %10.1f %9.3f %s\n", r.name, bytes / 1e9 / (r.acc_ms / 1e3), bytes / 1e9 / (r.hand_ms / 1e3),
              r.hand_ms / r.acc_ms, r.ok ? "" : "WRONG");
}

template <char Level, int X, int Y, class AccLevel>
xu_row per_row(const char* name, AccLevel level, const double* x, int ni, int n, double* out_acc, double* out_hand,
               int runs) {
  const shape c{Y, X};
  const int grid = resident_grid(&hand_rows<Level, X, Y>, X * Y);
  const auto [acc_ms, hand_ms] = time_each(
      runs, [&] { acc_rows(level, c, x, ni, n, out_acc); },
      [&] {
        hand_rows<Level, X, Y><<<grid, dim3(X, Y), 0, stream>>>(x, ni, n, out_hand, nullptr);
        CHECK(cudaGetLastError());
        CHECK(cudaStreamSynchronize(stream));
      });
  std::vector<double> a(ni), h(ni);
  CHECK(cudaMemcpy(a.data(), out_acc, sizeof(double) * ni, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h.data(), out_hand, sizeof(double) * ni, cudaMemcpyDeviceToHost));
  return {name, acc_ms, hand_ms, a == h};
}

template <char Level, int X, int Y, class AccLevel>
xu_row across_rows(const char* name, AccLevel level, const double* x, int ni, int n, double* partial, double* out,
                   double expect, int runs) {
  const shape c{Y, X};
  const int grid = resident_grid(&hand_rows<Level, X, Y>, X * Y);
  double a = 0, h = 0;
  const auto [acc_ms, hand_ms] = time_each(
      runs, [&] { a = acc_rows_total(level, c, x, ni, n); },
      [&] {
        hand_rows<Level, X, Y><<<grid, dim3(X, Y), 0, stream>>>(x, ni, n, nullptr, partial);
        CHECK(cudaGetLastError());
        h = hand_finish(partial, grid, out);
      });
  return {name, acc_ms, hand_ms, a == expect && h == expect};
}

bool bench_xu(int runs) {
  // 2^13 rows of 2^15 doubles (2 GiB): every row sum is exact, so acc and hand agree exactly.
  const int ni = 1 << 13, n = 1 << 15;
  const long long total = static_cast<long long>(ni) * n;
  double *x = nullptr, *out_acc = nullptr, *out_hand = nullptr, *partial = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&x, sizeof(double) * total));
  CHECK(cudaMalloc(&out_acc, sizeof(double) * ni));
  CHECK(cudaMalloc(&out_hand, sizeof(double) * ni));
  CHECK(cudaMalloc(&partial, sizeof(double) * (1 << 20)));
  CHECK(cudaMalloc(&out, sizeof(double)));
  bench::fill_mod17<<<4096, 256, 0, stream>>>(x, total);
  CHECK(cudaGetLastError());
  const long long expect = bench::sum_mod17(total);
  const double bytes = sizeof(double) * double(total);

  std::printf("\nXu's reduction positions, %d x %d doubles (v, w, wv: one sum per row; the rest: one sum)\n", ni, n);
  std::printf("%-5s %10s %10s %9s\n", "case", "acc GB/s", "hand GB/s", "acc/hand");
  bool ok = true;
  const xu_row rows[] = {
      per_row<'v', 128, 1>("v", acc::vector, x, ni, n, out_acc, out_hand, runs),
      per_row<'w', 32, 8>("w", acc::worker, x, ni, n, out_acc, out_hand, runs),
      per_row<'b', 32, 4>("wv", acc::worker_vector, x, ni, n, out_acc, out_hand, runs),
      across_rows<'v', 128, 1>("gv", acc::vector, x, ni, n, partial, out, double(expect), runs),
      across_rows<'w', 32, 8>("gw", acc::worker, x, ni, n, partial, out, double(expect), runs),
      across_rows<'b', 32, 4>("gwv", acc::worker_vector, x, ni, n, partial, out, double(expect), runs),
  };
  for (const xu_row& r : rows) print(r, bytes), ok &= r.ok;

  {  // g: the gang loop alone, over 2^24 elements (one thread per gang reads: latency-bound)
    const long long m = 1LL << 24;
    const long long e = bench::sum_mod17(m);
    const int grid = resident_grid(&hand_gang, 32);
    double a = 0, h = 0;
    const auto [acc_ms, hand_ms] = time_each(
        runs, [&] { a = acc_gang(x, m); },
        [&] {
          hand_gang<<<grid, 32, 0, stream>>>(x, m, partial);
          CHECK(cudaGetLastError());
          h = hand_finish(partial, grid, out);
        });
    const xu_row r{"g", acc_ms, hand_ms, a == double(e) && h == double(e)};
    print(r, sizeof(double) * double(m));
    ok &= r.ok;
  }
  {  // sgwv: parallel_loop with a reduction clause over every element
    const int grid = resident_grid(&hand_flat<256>, 256);
    double a = 0, h = 0;
    const auto [acc_ms, hand_ms] = time_each(
        runs, [&] { a = acc_flat(x, total); },
        [&] {
          hand_flat<256><<<grid, 256, 0, stream>>>(x, total, partial);
          CHECK(cudaGetLastError());
          h = hand_finish(partial, grid, out);
        });
    const xu_row r{"sgwv", acc_ms, hand_ms, a == double(expect) && h == double(expect)};
    print(r, bytes);
    ok &= r.ok;
  }
  CHECK(cudaFree(x));
  CHECK(cudaFree(out_acc));
  CHECK(cudaFree(out_hand));
  CHECK(cudaFree(partial));
  CHECK(cudaFree(out));
  if (!ok) std::fprintf(stderr, "Xu cases: a result disagrees (marked WRONG)\n");
  return ok;
}
}  // namespace

int main(int argc, char** argv) try {
  const int log2n = bench::int_arg(argc, argv, "--log2", 28), runs = bench::int_arg(argc, argv, "--runs", 50);
  if (!bench::have_gpu()) return 0;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, acc::get_device_num(acc::device_type::nvidia)));
  std::printf("device: %s; GB/s of input read, median of %d runs; each run returns the sum to the host\n",
              prop.name, runs);
  std::printf("%-7s %-5s %10s %10s %10s %9s\n", "type", "size", "acc", "cub", "thrust", "acc/cub");
  const long long n = 1LL << log2n;
  bool ok = bench_sum<double>("double", n, runs);
  ok &= bench_sum<int>("int", n, runs);
  ok &= bench_sum<double>("double", n + 12345, runs);  // not a power of two
  ok &= bench_xu(std::max(5, runs / 2));
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_reduce: %s\n", e.what());
  return 1;
}
