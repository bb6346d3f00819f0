//! @file The runtime's definitions of backend/host/tile_ops.hpp: the tile scratch and the
//! messages of acc::cache's and per_iteration's failures. Compiled with detail/runtime-inl.hpp,
//! which includes it.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_HOST_TILE_OPS_INL)
#define ACC_DETAIL_HOST_TILE_OPS_INL

#include <acc/backend/host/tile_ops.hpp>
#include <acc/detail/body_error.hpp>

#include <string>

namespace acc::detail::host {

ACC_DETAIL_RUNTIME_FN void* tile_scratch::take(std::size_t bytes, std::size_t& taken) {
  if (next == slots.size()) slots.emplace_back();
  taken = next;
  slot& s = slots[next++];
  s.live = true;
  const std::size_t words = (bytes + sizeof(aligned_word) - 1) / sizeof(aligned_word);
  if (s.words.size() < words) s.words.assign(words, aligned_word{});
  return s.words.data();
}

ACC_DETAIL_RUNTIME_FN void tile_ops::cache_index_error(const char* label, std::size_t dim, long long index,
                                                       long long lo, long long hi) {
  throw body_error<error>("index " + std::to_string(index) + " of dimension " + std::to_string(dim) + " of " +
                          (label && label[0] ? "'" + std::string(label) + "'" : std::string("a cached array")) +
                          " is outside its cached range [" + std::to_string(lo) + ", " + std::to_string(hi) + ")");
}

// body_error: the tile_loop's executor puts the construct and the user's line before these.
ACC_DETAIL_RUNTIME_FN void tile_ops::iteration_rank_error(std::size_t given, int rank) {
  throw body_error<error>("acc::per_iteration: " + std::to_string(given) + (given == 1 ? " index" : " indices") +
                          " in a tile of rank " + std::to_string(rank) + "; give one index per dimension of the tile" +
                          (rank == 1 ? ", p(i)" : rank == 2 ? ", p(i, j)" : ", p(i, j, k)"));
}

ACC_DETAIL_RUNTIME_FN void tile_ops::cache_bad_range(long long a, long long b) {
  throw body_error<bad_clause>("acc::cache: a range is negative (halo before/after or fixed count: " +
                               std::to_string(a) + ", " + std::to_string(b) + ")");
}

ACC_DETAIL_RUNTIME_FN void tile_ops::cache_in_tile_for() {
  throw body_error<error>("acc::cache: called inside acc::tile_for; acc::cache is tile-level code that every thread "
                          "of the gang runs: call it before the tile_for and read its view inside");
}

ACC_DETAIL_RUNTIME_FN void tile_ops::tile_level_in_tile_for(const char* what) {
  throw body_error<error>(std::string(what) + ": called inside acc::tile_for; it is tile-level code that every "
                          "thread of the gang runs: call it after the tile_for returns");
}

ACC_DETAIL_RUNTIME_FN void tile_ops::cache_overflow(std::size_t bytes, std::size_t used, std::size_t total) {
  throw body_error<bad_clause>("acc::cache: a view of " + std::to_string(bytes) + " bytes takes " +
                               std::to_string(tile_access::cache_taken(bytes)) +
                               " (each view starts on 16 bytes), but " +
                               std::to_string(used) + " of the " + std::to_string(total) +
                               " bytes that acc::cache_bytes gave the tile_loop are taken already");
}

}  // namespace acc::detail::host

#endif
