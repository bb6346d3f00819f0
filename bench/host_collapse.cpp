// Host speed of collapsed loops: acc::parallel_loop(acc::collapse(nv, nz, nx), ...) against the
// loop nest one writes by hand for OpenMP (`omp parallel for collapse(2)` over the outer two
// loops, a plain contiguous inner loop), on a miniWeather-like stencil sweep.
// Build: g++ -O3 -std=c++20 -fopenmp -Iinclude bench/host_collapse.cpp -o host_collapse
// Run:   OMP_NUM_THREADS=1 ./host_collapse [nz nx reps]   (and with 2, 4, ... threads)
// Prints the median time of each form and acc / hand; 1.00 means no cost for acc. Built with
// nvcc (-x cu) it measures the host fallback of a CUDA build, where lambdas pay an indirect call.
#include <acc/parallel.hpp>

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int nv = 4;    // state variables, as miniWeather's NUM_VARS
constexpr int halo = 2;  // its halo width

// One sweep: tend(v, k, i) from a 4th-order difference of state along i, the innermost and
// contiguous dimension. Both forms compute exactly this.
void sweep_acc(acc::view<const double, 3> state, acc::view<double, 3> tend, int nz, int nx, double c) {
  acc::parallel_loop(acc::collapse(nv, nz, nx), ACC_LAMBDA(int v, int k, int i) {
    const int ii = i + halo, kk = k + halo;
    const double d = -state(v, kk, ii + 2) + 8 * state(v, kk, ii + 1) - 8 * state(v, kk, ii - 1) + state(v, kk, ii - 2);
    tend(v, k, i) = c * d;
  });
}

// The same with raw pointers in the body: separates the loop's cost from the view's.
void sweep_acc_raw(const double* state, double* tend, int nz, int nx, double c) {
  const long sx = nx + 2 * halo, sz = (nz + 2 * halo) * sx;
  acc::parallel_loop(acc::collapse(nv, nz, nx), ACC_LAMBDA(int v, int k, int i) {
    const double* s = state + v * sz + (k + halo) * sx + halo;
    const double d = -s[i + 2] + 8 * s[i + 1] - 8 * s[i - 1] + s[i - 2];
    tend[(long(v) * nz + k) * nx + i] = c * d;
  });
}

// The same body as a class with an ACC_ROUTINE operator(): under nvcc an extended lambda
// (ACC_LAMBDA) is called on the host through a function pointer per iteration (nvcc's wrapper
// hides the closure type), which no host compiler can inline; a named class is called directly.
struct sweep_body {
  acc::view<const double, 3> state;
  acc::view<double, 3> tend;
  double c;
  ACC_ROUTINE void operator()(int v, int k, int i) const {
    const int ii = i + halo, kk = k + halo;
    tend(v, k, i) = c * (-state(v, kk, ii + 2) + 8 * state(v, kk, ii + 1) - 8 * state(v, kk, ii - 1) + state(v, kk, ii - 2));
  }
};

void sweep_acc_class(acc::view<const double, 3> state, acc::view<double, 3> tend, int nz, int nx, double c) {
  acc::parallel_loop(acc::collapse(nv, nz, nx), sweep_body{state, tend, c});
}

void sweep_hand(const double* state, double* tend, int nz, int nx, double c) {
  const long sx = nx + 2 * halo, sz = (nz + 2 * halo) * sx;
#pragma omp parallel for collapse(2)
  for (int v = 0; v < nv; ++v)
    for (int k = 0; k < nz; ++k) {
      const double* s = state + v * sz + (k + halo) * sx + halo;
      double* t = tend + (long(v) * nz + k) * nx;
      for (int i = 0; i < nx; ++i) t[i] = c * (-s[i + 2] + 8 * s[i + 1] - 8 * s[i - 1] + s[i - 2]);
    }
}

template <class F>
double median_us(int reps, F&& f) {
  std::vector<double> t(reps);
  f();  // warm-up: first touch, thread pool
  for (auto& x : t) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    x = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  return t[reps / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int nz = argc > 1 ? std::atoi(argv[1]) : 50, nx = argc > 2 ? std::atoi(argv[2]) : 200;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 2001;
  acc::array<double, 3> state("state", nv, nz + 2 * halo, nx + 2 * halo), ta("tend_acc", nv, nz, nx),
      tr("tend_raw", nv, nz, nx), tc("tend_class", nv, nz, nx), th("tend_hand", nv, nz, nx);
  for (std::size_t n = 0; n < state.size(); ++n) state.data()[n] = double(n % 97) * 0.01;
  const double c = 0.25;

  // Interleaved rounds, so that load from other processes hits each form alike.
  double acc_us = 1e30, raw_us = 1e30, class_us = 1e30, hand_us = 1e30;
  for (int round = 0; round < 3; ++round) {
    acc_us = std::min(acc_us, median_us(reps, [&] { sweep_acc(state, ta, nz, nx, c); }));
    raw_us = std::min(raw_us, median_us(reps, [&] { sweep_acc_raw(state.data(), tr.data(), nz, nx, c); }));
    class_us = std::min(class_us, median_us(reps, [&] { sweep_acc_class(state, tc, nz, nx, c); }));
    hand_us = std::min(hand_us, median_us(reps, [&] { sweep_hand(state.data(), th.data(), nz, nx, c); }));
  }
  for (std::size_t n = 0; n < th.size(); ++n)
    if (ta.data()[n] != th.data()[n] || tr.data()[n] != th.data()[n] || tc.data()[n] != th.data()[n]) {
      std::printf("MISMATCH at %zu\n", n);
      return 1;
    }
  std::printf("collapse(%d, %d, %d), %d threads: hand %.1f us; acc/hand: lambda with views %.2f, with pointers "
              "%.2f, class body %.2f\n",
              nv, nz, nx, omp_get_max_threads(), hand_us, acc_us / hand_us, raw_us / hand_us, class_us / hand_us);
}
