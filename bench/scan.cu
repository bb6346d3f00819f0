// Scans: acc::inclusive_scan / exclusive_scan against cub::DeviceScan (the bar: >= 0.97x
// its throughput) and thrust::inclusive_scan / exclusive_scan, on 2^28 ints and doubles in the
// same run; and stream compaction with acc::parallel_scan against cub::DeviceSelect::If (the
// bar: >= 0.9x).
//   bench_scan [--log2 28] [--runs 30] [--tiles device|slow|fast]
// --tiles: parallel_scan's narrow 64-bit tiles for this device's memory speed (the default), or
// those for slow or for fast memory per SM (acc::detail::cuda::scan_shape), to compare them on
// one GPU.
// The versions compared take turns within each run (bench::time_each), each writing its own
// output. Exits 1 if a result is wrong, 0 without a GPU (nothing to measure).
#include <acc/parallel.hpp>

#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include <cuda_runtime.h>

#include "timing.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using bench::stream;

/// The first index where got differs from the sequential scan of fill_mod17's values (inclusive, or
/// exclusive from 0), or -1.
template <class T>
long long first_wrong(const T* d, long long n, bool exclusive) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, sizeof(T) * n, cudaMemcpyDeviceToHost));
  long long run = 0;
  for (long long i = 0; i < n; ++i) {
    const long long x = i % 17 - 8;
    if (!exclusive) run += x;
    if (h[i] != T(run)) return i;
    if (exclusive) run += x;
  }
  return -1;
}

template <class T>
bool bench_scans(const char* type, long long n, int runs) {
  // One output per version, so that they can take turns within each run (bench::time_each)
  // and each result is checked after the timing.
  T *in = nullptr, *out_acc = nullptr, *out_cub = nullptr, *out_thrust = nullptr;
  CHECK(cudaMalloc(&in, sizeof(T) * n));
  CHECK(cudaMalloc(&out_acc, sizeof(T) * n));
  CHECK(cudaMalloc(&out_cub, sizeof(T) * n));
  CHECK(cudaMalloc(&out_thrust, sizeof(T) * n));
  bench::fill_mod17<<<4096, 256, 0, stream>>>(in, n);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
  // The device memory is present for acc (deviceptr), so its scans run in place on it.
  acc::data region{acc::deviceptr(in, n), acc::deviceptr(out_acc, n)};
  const double gb = 2.0 * sizeof(T) * double(n) / 1e9;  // read once, written once
  bool ok = true;

  for (int exclusive = 0; exclusive <= 1; ++exclusive) {
    // CUB with its temporary storage allocated once, outside the timing: its best case. An int
    // count, as CUB's users write it (and as acc passes counts below 2^31: 32-bit offsets).
    const int items = static_cast<int>(n);
    std::size_t bytes = 0;
    if (exclusive) CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out_cub, items, stream));
    else CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out_cub, items, stream));
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, bytes));
    for (T* out : {out_acc, out_cub, out_thrust}) CHECK(cudaMemsetAsync(out, 0, sizeof(T) * n, stream));

    const auto ms = bench::time_each(
        runs,
        [&] {
          if (exclusive) acc::exclusive_scan(in, n, out_acc, T(0));
          else acc::inclusive_scan(in, n, out_acc);
        },
        [&] {
          if (exclusive) CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out_cub, items, stream));
          else CHECK(cub::DeviceScan::InclusiveSum(temp, bytes, in, out_cub, items, stream));
          CHECK(cudaStreamSynchronize(stream));
        },
        [&] {
          if (exclusive) thrust::exclusive_scan(thrust::cuda::par.on(stream), in, in + n, out_thrust);
          else thrust::inclusive_scan(thrust::cuda::par.on(stream), in, in + n, out_thrust);
          CHECK(cudaStreamSynchronize(stream));
        });
    CHECK(cudaFree(temp));
    const long long acc_wrong = first_wrong(out_acc, n, exclusive);
    const long long cub_wrong = first_wrong(out_cub, n, exclusive);
    const long long thrust_wrong = first_wrong(out_thrust, n, exclusive);

    std::printf("%-9s %-7s 2^%-3d %10.1f %10.1f %10.1f %9.3f\n", exclusive ? "exclusive" : "inclusive", type,
                int(std::log2(double(n))), gb / (ms[0] / 1e3), gb / (ms[1] / 1e3), gb / (ms[2] / 1e3), ms[1] / ms[0]);
    if (acc_wrong >= 0 || cub_wrong >= 0 || thrust_wrong >= 0) {
      std::fprintf(stderr, "%s %s: wrong scan: first bad index acc %lld cub %lld thrust %lld\n",
                   exclusive ? "exclusive" : "inclusive", type, acc_wrong, cub_wrong, thrust_wrong);
      ok = false;
    }
  }
  for (T* p : {in, out_acc, out_cub, out_thrust}) CHECK(cudaFree(p));
  return ok;
}

/// Keeps x > 0 (8 of the 17 values fill_mod17 writes, about 47%).
struct positive {
  __host__ __device__ bool operator()(int v) const { return v > 0; }
};

/// acc's compaction: each kept element goes to the number of kept elements before it.
template <class Count>
Count acc_compact(const int* in, Count n, int* out) {
  return acc::parallel_scan(n, ACC_LAMBDA(Count i, Count& p, bool final) {
    const int v = in[i];
    const bool keep = v > 0;
    if (final && keep) out[p] = v;
    p += keep;
  });
}

template <class Count>
bool bench_compaction(const char* counter, long long n, int runs) {
  int *in = nullptr, *out_acc = nullptr, *out_cub = nullptr;
  Count* count = nullptr;
  CHECK(cudaMalloc(&in, sizeof(int) * n));
  CHECK(cudaMalloc(&out_acc, sizeof(int) * n));
  CHECK(cudaMalloc(&out_cub, sizeof(int) * n));
  CHECK(cudaMalloc(&count, sizeof(Count)));
  bench::fill_mod17<<<4096, 256, 0, stream>>>(in, n);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
  long long expect = 0;
  for (long long r = 0; r < 17; ++r)
    if (r - 8 > 0) expect += n / 17 + (r < n % 17 ? 1 : 0);

  // CUB with its temporary storage allocated once, counting in the same type as acc (its offsets
  // are then 32- or 64-bit alike); each run also returns the count to the host, as parallel_scan
  // does.
  const Count items = static_cast<Count>(n);
  std::size_t bytes = 0;
  CHECK(cub::DeviceSelect::If(nullptr, bytes, in, out_cub, count, items, positive{}, stream));
  void* temp = nullptr;
  CHECK(cudaMalloc(&temp, bytes));
  Count acc_kept = 0, cub_kept = 0;
  const auto ms = bench::time_each(
      runs, [&] { acc_kept = acc_compact(in, Count(n), out_acc); },
      [&] {
        CHECK(cub::DeviceSelect::If(temp, bytes, in, out_cub, count, items, positive{}, stream));
        CHECK(cudaMemcpyAsync(&cub_kept, count, sizeof(Count), cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));
      });
  std::vector<int> acc_out(expect > 0 ? expect : 1), cub_out(acc_out.size());
  CHECK(cudaMemcpy(acc_out.data(), out_acc, sizeof(int) * acc_out.size(), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(cub_out.data(), out_cub, sizeof(int) * cub_out.size(), cudaMemcpyDeviceToHost));

  const double gb = (sizeof(int) * double(n) + sizeof(int) * double(expect)) / 1e9;  // read all, write kept
  std::printf("compact   int     2^%-3d %10.1f %10.1f %10s %9.3f   (%s counters; kept %lld)\n",
              int(std::log2(double(n))), gb / (ms[0] / 1e3), gb / (ms[1] / 1e3), "-", ms[1] / ms[0], counter,
              static_cast<long long>(acc_kept));
  bool ok = static_cast<long long>(acc_kept) == expect && static_cast<long long>(cub_kept) == expect && acc_out == cub_out;
  // The kept values cycle 1..8 in order.
  for (long long k = 0; ok && k < expect; ++k) ok = acc_out[k] == int(k % 8) + 1;
  if (!ok)
    std::fprintf(stderr, "compaction (%s counter): acc kept %lld, cub %lld, expected %lld; outputs %s\n", counter,
                 static_cast<long long>(acc_kept), static_cast<long long>(cub_kept), expect,
                 acc_out == cub_out ? "equal" : "differ");
  CHECK(cudaFree(temp));
  CHECK(cudaFree(count));
  for (int* p : {in, out_acc, out_cub}) CHECK(cudaFree(p));
  return ok;
}

}  // namespace

int main(int argc, char** argv) try {
  const int log2n = bench::int_arg(argc, argv, "--log2", 28), runs = bench::int_arg(argc, argv, "--runs", 30);
  if (!bench::have_gpu()) return 0;
  namespace cuda = acc::detail::cuda;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--tiles") == 0) {
      const std::string v = argv[i + 1];
      if (v != "device" && v != "slow" && v != "fast") {
        std::fprintf(stderr, "bench_scan: --tiles takes device, slow or fast, not %s\n", v.c_str());
        return 2;
      }
      cuda::scan_shape_choice = v == "slow"   ? cuda::scan_shape::slow_memory
                                : v == "fast" ? cuda::scan_shape::fast_memory
                                              : cuda::scan_shape::of_device;
    }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, acc::get_device_num(acc::device_type::nvidia)));
  std::printf("device: %s; GB/s of data read and written, median of %d runs\n", prop.name, runs);
  // The compactions' parallel_scan tiles (scan_policy): the narrow ones for fast memory here?
  const bool fast = cuda::scan_shapes_for_fast_memory(acc::get_device_num(acc::device_type::nvidia), {});
  std::printf("parallel_scan tiles of 4-byte sums: %d x %d, of narrow 64-bit sums: %d x %d (%s)\n",
              cuda::scan_policy::block, cuda::scan_items<int, acc::plus_t>, cuda::scan_policy::block,
              fast ? cuda::scan_policy::fast_narrow_items : cuda::scan_items<long long, acc::plus_t>,
              cuda::scan_shape_choice == cuda::scan_shape::of_device ? "this device's" : "--tiles");
  std::printf("%-9s %-7s %-5s %10s %10s %10s %9s\n", "scan", "type", "size", "acc", "cub", "thrust", "acc/cub");
  const long long n = 1LL << log2n;
  bool ok = bench_scans<int>("int", n, runs);
  ok &= bench_scans<double>("double", n, runs);
  ok &= bench_scans<int>("int", n + 12345, runs);  // not a power of two
  ok &= bench_compaction<int>("int", n, runs);
  ok &= bench_compaction<long long>("long long", n, runs);
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_scan: %s\n", e.what());
  return 1;
}
