// 2D heat equation by Jacobi iteration, as an OpenACC port keeps it: both grids stay on the
// device for every iteration (one acc::data region), each sweep is a collapsed parallel_loop
// with default_present, and the result is copied out once. Verified against a CPU run.
//
//   heat2d [n = 256] [iterations = 500]
#include <acc/parallel.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

// One sweep: every interior point becomes the mean of its four neighbours; the boundary rows
// and columns never change, so both grids carry the same fixed boundary.
void sweep(acc::view<const double, 2> t, acc::view<double, 2> next, int n) {
  acc::parallel_loop(acc::collapse(n - 2, n - 2), acc::default_present, ACC_LAMBDA(int i, int j) {
    next(i + 1, j + 1) = 0.25 * (t(i, j + 1) + t(i + 2, j + 1) + t(i + 1, j) + t(i + 1, j + 2));
  });
}

// Hot top edge, a warm left edge, a hot square in the middle that spreads, the rest cold.
double initial(int i, int j, int n) {
  if (i == 0) return 100.0;
  if (j == 0) return 50.0 * (n - 1 - i) / (n - 1);
  const int r = n / 8 + 1;
  if (std::abs(i - n / 2) < r && std::abs(j - n / 2) < r) return 100.0;
  return 0.0;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 500;
  if (n < 3 || iterations < 0) {
    std::fprintf(stderr, "usage: heat2d [n >= 3] [iterations >= 0]\n");
    return 2;
  }

  acc::array<double, 2> t("temperature", n, n), next("temperature_next", n, n);
  std::vector<double> ref(std::size_t(n) * n), ref_next;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) t(i, j) = next(i, j) = ref[std::size_t(i) * n + j] = initial(i, j, n);
  ref_next = ref;

  const auto start = std::chrono::steady_clock::now();
  {
    acc::data grids{acc::copy(t), acc::copy(next)};
    for (int it = 0; it < iterations; ++it) {
      sweep(t, next, n);
      swap(t, next);  // handles only: both grids stay present, nothing moves
    }
  }  // both grids copied out here, once
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  for (int it = 0; it < iterations; ++it) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        ref_next[std::size_t(i) * n + j] = 0.25 * (ref[std::size_t(i - 1) * n + j] + ref[std::size_t(i + 1) * n + j] +
                                                   ref[std::size_t(i) * n + j - 1] + ref[std::size_t(i) * n + j + 1]);
    std::swap(ref, ref_next);
  }

  double max_diff = 0.0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) max_diff = std::fmax(max_diff, std::fabs(t(i, j) - ref[std::size_t(i) * n + j]));

  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("heat2d: %dx%d, %d iterations on %s: %.3f s, centre %.6f, max |acc - cpu| = %.3g\n", n, n, iterations,
              gpu ? "nvidia" : "host", seconds, t(n / 2, n / 2), max_diff);
  // The same additions in the same order on both sides: only rounding mode differences allowed.
  if (!(max_diff <= 1e-12)) {
    std::fprintf(stderr, "heat2d: FAILED, the acc result differs from the CPU run\n");
    return 1;
  }
  std::printf("heat2d: OK\n");
  return 0;
}
