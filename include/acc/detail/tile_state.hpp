//! @file What a tile is made of below the public tile_t and per_iteration: the tiling of the
//! extent, per_iteration's host array, and the library's access to tile_t's private state (for
//! the backends, which see tile_t only declared).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>
#include <acc/detail/tile_fwd.hpp>

#include <cstddef>
#include <cstdint>

namespace acc::detail {

namespace host {
struct tile_scratch;  // backend/host/tile_ops.hpp
}

/// The tiling of an extent: Rank loops of count[d] iterations from lo[d], in tiles of shape[d].
template <class Index, std::size_t R>
struct tile_geometry {
  Index lo[R];
  std::uint64_t count[R];
  int shape[R];
  std::uint64_t tiles[R];
  std::uint64_t total;
};

/// per_iteration's storage on the host, where one thread runs all of a tile's iterations: an
/// array over the tile's shape (row-major from `origin`), slot `slot` of the thread's scratch.
/// Unused on a GPU.
template <class T>
struct per_iteration_array {
  T* values = nullptr;
  std::int64_t origin[3] = {}, stride[3] = {}, shape[3] = {};
  host::tile_scratch* scratch = nullptr;
  std::size_t slot = 0;
};

/// The library's access to tile_t's private state.
struct tile_access {
  template <std::size_t R, class I>
  ACC_DETAIL_HD static host::tile_scratch* scratch(const tile_t<R, I>& t) noexcept { return t.scratch_; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static void mark_loop_end(const tile_t<R, I>& t) noexcept { t.cache_reuse_ = true; }
  /// Whether the code running is a tile_for's function (per iteration), not tile-level code.
  template <std::size_t R, class I>
  ACC_DETAIL_HD static void set_in_tile_for(const tile_t<R, I>& t, bool in) noexcept { t.in_tile_for_ = in; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static bool in_tile_for(const tile_t<R, I>& t) noexcept { return t.in_tile_for_; }
  /// acc::cache defers its barrier to the next tile_for or tile_barrier, so that several
  /// acc::cache calls in a row cost one barrier.
  template <std::size_t R, class I>
  ACC_DETAIL_HD static void set_load_pending(const tile_t<R, I>& t) noexcept { t.load_pending_ = true; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static bool take_load_pending(const tile_t<R, I>& t) noexcept {
    const bool p = t.load_pending_;
    t.load_pending_ = false;
    return p;
  }
  /// Room for `bytes` of acc::cache (16-byte aligned) at byte `at` of the area; false when
  /// it does not fit. (An offset, not a pointer with a null case: on a GPU the pointer must be
  /// visibly derived from shared memory, or the compiler emits generic loads.) What happens to
  /// a view that does not fit is the backend's (Ops::take_room).
  /// The bytes a view of `bytes` takes of the area: each starts on 16 bytes.
  ACC_DETAIL_HD static constexpr std::size_t cache_taken(std::size_t bytes) noexcept { return (bytes + 15) / 16 * 16; }
  template <class Ops, std::size_t R, class I>
  ACC_DETAIL_HD static bool take_cache(const tile_t<R, I>& t, std::size_t bytes, std::size_t& at) noexcept {
    if (t.cache_reuse_) {
      t.cache_used_ = 0;
      t.cache_reuse_ = false;
    }
    at = t.cache_used_;
    return Ops::take_room(t.cache_used_, cache_taken(bytes), t.cache_bytes_);
  }
  /// Whether acc::cache calls since the area was last started asked more than it holds.
  template <std::size_t R, class I>
  ACC_DETAIL_HD static bool overflowed(const tile_t<R, I>& t) noexcept {
    return t.cache_used_ > 0xffffffffu || static_cast<unsigned>(t.cache_used_) > static_cast<unsigned>(t.cache_bytes_);
  }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static std::size_t cache_used(const tile_t<R, I>& t) noexcept { return t.cache_used_; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static unsigned char* cache_area(const tile_t<R, I>& t) noexcept { return t.cache_; }
  template <std::size_t R, class I>
  ACC_DETAIL_HD static std::size_t cache_bytes(const tile_t<R, I>& t) noexcept { return t.cache_bytes_; }
};

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
