// Shared by the OpenACC V&V translations (tests/vv): sizes, random inputs and the tolerance
// the V&V suite uses (its acc_testsuite.h: PRECISION 1e-8).
#pragma once

#include <acc/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace vv {
namespace {

/// Problem size of the translated tests (the V&V suite's default ARRAYSIZE is 100; a larger n
/// puts more iterations on each contended location).
inline constexpr int n = 1024;
inline constexpr double precision = 1e-8;

/// Deterministic per test, so a failure reproduces.
inline std::mt19937& rng() {
  static thread_local std::mt19937 gen(20240611u);
  return gen;
}
inline void reseed(unsigned s) { rng().seed(s); }

/// Uniform in [0, hi), as the suite's rand() / (RAND_MAX / hi).
inline double uniform(double hi = 10.0) { return std::uniform_real_distribution<double>(0.0, hi)(rng()); }

/// Integer with each of `bits` low bits set with probability p.
inline unsigned random_bits(int bits, double p) {
  unsigned v = 0;
  for (int y = 0; y < bits; ++y)
    if (std::bernoulli_distribution(p)(rng())) v |= 1u << y;
  return v;
}

/// |got - want| within precision relative to |want| (products grow large, quotients small), or
/// within rounding of zero where a sum cancels.
inline bool close(double got, double want, double tol = precision) {
  const double d = std::fabs(got - want);
  return d <= tol * std::fabs(want) || d <= 1e-13;
}

template <class T>
acc::array<T> filled(const char* name, const std::vector<T>& v) {
  acc::array<T> a(name, v.size());
  std::copy(v.begin(), v.end(), a.data());
  return a;
}

}  // namespace
}  // namespace vv

namespace vv {
namespace {

/// Whether compute constructs run on a device with memory of its own: only then can a test
/// see that data was not copied back (the suite's `devonly` tests probe this with a flag
/// written inside a present region).
inline bool separate_memory() { return acc::get_device_type() != acc::device_type::host; }

inline std::vector<double> random_vector(int count = n, double hi = 10.0) {
  std::vector<double> v(count);
  for (double& x : v) x = uniform(hi);
  return v;
}

}  // namespace
}  // namespace vv
