//! @file Host backend of parallel_loop: OpenMP threads when compiled with OpenMP, else a plain loop.
#pragma once

#include <acc/backend/host/backend.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <algorithm>
#include <cstdint>
#include <exception>

#if defined(ACC_DETAIL_OPENMP)
#  include <omp.h>
#endif

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// Threads for a construct: gangs become threads (OpenACC's multicore mapping), capped by
/// what OpenMP would use anyway; num_gangs(1) therefore runs on the calling thread.
inline int thread_count([[maybe_unused]] int num_gangs) {
#if defined(ACC_DETAIL_OPENMP)
  int n = omp_get_max_threads();
  return num_gangs > 0 ? std::min(num_gangs, n) : n;
#else
  return 1;
#endif
}

/// The first exception thrown by any thread of a construct: an exception may not leave an
/// OpenMP region, so each thread keeps it here (from inside its catch block) and the construct
/// rethrows it once the region has ended.
class first_error {
public:
  void keep() noexcept {
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp critical(acc_first_error)
#endif
    if (!error_) error_ = std::current_exception();
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

private:
  std::exception_ptr error_;
};

// The loops are written as the user's own sequential loops over Index, so the compiler sees
// what it would see without acc (same vectorisation, same bounds reasoning); the counts came
// from Index values, so lo + count and each extent fit in Index.

template <class Index, class Body>
void run_loop(const index_space<Index, 1>& s, int num_gangs, const Body& body) {
  const Index lo = s.lo[0], hi = index_at(lo, s.count[0]);
  [[maybe_unused]] const int threads = thread_count(num_gangs);
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
#endif
  for (Index i = lo; i < hi; ++i) body(i);
}

template <class Index, class Body>
void run_loop(const index_space<Index, 2>& s, int num_gangs, const Body& body) {
  const Index n0 = static_cast<Index>(s.count[0]), n1 = static_cast<Index>(s.count[1]);
  [[maybe_unused]] const int threads = thread_count(num_gangs);
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp parallel for collapse(2) schedule(static) num_threads(threads) if (threads > 1)
#endif
  for (Index i = 0; i < n0; ++i)
    for (Index j = 0; j < n1; ++j) body(i, j);
}

template <class Index, class Body>
void run_loop(const index_space<Index, 3>& s, int num_gangs, const Body& body) {
  const Index n0 = static_cast<Index>(s.count[0]), n1 = static_cast<Index>(s.count[1]),
              n2 = static_cast<Index>(s.count[2]);
  [[maybe_unused]] const int threads = thread_count(num_gangs);
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp parallel for collapse(3) schedule(static) num_threads(threads) if (threads > 1)
#endif
  for (Index i = 0; i < n0; ++i)
    for (Index j = 0; j < n1; ++j)
      for (Index k = 0; k < n2; ++k) body(i, j, k);
}

/// parallel_loop on the host.
template <class Space, class Body>
void run(backend, const loop_task<Space>& task, const Body& body, const launch_context& ctx) {
  run_loop(task.space, ctx.spec.num_gangs, body);
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
