//! @file Shared pieces of the OpenACC V&V translations: sizes, tolerances and random data as
//! the suite's acc_testsuite.h defines them, and an element-wise operator for array reductions.
#pragma once

#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>

// The helpers are in an unnamed namespace: a function template holding an ACC_LAMBDA that
// two .cu files instantiate alike would otherwise be one function at link time, while nvcc
// keeps the lambda wrapper's call table per file (docs/porting.md, "Pitfalls").
namespace vv {
namespace {

/// ARRAYSIZE and PRECISION of the suite's acc_testsuite.h.
inline constexpr int n = 100;
inline constexpr double precision = 1e-8;

/// The suite's `rand() / (real_t)(RAND_MAX / hi)`: uniform in [0, hi).
inline double uniform(std::mt19937& gen, double hi = 1.0) {
  return std::uniform_real_distribution<double>(0.0, hi)(gen);
}

/// The suite's `false_margin = pow(exp(1), log(.5) / n)`: the chance each of n draws must beat
/// so that all n succeed with probability one half.
inline double false_margin(int count) { return std::exp(std::log(0.5) / count); }

/// 16 bits, each set with probability p (the suite's bit-reduction inputs).
inline unsigned bits16(std::mt19937& gen, double p) {
  unsigned v = 0;
  for (int y = 0; y < 16; ++y)
    if (uniform(gen) < p) v += 1u << y;
  return v;
}

/// Whether the current device has memory of its own, so that a copy that is not copied back
/// leaves the host's values alone (the suite's `hasDevice` probe).
inline bool separate_memory() { return acc::get_device_type() == acc::device_type::nvidia; }

/// Equality for integers; for floating types the suite's `fabs(d - h) > PRECISION * ops`,
/// relative to the magnitude where it exceeds one.
template <class T>
bool same(T dev, T host, double ops = 1.0) {
  if constexpr (std::is_floating_point_v<T>)
    return std::abs(double(dev) - double(host)) <= precision * ops * std::max(1.0, std::abs(double(host)));
  else
    return dev == host;
}

/// K reduction variables reduced together: OpenACC's array reduction `reduction(op:c[0:K])`.
template <class T, int K>
struct slots {
  T v[K];
};

/// Applies op slot by slot; its identity is op's in every slot.
template <class Op, class T, int K>
struct each_t {
  Op op;
  ACC_ROUTINE slots<T, K> operator()(const slots<T, K>& a, const slots<T, K>& b) const {
    slots<T, K> r;
    for (int k = 0; k < K; ++k) r.v[k] = op(a.v[k], b.v[k]);
    return r;
  }
  ACC_ROUTINE slots<T, K> identity() const {
    slots<T, K> r;
    for (int k = 0; k < K; ++k) r.v[k] = Op::template identity<T>();
    return r;
  }
};

}  // namespace
}  // namespace vv
