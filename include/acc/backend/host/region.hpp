//! @file Host backend of acc::parallel: gangs are OpenMP threads (or one after another), each
//! run by one thread, so worker and vector loops are plain loops there.
#pragma once

#include <acc/detail/config.hpp>

#include <acc/backend/host/loop.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/gang.hpp>

#include <cstddef>
#include <exception>
#include <memory>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

template <class Body>
void run_region(const launch_spec& spec, const Body& body) {
  const int gangs = spec.num_gangs ? spec.num_gangs : thread_count(0);
  const int workers = spec.num_workers ? spec.num_workers : 1;
  const int vector = spec.vector_length ? spec.vector_length : 1;
  const std::size_t shared = spec.shared_bytes;
  [[maybe_unused]] const int threads = thread_count(gangs);
  // An exception may not leave an OpenMP region: the first one is kept and rethrown.
  std::exception_ptr error;
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
#endif
  for (int gang = 0; gang < gangs; ++gang) {
    try {
      auto memory = std::make_unique<std::max_align_t[]>((shared + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
      const gang_t g(gang, gangs, workers, vector, reinterpret_cast<unsigned char*>(memory.get()), shared);
      body(g);
    } catch (...) {
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp critical(acc_region_error)
#endif
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
