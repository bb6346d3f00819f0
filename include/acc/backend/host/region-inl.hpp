//! @file The runtime's definitions of backend/host/region.hpp: gang-shared memory on the host.
//! Compiled with detail/runtime-inl.hpp, which includes it.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_HOST_REGION_INL)
#define ACC_DETAIL_HOST_REGION_INL

#include <acc/backend/host/backend.hpp>
#include <acc/detail/body_error.hpp>
#include <acc/error.hpp>

#include <exception>
#include <string>
#include <vector>

namespace acc::detail::host {

ACC_DETAIL_RUNTIME_FN std::vector<aligned_word> gang_memory(std::size_t bytes) {
  if (bytes == 0) return {};
  try {
    return std::vector<aligned_word>((bytes + sizeof(aligned_word) - 1) / sizeof(aligned_word));
  } catch (const std::exception&) {  // bad_alloc, or length_error past what a vector holds
    throw body_error<bad_clause>("shared_bytes(" + std::to_string(bytes) +
                                 "): the host cannot allocate that much gang-shared memory for a thread");
  }
}

}  // namespace acc::detail::host

#endif
