// Rodinia 3.1 gaussian (Gaussian elimination of A x = b, then back substitution) with acc.
// Per column t, Rodinia's CUDA version runs Fan1 (the multipliers m[i][t] = a[i][t] / a[t][t]
// below the pivot) and Fan2 (a[i][j] -= m[i][t] a[t][j] and b[i] -= m[i][t] b[t] below and right
// of it), then solves the triangular system on the host. Variant "sync": one synchronous
// parallel_loop per kernel; "async": the same constructs queued, one wait at the end. Both
// solve on the host afterwards, as Rodinia, and the solution is compared with a CPU run.
//
//   gaussian [size = 1024]
//
// Rodinia reads a matrix file (its largest, matrix1024.txt) or builds one with -s; here the
// matrix is random and strictly diagonally dominant, so that elimination without pivoting (as
// Rodinia's) is stable.
#include <acc/parallel.hpp>

#include "../common/rodinia.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

// Rodinia's BackSub, in float as its arrays.
std::vector<float> back_substitution(const float* a, const float* b, int n) {
  std::vector<float> x(n);
  for (int i = n - 1; i >= 0; --i) {
    float s = b[i];
    for (int j = i + 1; j < n; ++j) s -= a[std::size_t(i) * n + j] * x[j];
    x[i] = s / a[std::size_t(i) * n + i];
  }
  return x;
}

// Fan1 and Fan2 of column t. OpenACC:
//   #pragma acc parallel loop present(a, m)
//   for (i = t + 1; i < n; ++i) m[i][t] = a[i][t] / a[t][t];
//   #pragma acc parallel loop collapse(2) present(a, b, m)
//   for (i = t + 1; i < n; ++i) for (j = t; j < n; ++j) { a[i][j] -= m[i][t] * a[t][j]; if (j == t) b[i] -= m[i][t] * b[t]; }
void eliminate(acc::view<float, 2> a, acc::view<float> b, acc::view<float, 2> m, int t, int queue) {
  const int n = int(a.extent(0));
  acc::parallel_loop(acc::range(t + 1, n), acc::default_present, acc::async(queue),
                     ACC_LAMBDA(int i) { m(i, t) = a(i, t) / a(t, t); });
  acc::parallel_loop(acc::collapse(n - t - 1, n - t), acc::default_present, acc::async(queue),
                     ACC_LAMBDA(int ii, int jj) {
                       const int i = t + 1 + ii, j = t + jj;
                       a(i, j) -= m(i, t) * a(t, j);
                       if (j == t) b[i] -= m(i, t) * b[t];
                     });
}

}  // namespace

int main(int argc, char** argv) try {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  if (n < 1) {
    std::fprintf(stderr, "usage: gaussian [size >= 1]\n");
    return 2;
  }
  std::printf("gaussian: %d x %d on %s\n", n, n, acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");
  const std::size_t nn = std::size_t(n) * n;
  std::vector<float> a0(nn), b0(n);
  rodinia::random rng(7);
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j) {
      a0[std::size_t(i) * n + j] = float(2 * rng.uniform() - 1);
      row += std::fabs(a0[std::size_t(i) * n + j]);
    }
    a0[std::size_t(i) * n + i] = float(row + 1);
    b0[i] = float(2 * rng.uniform() - 1);
  }

  // The CPU reference: the same elimination in the same order, in float.
  std::vector<float> ra = a0, rb = b0;
  for (int t = 0; t < n - 1; ++t)
    for (int i = t + 1; i < n; ++i) {
      const float mi = ra[std::size_t(i) * n + t] / ra[std::size_t(t) * n + t];
      for (int j = t; j < n; ++j) ra[std::size_t(i) * n + j] -= mi * ra[std::size_t(t) * n + j];
      rb[i] -= mi * rb[t];
    }
  const std::vector<float> ref = back_substitution(ra.data(), rb.data(), n);

  acc::array<float, 2> a("a", n, n), m("m", n, n);
  acc::array<float> b("b", n);
  bool ok = true;
  for (const bool async : {false, true}) {
    acc::data region{acc::create(a), acc::create(b), acc::create(m)};
    auto reset = [&] {
      std::copy(a0.begin(), a0.end(), a.begin());
      std::copy(b0.begin(), b0.end(), b.begin());
      acc::update_device(a);
      acc::update_device(b);
    };
    auto run = [&] {
      for (int t = 0; t < n - 1; ++t) eliminate(a, b, m, t, async ? 1 : acc::async_sync);
      if (async) acc::wait(1);
    };
    rodinia::report(async ? "async" : "sync", rodinia::median_seconds(reset, run));
    acc::update_self(a);
    acc::update_self(b);
    const std::vector<float> x = back_substitution(a.data(), b.data(), n);
    // x is O(1) and the system well conditioned: only float rounding separates the two runs.
    double d = 0;
    for (int i = 0; i < n; ++i) d = std::fmax(d, std::fabs(double(x[i]) - ref[i]));
    if (!(d <= 1e-4)) {
      std::printf("gaussian: %s: max |x_acc - x_cpu| = %.3g\n", async ? "async" : "sync", d);
      ok = false;
    }
  }
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "gaussian: %s\n", e.what());
  return 1;
}
