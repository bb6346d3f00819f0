// Level 10: the reduction clause on parallel_loop (OpenACC V&V-style cases): several variables
// of mixed types, the variables' own values folded in, collapse, every backend.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "support/buffer.hpp"

using acc_test::buffer;

namespace {
template <class... Clauses>
void sum_max_count(int n, const double* x, double& sum, double& mx, long& count, Clauses... clauses) {
  acc::parallel_loop(n, clauses..., acc::reduction(acc::plus, sum), acc::reduction(acc::maximum, mx),
                     acc::reduction(acc::plus, count), ACC_LAMBDA(int i, double& s, double& m, long& c) {
                       s += x[i];
                       m = m < x[i] ? x[i] : m;
                       if (x[i] > 0.5) ++c;
                     });
}
}  // namespace

TEST_CASE("reduction clauses of mixed types fold into the variables' values", "[10][reduction]") {
  const int n = GENERATE(0, 1, 31, 1000, 100003);
  buffer<double> x(n + 1);
  acc_test::fill_random(x, 17u, 0.0, 1.0);
  double sum = 2.5, mx = -1.0, esum = 2.5, emx = -1.0;
  long count = 7, ecount = 7;
  for (int i = 0; i < n; ++i) esum += x[i], emx = std::max(emx, x[i]), ecount += x[i] > 0.5;
  SECTION("default configuration") { sum_max_count(n, x.data(), sum, mx, count); }
  SECTION("few gangs and odd vectors") {
    sum_max_count(n, x.data(), sum, mx, count, acc::num_gangs(3), acc::vector_length(33));
  }
  SECTION("on the host") { sum_max_count(n, x.data(), sum, mx, count, acc::if_(false)); }
  REQUIRE(sum == Approx(esum).epsilon(1e-12));
  REQUIRE(mx == emx);
  REQUIRE(count == ecount);
}

namespace {
void collapse_sum(int ni, int nj, long long& s, int& bits) {
  acc::parallel_loop(acc::collapse(ni, nj), acc::reduction(acc::plus, s), acc::reduction(acc::bit_or, bits),
                     ACC_LAMBDA(int i, int j, long long& acc_s, int& b) {
                       acc_s += static_cast<long long>(i) * 1000 + j;
                       b |= 1 << ((i + j) % 31);
                     });
}
}  // namespace

TEST_CASE("reductions over collapsed loops", "[10][reduction]") {
  const auto [ni, nj] = GENERATE(table<int, int>({{1, 1}, {3, 7}, {64, 33}, {1000, 999}}));
  long long s = 0, es = 0;
  int bits = 0, ebits = 0;
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) es += static_cast<long long>(i) * 1000 + j, ebits |= 1 << ((i + j) % 31);
  collapse_sum(ni, nj, s, bits);
  REQUIRE(s == es);
  REQUIRE(bits == ebits);
}

TEST_CASE("a serial host reduction is the sequential loop to the bit", "[10][reduction]") {
  // Only the serial backend promises this (it updates the variable in order); OpenMP and GPUs
  // group the additions differently.
  const int n = 10007;
  buffer<float> x(n);
  acc_test::fill_random(x, 5u, -1.0f, 1.0f);
  float s = 0.25f, e = 0.25f;
  for (int i = 0; i < n; ++i) e += x[i];
  const float* p = x.data();
  acc::parallel_loop(n, acc::num_gangs(1), acc::if_(false), acc::reduction(acc::plus, s),
                     ACC_LAMBDA(int i, float& v) { v += p[i]; });
#if !defined(_OPENMP)
  REQUIRE(s == e);
#else
  REQUIRE(s == Approx(e).epsilon(1e-4));
#endif
}
