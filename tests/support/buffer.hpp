//! @file Test memory that compute constructs may touch on whichever device they run on.
// GPU runs need memory that both the host reference and the
// kernels can read: managed memory when the current device is a GPU, plain memory otherwise.
#pragma once

#include <acc/parallel.hpp>

#include <atomic>
#include <cstddef>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#if defined(__CUDACC__)
#  include <cuda_runtime.h>
#endif

namespace acc_test {

/// True when called inside a kernel: tells a test where a construct actually ran.
ACC_ROUTINE inline bool on_device() {
#if defined(__CUDA_ARCH__)
  return true;
#else
  return false;
#endif
}

/// *p += 1 atomically, from kernels and from host threads (OpenMP gangs).
ACC_ROUTINE inline void atomic_inc(int* p) {
#if defined(__CUDA_ARCH__)
  atomicAdd(p, 1);
#else
  std::atomic_ref<int>(*p).fetch_add(1);
#endif
}

inline bool gpu_run() { return acc::get_device_type() == acc::device_type::nvidia; }

template <class T>
class buffer {
public:
  explicit buffer(std::size_t n, T fill = T{}) : n_(n) {
#if defined(__CUDACC__)
    managed_ = gpu_run();
    if (managed_) {
      // Whole 4-byte words, as acc's own allocations: atomics on 1- and 2-byte elements swap
      // the aligned word that holds them.
      const std::size_t bytes = ((n ? n : 1) * sizeof(T) + 3) / 4 * 4;
      if (cudaMallocManaged(&p_, bytes) != cudaSuccess)
        throw std::runtime_error("acc_test::buffer: cudaMallocManaged failed");
    }
#endif
    if (!managed_) p_ = new T[n ? n : 1];
    for (std::size_t i = 0; i < n; ++i) p_[i] = fill;
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() {
#if defined(__CUDACC__)
    if (managed_) {
      cudaFree(p_);
      return;
    }
#endif
    delete[] p_;
  }
  T* data() const { return p_; }
  std::size_t size() const { return n_; }
  T& operator[](std::size_t i) const { return p_[i]; }
  std::vector<T> to_vector() const { return std::vector<T>(p_, p_ + n_); }

private:
  T* p_ = nullptr;
  std::size_t n_;
  bool managed_ = false;
};

/// Random values in [lo, hi], the same sequence for a given seed.
template <class T>
void fill_random(buffer<T>& b, unsigned seed, T lo = T(-100), T hi = T(100)) {
  std::mt19937_64 gen(seed);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = d(gen);
  } else {
    std::uniform_int_distribution<long long> d(static_cast<long long>(lo), static_cast<long long>(hi));
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<T>(d(gen));
  }
}

}  // namespace acc_test
