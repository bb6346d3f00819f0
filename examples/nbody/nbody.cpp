// All-pairs N-body accelerations with acc, untiled (each body reads every other from global
// memory) and tiled (256 bodies at a time staged with acc::cache of a constant range), both
// checked against a double-precision CPU run; with nvcc on a GPU also the hand-written CUDA.
//
//   nbody [n = 1000]   (default not a multiple of the tile, 256)
#include "nbody.hpp"

#if defined(__CUDACC__)
#  include "nbody_cuda.cuh"
#endif

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

int main(int argc, char** argv) try {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (n < 1) {
    std::fprintf(stderr, "usage: nbody [n >= 1]\n");
    return 2;
  }
  const float eps2 = 1e-4f;
  acc::array<nbody::body> pos("pos", n);
  acc::array<nbody::vec3> out("acc", n);
  nbody::make_bodies(pos.data(), n);
  std::vector<double> ref, scale;
  nbody::reference(pos.data(), n, eps2, ref, scale);

  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  bool ok = true;
  // Float sums of n terms against a double one, relative to the body's sum of |terms|.
  auto check = [&](const char* what, double ms, const nbody::vec3* a) {
    double worst = 0.0;
    for (int i = 0; i < n; ++i) {
      const double got[] = {a[i].x, a[i].y, a[i].z};
      for (int d = 0; d < 3; ++d) {
        const double err = std::fabs(got[d] - ref[3 * std::size_t(i) + d]) / (scale[i] > 0.0 ? scale[i] : 1.0);
        worst = std::isnan(err) ? INFINITY : std::fmax(worst, err);
      }
    }
    const bool good = worst <= 1e-4;
    ok &= good;
    std::printf("nbody: %-17s %d bodies on %s: %8.3f ms, %.2f G interactions/s, max error / sum|terms| = %.3g\n",
                what, n, gpu ? "nvidia" : "host", ms, double(n) * n / ms * 1e-6, worst);
  };
  auto ms_since = [](auto start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };

  acc::data region{acc::copyin(pos), acc::create(out)};
  const struct {
    const char* name;
    void (*run)(acc::view<const nbody::body>, acc::view<nbody::vec3>, float, int);
  } versions[] = {{"untiled acc", nbody::untiled}, {"tiled acc", nbody::tiled}};
  for (const auto& v : versions) {
    v.run(pos, out, eps2, 1);  // warm-up
    const auto start = std::chrono::steady_clock::now();
    v.run(pos, out, eps2, 1);
    const double ms = ms_since(start);
    acc::update_self(out);
    check(v.name, ms, out.data());
  }
#if defined(__CUDACC__)
  if (gpu) {
    std::vector<nbody::vec3> host(n);
    nbody::hand(acc::deviceptr(pos), acc::deviceptr(out), n, eps2, cudaStreamPerThread);
    const auto start = std::chrono::steady_clock::now();
    nbody::hand(acc::deviceptr(pos), acc::deviceptr(out), n, eps2, cudaStreamPerThread);
    const double ms = ms_since(start);
    nbody::hand_check(cudaMemcpy(host.data(), acc::deviceptr(out), n * sizeof(nbody::vec3), cudaMemcpyDeviceToHost),
                      "copy back");
    check("hand-written CUDA", ms, host.data());
  }
#endif
  std::printf("nbody: %s\n", ok ? "verified" : "FAILED (accelerations differ from the CPU's)");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "nbody: %s\n", e.what());
  return 1;
}
