// Dense matrix product C = A * B as an OpenACC port writes it: rows over gangs, columns over
// workers, and the dot product over k as a vector reduction. The matrices stay present for
// every run (one acc::data region); verified against a sequential triple loop.
//
//   matmul [M = 200] [K = 300] [N = 250]   (defaults not multiples of 32: partial vectors)
#include <acc/parallel.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

// OpenACC: #pragma acc parallel num_workers(4) vector_length(32) default(present)
//          #pragma acc loop gang / loop worker / loop vector reduction(+:s)
void multiply(const acc::array<double, 2>& a, const acc::array<double, 2>& b, acc::array<double, 2>& c, int M,
              int K, int N) {
  acc::parallel(acc::num_workers(4), acc::vector_length(32), acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, M, [&](int i) {
      acc::loop(g, acc::worker, N, [&](int j) {
        const double s = acc::loop_reduce(g, acc::vector, K, acc::plus, [&](int k) { return a(i, k) * b(k, j); });
        // Every lane of the worker holds s; one store is enough.
        acc::single(g, acc::per_worker, [&] { c(i, j) = s; });
      });
    });
  });
}

}  // namespace

int main(int argc, char** argv) try {
  const int M = argc > 1 ? std::atoi(argv[1]) : 200;
  const int K = argc > 2 ? std::atoi(argv[2]) : 300;
  const int N = argc > 3 ? std::atoi(argv[3]) : 250;
  if (M < 1 || K < 1 || N < 1) {
    std::fprintf(stderr, "usage: matmul [M >= 1] [K >= 1] [N >= 1]\n");
    return 2;
  }

  acc::array<double, 2> a("a", M, K), b("b", K, N), c("c", M, N);
  // Mixed signs, so cancellation makes the reordered sums a real test of the tolerance.
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) a(i, k) = std::sin(0.37 * i + 0.11 * k) + 0.5;
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j) b(k, j) = std::cos(0.23 * k - 0.19 * j);

  double seconds = 0.0;
  {
    acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(c)};
    multiply(a, b, c, M, K, N);  // warm-up: first launch pays for module load and allocation
    const auto start = std::chrono::steady_clock::now();
    multiply(a, b, c, M, K, N);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }  // c copied out here

  std::vector<double> ref(std::size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j) ref[std::size_t(i) * N + j] += a(i, k) * b(k, j);

  // Relative to the sum of |terms|: the scale that bounds reordering error even where the
  // result itself cancels to near zero.
  long wrong = 0;
  double worst = 0.0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double scale = 0.0;
      for (int k = 0; k < K; ++k) scale += std::fabs(a(i, k) * b(k, j));
      const double err = std::fabs(c(i, j) - ref[std::size_t(i) * N + j]) / (scale > 0.0 ? scale : 1.0);
      worst = std::fmax(worst, err);
      wrong += !(err <= 1e-12);
    }

  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  const double gflops = 2.0 * M * K * N / seconds * 1e-9;
  std::printf("matmul: %dx%d * %dx%d on %s: %.4f s, %.2f GFLOP/s, max relative error %.3g: %s\n", M, K, K, N,
              gpu ? "nvidia" : "host", seconds, gflops, worst, wrong ? "FAILED" : "verified");
  if (wrong) std::printf("matmul: %ld elements differ from the sequential result\n", wrong);
  return wrong ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "matmul: %s\n", e.what());
  return 1;
}
