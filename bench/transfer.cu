// Transfer bandwidth: acc::update_device / update_self of pageable host memory against
// cudaMemcpy from pinned (the ceiling) and from pageable memory (what a naive port gets),
// 1 MiB .. 1 GiB, in one run. Target: acc from pageable >= 0.9x pinned cudaMemcpy.
//
//   bench_transfer [max MiB = 1024]
#include <acc/parallel.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "bench_transfer: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Median seconds of `reps` synchronous runs of f, after one warm-up.
template <class F>
double seconds(int reps, F&& f) {
  f();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t max_mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  if (acc::get_num_devices(acc::device_type::nvidia) == 0) {
    std::printf("bench_transfer: no NVIDIA GPU; nothing to measure\n");
    return 0;
  }
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  std::printf("bench_transfer on %s; GB/s (1e9 bytes/s), median of several runs\n", prop.name);
  std::printf("%9s | %8s %8s %8s %6s | %8s %8s %8s %6s | %9s\n", "MiB", "h2d pin", "h2d page", "h2d acc", "ratio",
              "d2h pin", "d2h page", "d2h acc", "ratio", "enter ms");

  bool all_ok = true;
  for (std::size_t mib = 1; mib <= max_mib; mib *= 4) {
    const std::size_t bytes = mib << 20;
    const int reps = static_cast<int>(std::clamp<std::size_t>(1024 / mib, 3, 20));
    char* pinned = nullptr;
    char* device = nullptr;
    check(cudaMallocHost(&pinned, bytes), "cudaMallocHost");
    check(cudaMalloc(&device, bytes), "cudaMalloc");
    // Pageable memory, touched so that page faults are not measured as transfers.
    std::vector<char> pageable(bytes, 1), user(bytes, 2);
    std::memset(pinned, 3, bytes);

    const double h2d_pin = seconds(reps, [&] { check(cudaMemcpy(device, pinned, bytes, cudaMemcpyHostToDevice), "h2d"); });
    const double d2h_pin = seconds(reps, [&] { check(cudaMemcpy(pinned, device, bytes, cudaMemcpyDeviceToHost), "d2h"); });
    const double h2d_page =
        seconds(reps, [&] { check(cudaMemcpy(device, pageable.data(), bytes, cudaMemcpyHostToDevice), "h2d"); });
    const double d2h_page =
        seconds(reps, [&] { check(cudaMemcpy(pageable.data(), device, bytes, cudaMemcpyDeviceToHost), "d2h"); });

    // acc: the user's pageable memory, entered once (as a port does), then updated repeatedly.
    acc::view<char> v("user", user.data(), bytes);
    const auto e0 = std::chrono::steady_clock::now();
    acc::enter_data(acc::create(v));
    const double enter = std::chrono::duration<double>(std::chrono::steady_clock::now() - e0).count();
    const double h2d_acc = seconds(reps, [&] { acc::update_device(v); });
    const double d2h_acc = seconds(reps, [&] { acc::update_self(v); });
    acc::exit_data(acc::delete_(v));

    const double gb = static_cast<double>(bytes) / 1e9;
    const double r_h2d = h2d_pin / h2d_acc, r_d2h = d2h_pin / d2h_acc;
    std::printf("%9zu | %8.2f %8.2f %8.2f %6.2f | %8.2f %8.2f %8.2f %6.2f | %9.2f\n", mib, gb / h2d_pin, gb / h2d_page,
                gb / h2d_acc, r_h2d, gb / d2h_pin, gb / d2h_page, gb / d2h_acc, r_d2h, enter * 1e3);
    all_ok = all_ok && r_h2d >= 0.9 && r_d2h >= 0.9;
    check(cudaFreeHost(pinned), "cudaFreeHost");
    check(cudaFree(device), "cudaFree");
  }
  std::printf("acc pageable vs pinned cudaMemcpy >= 0.9x at every size: %s\n", all_ok ? "yes" : "NO");
  return 0;
}
