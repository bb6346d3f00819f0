// Tiles: for each of the fcw paper's programs and Rodinia srad_v2, the untiled acc
// version (parallel_loop), the tiled one (acc::tile_loop / acc::cache) and a hand-written CUDA
// shared-memory version of the same algorithm, timed in the same run on data made present once
// (examples/<program>/ hold all three). Targets of the issue: tiled/untiled >= 1.23 (hotspot),
// 1.15 (pathfinder), 2.5 (matmul), 1.38 (N-body), and tiled within 10% of the hand-written CUDA.
//   bench_tiles [--runs 20] [--only hotspot|pathfinder|matmul|nbody|fwt|srad]
// Each run of a version is the whole computation (every iteration / stage / row), queued
// without host round trips and waited for at the end. Exits 1 if the versions' results
// disagree, 0 without a GPU (nothing to measure).
#include <acc/parallel.hpp>

#include "../examples/fwt/fwt_cuda.cuh"
#include "../examples/hotspot/hotspot_cuda.cuh"
#include "../examples/matmul_tiled/matmul_tiled_cuda.cuh"
#include "../examples/nbody/nbody_cuda.cuh"
#include "../examples/pathfinder/pathfinder_cuda.cuh"
#include "../examples/srad/srad_cuda.cuh"

#include <cuda_runtime.h>

#include "timing.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {

using bench::stream;
int runs = 20;

// Median milliseconds of f() (which must end synchronised) over `runs` runs, after warm-up.
template <class F>
double time_ms(F f) {
  return bench::time_ms(runs, f);
}

/// One line of the table; `target` is the issue's tiled/untiled speedup (0: none asked).
bool report(const char* program, const std::string& size, double untiled, double tiled, double hand, double target,
            double max_diff, bool agree) {
  const double speedup = untiled / tiled, vs_hand = tiled / hand;
  char goal[64] = "-";
  if (target > 0) std::snprintf(goal, sizeof goal, ">= %.2f %s", target, speedup >= target ? "met" : "MISSED");
  std::printf("%-10s %-26s %9.3f %9.3f %9.3f %8.3f %10.3f %-6s %-14s %9.3g %s\n", program, size.c_str(), untiled,
              tiled, hand, speedup, vs_hand, vs_hand <= 1.10 ? "ok" : "MISSED", goal, max_diff,
              agree ? "agree" : "DISAGREE");
  std::fflush(stdout);
  return agree;
}

double max_abs_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::fmax(d, std::fabs(double(a[k]) - b[k]));
  return std::isnan(d) ? INFINITY : d;
}

double max_rel_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    d = std::fmax(d, std::fabs(double(a[k]) - b[k]) / std::fmax(std::fabs(double(b[k])), 1e-30));
  return std::isnan(d) ? INFINITY : d;
}

double max_magnitude(const std::vector<float>& a) {
  double m = 0;
  for (float v : a) m = std::fmax(m, std::fabs(double(v)));
  return m > 0 ? m : 1;
}

template <class T>
std::vector<T> from_device(const T* d, std::size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// Rodinia hotspot, 4096 x 4096, 12 steps (the issue's size).
bool bench_hotspot() {
  const int rows = 4096, cols = 4096, iterations = 12;
  const std::size_t n = std::size_t(rows) * cols;
  const hotspot::coefficients c = hotspot::coefficients_of();
  std::vector<float> temp0(n);
  acc::array<float, 2> power("power", rows, cols), temp("temp", rows, cols), next("temp_next", rows, cols);
  hotspot::make_input(rows, cols, temp0.data(), power.data());
  acc::data region{acc::copyin(power), acc::create(temp), acc::create(next)};
  float *dt = acc::deviceptr(temp), *dn = acc::deviceptr(next);
  const float* dp = acc::deviceptr(power);
  // cudaMemcpy from pageable memory may return before the copy lands; acc's queues are other
  // streams. 12 steps make an even number of constructs at heights 1 and 2, so `temp` is dt's
  // storage again whenever a version starts or ends.
  auto reset = [&] {
    CHECK(cudaMemcpy(dt, temp0.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSynchronize());
  };
  reset();
  const double untiled = time_ms([&] { hotspot::untiled(temp, next, power, iterations, c); });
  reset();
  hotspot::untiled(temp, next, power, iterations, c);
  const std::vector<float> ru = from_device(acc::deviceptr(temp), n);
  bool ok = true;
  // Height 1: one step per construct (halo 1); 2: Rodinia's pyramid of two steps (halo 2).
  for (int h : {1, 2}) {
    const double tiled = time_ms([&] { hotspot::tiled(temp, next, power, iterations, c, h); });
    const double hand = time_ms([&] { hotspot::hand(dt, dn, dp, rows, cols, iterations, c, stream, h); });
    reset();
    hotspot::tiled(temp, next, power, iterations, c, h);
    const std::vector<float> rt = from_device(acc::deviceptr(temp), n);
    reset();
    const std::vector<float> rh = from_device(hotspot::hand(dt, dn, dp, rows, cols, iterations, c, stream, h), n);
    const double d = std::fmax(max_abs_diff(rt, ru), max_abs_diff(rh, ru));
    ok &= report("hotspot", "4096^2, 12 steps, h " + std::to_string(h), untiled, tiled, hand, 1.23, d, d <= 2e-3);
  }
  return ok;
}

// Rodinia pathfinder, 4M columns x 128 rows, pyramid heights 2 .. 12 (the halo each side).
bool bench_pathfinder() {
  const int rows = 128, cols = 1 << 22;
  acc::array<int, 2> wall("wall", rows, cols);
  acc::array<int> src("src", cols), dst("dst", cols);
  acc::data region{acc::create(wall), acc::create(src), acc::create(dst)};
  // The grid is made on the device (a 2 GiB host fill would dominate the bench's run time).
  acc::parallel_loop(acc::collapse(rows, cols), acc::default_present, ACC_LAMBDA(int i, int j) {
    wall(i, j) = pathfinder::weight(std::uint64_t(i) * cols + j);
  });
  const int* dw = acc::deviceptr(wall);
  int *ds = acc::deviceptr(src), *dd = acc::deviceptr(dst);
  const double untiled = time_ms([&] { pathfinder::untiled(wall, src, dst); });
  pathfinder::untiled(wall, src, dst);
  const std::vector<int> ru = from_device(acc::deviceptr(src), cols);
  bool ok = true;
  for (int h : {2, 4, 8, 12}) {
    const double tiled = time_ms([&] { pathfinder::tiled(wall, src, dst, h); });
    const double hand = time_ms([&] { pathfinder::hand(dw, ds, dd, rows, cols, h, stream); });
    pathfinder::tiled(wall, src, dst, h);
    const std::vector<int> rt = from_device(acc::deviceptr(src), cols);
    const std::vector<int> rh = from_device(pathfinder::hand(dw, ds, dd, rows, cols, h, stream), cols);
    long differ = 0;
    for (int k = 0; k < cols; ++k) differ += (rt[k] != ru[k]) + (rh[k] != ru[k]);
    ok &= report("pathfinder", "4Mi cols x 128 rows, h " + std::to_string(h), untiled, tiled, hand, 1.15,
                 double(differ), differ == 0);
  }
  return ok;
}

// Dense single-precision C = A B, 2048^3, 16 x 16 tiles.
bool bench_matmul() {
  const int M = 2048, K = 2048, N = 2048;
  acc::array<float, 2> a("a", M, K), b("b", K, N), c("c", M, N);
  // Positive entries: no cancellation, so the versions agree to a few ulps of each element.
  for (std::size_t k = 0; k < a.size(); ++k) a.data()[k] = float((k * 2654435761u) % 1000) / 1000.0f;
  for (std::size_t k = 0; k < b.size(); ++k) b.data()[k] = float((k * 40503u + 17) % 1000) / 1000.0f;
  acc::data region{acc::copyin(a), acc::copyin(b), acc::create(c)};
  const float *da = acc::deviceptr(a), *db = acc::deviceptr(b);
  float* dc = acc::deviceptr(c);
  const std::size_t n = std::size_t(M) * N;
  const double untiled = time_ms([&] { matmul_tiled::untiled(a, b, c); });
  const std::vector<float> ru = from_device(dc, n);
  const double tiled = time_ms([&] { matmul_tiled::tiled(a, b, c); });
  const std::vector<float> rt = from_device(dc, n);
  const double team = time_ms([&] { matmul_tiled::tiled_team(a, b, c); });
  const std::vector<float> rteam = from_device(dc, n);
  const double hand = time_ms([&] { matmul_tiled::hand(da, db, dc, M, K, N, stream); });
  const std::vector<float> rh = from_device(dc, n);
  const double d = std::fmax(std::fmax(max_rel_diff(rt, ru), max_rel_diff(rh, ru)), max_rel_diff(rteam, ru));
  const double flop = 2.0 * M * K * N * 1e-6;
  std::printf("%-10s (GFLOP/s: untiled %.0f, tiled acc::cache %.0f, tiled team memory %.0f, hand %.0f)\n", "matmul",
              flop / untiled, flop / tiled, flop / team, flop / hand);
  bool ok = report("matmul", "2048^3, acc::cache", untiled, tiled, hand, 2.5, d, d <= 1e-5);
  ok &= report("matmul", "2048^3, team memory", untiled, team, hand, 2.5, d, d <= 1e-5);
  return ok;
}

// All-pairs N-body, 131072 bodies, tiles of 256.
bool bench_nbody() {
  const int n = 131072;
  const float eps2 = 1e-4f;
  acc::array<nbody::body> pos("pos", n);
  acc::array<nbody::vec3> out("acc", n);
  nbody::make_bodies(pos.data(), n);
  acc::data region{acc::copyin(pos), acc::create(out)};
  const nbody::body* dp = acc::deviceptr(pos);
  nbody::vec3* dout = acc::deviceptr(out);
  auto flat = [&] {
    const std::vector<nbody::vec3> v = from_device(dout, n);
    std::vector<float> f(3 * std::size_t(n));
    for (int i = 0; i < n; ++i) f[3 * i] = v[i].x, f[3 * i + 1] = v[i].y, f[3 * i + 2] = v[i].z;
    return f;
  };
  const double untiled = time_ms([&] { nbody::untiled(pos, out, eps2); });
  const std::vector<float> ru = flat();
  const double tiled = time_ms([&] { nbody::tiled(pos, out, eps2); });
  const std::vector<float> rt = flat();
  const double hand = time_ms([&] { nbody::hand(dp, dout, n, eps2, stream); });
  const std::vector<float> rh = flat();
  // The same additions in the same order: differences come from contraction into FMAs only.
  double scale = 0;
  for (float v : ru) scale = std::fmax(scale, std::fabs(double(v)));
  const double d = std::fmax(max_abs_diff(rt, ru), max_abs_diff(rh, ru)) / scale;
  return report("nbody", "131072 bodies, tiles of 256", untiled, tiled, hand, 1.38, d, d <= 1e-4);
}

// Dyadic convolution by FWT, 2^23 elements and a kernel of 128 (the CUDA SDK sample's sizes).
bool bench_fwt() {
  const int log2n = 23, n = 1 << log2n, kn = 128;
  std::vector<float> data0(n), kernel0(n, 0.0f);
  for (int i = 0; i < n; ++i) data0[i] = float((std::uint32_t(i) * 2654435761u) >> 8) * 0x1.0p-24f;
  for (int i = 0; i < kn; ++i) kernel0[i] = float((std::uint32_t(i) * 40503u + 7) % 1000) / 1000.0f;
  acc::array<float> data("data", n), kernel("kernel", n);
  acc::data region{acc::create(data), acc::create(kernel)};
  float *dd = acc::deviceptr(data), *dk = acc::deviceptr(kernel);
  // Each run overwrites both inputs, so each starts from pristine device copies; the copies'
  // time, measured alone, is subtracted.
  float *pristine_d = nullptr, *pristine_k = nullptr;
  CHECK(cudaMalloc(&pristine_d, n * sizeof(float)));
  CHECK(cudaMalloc(&pristine_k, n * sizeof(float)));
  CHECK(cudaMemcpy(pristine_d, data0.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(pristine_k, kernel0.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSynchronize());
  auto reset = [&] {
    CHECK(cudaMemcpyAsync(dd, pristine_d, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    CHECK(cudaMemcpyAsync(dk, pristine_k, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    CHECK(cudaStreamSynchronize(stream));
  };
  const double copies = time_ms(reset);
  const double untiled = time_ms([&] { reset(); fwt::untiled(data, kernel); }) - copies;
  const double tiled = time_ms([&] { reset(); fwt::tiled(data, kernel); }) - copies;
  const double hand = time_ms([&] { reset(); fwt::hand(dd, dk, n, stream); }) - copies;
  reset();
  fwt::untiled(data, kernel);
  const std::vector<float> ru = from_device(dd, n);
  reset();
  fwt::tiled(data, kernel);
  const std::vector<float> rt = from_device(dd, n);
  reset();
  fwt::hand(dd, dk, n, stream);
  const std::vector<float> rh = from_device(dd, n);
  CHECK(cudaFree(pristine_d));
  CHECK(cudaFree(pristine_k));
  // The same butterflies in the same order: the results should be bitwise equal.
  const double d = std::fmax(max_abs_diff(rt, ru), max_abs_diff(rh, ru)) / max_magnitude(ru);
  return report("fwt", "2^23, kernel 128", untiled, tiled, hand, 0, d, d <= 1e-6);
}

// Rodinia srad_v2, 4096 x 4096, ROI 0..127 x 0..127, lambda 0.5, 10 iterations.
bool bench_srad() {
  const int rows = 4096, cols = 4096, iterations = 10;
  const srad::params p{0, 127, 0, 127, 0.5f};
  const std::size_t n = std::size_t(rows) * cols;
  std::vector<float> j0(n);
  srad::make_image(j0.data(), n);
  srad::image im(rows, cols);
  acc::data region{acc::create(im.J),  acc::create(im.dN), acc::create(im.dS),   acc::create(im.dW),
                   acc::create(im.dE), acc::create(im.c),  acc::create(im.q0sqr)};
  const srad::hand_image d{acc::deviceptr(im.J),  acc::deviceptr(im.dN), acc::deviceptr(im.dS),
                           acc::deviceptr(im.dW), acc::deviceptr(im.dE), acc::deviceptr(im.c),
                           acc::deviceptr(im.q0sqr)};
  auto reset = [&] {
    CHECK(cudaMemcpy(d.J, j0.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSynchronize());
  };
  // Diffusion converges, so timed runs may continue from the previous run's image.
  reset();
  const double untiled = time_ms([&] { srad::untiled(im, p, iterations); });
  const double tiled = time_ms([&] { srad::tiled(im, p, iterations); });
  const double hand = time_ms([&] { srad::hand(d, rows, cols, p, iterations, stream); });
  reset();
  srad::untiled(im, p, iterations);
  const std::vector<float> ru = from_device(d.J, n);
  reset();
  srad::tiled(im, p, iterations);
  const std::vector<float> rt = from_device(d.J, n);
  reset();
  srad::hand(d, rows, cols, p, iterations, stream);
  const std::vector<float> rh = from_device(d.J, n);
  const double diff = std::fmax(max_rel_diff(rt, ru), max_rel_diff(rh, ru));
  return report("srad_v2", "4096x4096, 10 iterations", untiled, tiled, hand, 0, diff, diff <= 5e-5);
}

}  // namespace

int main(int argc, char** argv) try {
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    else if (arg == "--only") only = argv[i + 1];
  }
  if (!bench::have_gpu()) return 0;
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, acc::get_device_num(acc::device_type::nvidia)));
  std::printf("device: %s; ms per whole computation, median of %d runs; speedup = untiled / tiled; "
              "tiled/hand = tiled / hand-written CUDA (asked: <= 1.10)\n",
              prop.name, runs);
  std::printf("%-10s %-26s %9s %9s %9s %8s %10s %-6s %-14s %9s %s\n", "program", "size", "untiled", "tiled", "hand",
              "speedup", "tiled/hand", "", "speedup asked", "max diff", "results");
  bool ok = true;
  const struct {
    const char* name;
    bool (*run)();
  } programs[] = {{"hotspot", bench_hotspot}, {"pathfinder", bench_pathfinder}, {"matmul", bench_matmul},
                  {"nbody", bench_nbody},     {"fwt", bench_fwt},               {"srad", bench_srad}};
  for (const auto& p : programs)
    if (only.empty() || only == p.name) ok &= p.run();
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_tiles: %s\n", e.what());
  return 1;
}
