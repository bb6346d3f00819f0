//! @file Tile-level code, tile_loop's second body form: the tile handle acc::tile_t, and
//! acc::tile_for, acc::tile_barrier and acc::per_iteration, which such a body calls.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/array.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/tile_ops.hpp>
#include <acc/detail/tile_state.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace acc {

/// What a tile-level body receives (tile_loop form 2): which iterations this tile holds, and
/// its share of shared memory for acc::cache. Every thread of the gang has its own copy and
/// makes the same calls (tile-level code is uniform, as OpenACC's gang-redundant code).
/// Not copyable: take it as `const acc::tile_t<R>&` (or `const acc::tile_t<R, long>&` for
/// an extent of type long).
template <std::size_t Rank, class Index = int>
class tile_t {
public:
  using index_type = Index;
  static constexpr std::size_t rank() noexcept { return Rank; }

  /// First iteration index of the tile in dimension d.
  ACC_DETAIL_HD Index origin(std::size_t d = 0) const noexcept { return origin_[d]; }
  /// The tile shape in dimension d (tile_size).
  ACC_DETAIL_HD int size(std::size_t d = 0) const noexcept { return shape_[d]; }
  /// Iterations of this tile inside the extent in dimension d (less than size(d) at the edge).
  ACC_DETAIL_HD int count(std::size_t d = 0) const noexcept { return count_[d]; }
  /// This tile's number, row-major over the tiles (last dimension fastest), and how many there are.
  ACC_DETAIL_HD std::uint64_t tile_num() const noexcept { return num_; }
  ACC_DETAIL_HD std::uint64_t num_tiles() const noexcept { return total_; }
  /// Whether this tile holds iteration (i[, j[, k]]).
  template <class... I>
  ACC_DETAIL_HD bool contains(I... i) const noexcept {
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    for (std::size_t d = 0; d < Rank; ++d) {
      const std::int64_t o = static_cast<std::int64_t>(origin_[d]);
      if (idx[d] < o || idx[d] >= o + count_[d]) return false;
    }
    return true;
  }

  // Made by the backends only: tile `num` of geometry g.
  ACC_DETAIL_HD tile_t(const detail::tile_geometry<Index, Rank>& g, std::uint64_t num, unsigned char* cache,
                       std::size_t cache_bytes, detail::host::tile_scratch* scratch) noexcept
      : num_(num), total_(g.total), cache_(cache), cache_bytes_(cache_bytes), scratch_(scratch) {
    std::uint64_t rest = num;
    // 32-bit division whenever the tile count allows (64-bit division is slow on GPUs).
    const bool narrow = g.total <= 0xffffffffu;
    for (std::size_t k = Rank; k-- > 0;) {
      std::uint64_t t = rest;
      if constexpr (Rank > 1) {
        if (narrow) {
          const unsigned r = static_cast<unsigned>(rest), n = static_cast<unsigned>(g.tiles[k]);
          t = r % n;
          rest = r / n;
        } else {
          t = rest % g.tiles[k];
          rest = rest / g.tiles[k];
        }
      }
      const std::uint64_t first = t * std::uint64_t(g.shape[k]);
      origin_[k] = detail::index_at(g.lo[k], first);
      shape_[k] = g.shape[k];
      const std::uint64_t left = g.count[k] - first;
      count_[k] = left < std::uint64_t(g.shape[k]) ? static_cast<int>(left) : g.shape[k];
    }
  }
  // Made by the CUDA backend's one-gang-per-tile launch: the tile at coordinates coord[d] (the
  // block's), when the host has checked that counts, origins and tile ends fit in 32 bits.
  ACC_DETAIL_HD tile_t(const detail::tile_geometry<Index, Rank>& g, const unsigned* coord, unsigned char* cache,
                       std::size_t cache_bytes) noexcept
      : total_(g.total), cache_(cache), cache_bytes_(cache_bytes) {
    std::uint64_t num = 0;
    for (std::size_t k = 0; k < Rank; ++k) {
      num = num * g.tiles[k] + coord[k];
      const unsigned first = coord[k] * static_cast<unsigned>(g.shape[k]);
      origin_[k] = detail::index_at(g.lo[k], first);
      shape_[k] = g.shape[k];
      const unsigned left = static_cast<unsigned>(g.count[k]) - first;
      count_[k] = left < static_cast<unsigned>(g.shape[k]) ? static_cast<int>(left) : g.shape[k];
    }
    num_ = num;
  }
  tile_t(const tile_t&) = delete;
  tile_t& operator=(const tile_t&) = delete;

private:
  friend struct detail::tile_access;
  Index origin_[Rank] = {};
  int shape_[Rank] = {};
  int count_[Rank] = {};
  std::uint64_t num_ = 0, total_ = 0;
  unsigned char* cache_ = nullptr;  // acc::cache's area (device shared memory; unused on the host)
  std::size_t cache_bytes_ = 0;
  mutable std::size_t cache_used_ = 0;
  mutable bool cache_reuse_ = false;   // set by tile_for: the next acc::cache starts the area again
  mutable bool load_pending_ = false;  // acc::cache loaded without waiting: the next tile_for waits
  mutable bool in_tile_for_ = false;   // inside a tile_for's function, where acc::cache is a mistake
  detail::host::tile_scratch* scratch_ = nullptr;
};

/// A value per iteration of a tile that lives across acc::tile_for calls of tile-level code
/// (a register on a GPU, where each thread runs one iteration; an array of size() elements on
/// the host). Starts value-initialised, or at `init`. Index it with the iteration's indices:
/// e.g. acc::per_iteration<float> sum(t); acc::tile_for(t, [&](int i) { sum(i) += x[i]; });
template <class T>
class per_iteration {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "acc::per_iteration: T must be a trivially copyable, default-constructible type");
  static_assert(alignof(T) <= detail::team_alignment,
                "acc::per_iteration: T is aligned to more than 16 bytes, which team memory does not guarantee");

public:
  template <std::size_t R, class I>
  ACC_DETAIL_HD explicit per_iteration(const tile_t<R, I>& t, const T& init = T{}) : reg_(init), rank_(R) {
    detail::tile_ops::iteration_storage(t, init, host_);
  }
  /// Gives the host's array back, so that a per_iteration declared in a loop takes no more
  /// memory at each step.
  ACC_DETAIL_HD ~per_iteration() { detail::tile_ops::release_iteration_storage(host_); }
  per_iteration(const per_iteration&) = delete;
  per_iteration& operator=(const per_iteration&) = delete;

  /// This iteration's value; call it with the indices tile_for gave, one per dimension of the
  /// tile (else acc::error on the host, a message and a trap on a GPU: the type does not carry
  /// the tile's rank, so the check is at run time).
  template <class... I>
  ACC_DETAIL_HD T& operator()(I... i) const {
    static_assert(detail::all_integral_v<I...>, "acc::per_iteration: index with the iteration's integer indices");
    static_assert(sizeof...(I) >= 1 && sizeof...(I) <= 3,
                  "acc::per_iteration: give one index per dimension of the tile, p(i), p(i, j) or p(i, j, k)");
    if (sizeof...(I) != static_cast<std::size_t>(rank_)) detail::tile_ops::iteration_rank_error(sizeof...(I), rank_);
    return detail::tile_ops::iteration_value(reg_, host_, i...);
  }

private:
  mutable T reg_;
  int rank_;  // the tile's
  detail::per_iteration_array<T> host_;
};

/// Runs f(i[, j[, k]]) for each of the tile's iterations inside the extent (on a GPU: each
/// thread its own iteration; on the host: all of them in order), then a tile barrier, so
/// channel writes made in f are visible afterwards. From tile-level code only (every thread
/// of the gang must reach it).
template <std::size_t R, class I, class F>
ACC_DETAIL_HD void tile_for(const tile_t<R, I>& t, const F& f) {
  static_assert(detail::invocable_with_rank_v<F, I, R>,
                "acc::tile_for: the function must take one index per dimension of the tile, e.g. [&](int i, int j) { ... }");
  if (detail::tile_access::in_tile_for(t)) detail::tile_ops::tile_level_in_tile_for("acc::tile_for");
  detail::tile_ops::check_cache_room(t);
  if (detail::tile_access::take_load_pending(t)) detail::tile_ops::sync();  // acc::cache's loads are complete
  detail::tile_access::set_in_tile_for(t, true);
  detail::tile_ops::for_tile_iterations(t, f);
  detail::tile_access::set_in_tile_for(t, false);
  detail::tile_ops::sync();
  detail::tile_access::mark_loop_end(t);
}

/// Waits until every thread of the tile's gang reaches it; shared-memory (channel) writes
/// made before are then visible to all. A no-op on the host, where a tile's iterations run in
/// order. From tile-level code only.
template <std::size_t R, class I>
ACC_DETAIL_HD void tile_barrier(const tile_t<R, I>& t) {
  if (detail::tile_access::in_tile_for(t)) detail::tile_ops::tile_level_in_tile_for("acc::tile_barrier");
  detail::tile_ops::check_cache_room(t);
  detail::tile_access::take_load_pending(t);
  detail::tile_ops::sync();
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
