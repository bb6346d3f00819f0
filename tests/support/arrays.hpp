//! @file Helpers for tests whose data reach compute constructs as acc::array / acc::view.
// Captured arrays and views take the user's data path (implicit copy per construct, or the
// present copy inside an acc::data region), unlike acc_test::buffer's managed memory.
#pragma once

#include <acc/parallel.hpp>

#include <cstddef>
#include <random>
#include <type_traits>
#include <vector>

namespace acc_test {

/// A rank-1 acc::array of n elements, each `fill`.
template <class T>
acc::array<T> filled(std::size_t n, T fill) {
  acc::array<T> a(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = fill;
  return a;
}

/// The host copy of a rank-1 array or view, element by element.
template <class A>
auto to_vector(const A& a) {
  using T = std::remove_cv_t<std::remove_reference_t<decltype(a[0])>>;
  return std::vector<T>(a.data(), a.data() + a.size());
}

/// Random values in [lo, hi] in host memory, the same sequence for a given seed (as
/// acc_test::fill_random for buffers).
template <class T>
void fill_random(T* p, std::size_t n, unsigned seed, T lo = T(-100), T hi = T(100)) {
  std::mt19937_64 gen(seed);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (std::size_t i = 0; i < n; ++i) p[i] = d(gen);
  } else {
    std::uniform_int_distribution<long long> d(static_cast<long long>(lo), static_cast<long long>(hi));
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(d(gen));
  }
}

template <class T>
void fill_random(const acc::array<T>& a, unsigned seed, T lo = T(-100), T hi = T(100)) {
  fill_random(a.data(), a.size(), seed, lo, hi);
}

template <class T>
void fill_random(std::vector<T>& v, unsigned seed, T lo = T(-100), T hi = T(100)) {
  fill_random(v.data(), v.size(), seed, lo, hi);
}

}  // namespace acc_test
