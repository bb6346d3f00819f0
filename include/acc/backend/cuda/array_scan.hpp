//! @file inclusive_scan / exclusive_scan of device arrays in one pass: each block scans one
//! tile of block x items elements and takes its prefix by decoupled look-back (lookback.hpp);
//! the algorithm of CUB's DeviceScan, with its sm90 tunings (tuning.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/block_exchange.hpp>
#include <acc/backend/cuda/block_scan.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/lookback.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/error.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace acc::detail::cuda {

/// The policy of a scan accumulating V with Op (CUB tunes plus, minimum and maximum).
template <class V, class Op>
using array_scan_policy_of =
    array_scan_policy<int(sizeof(V)), std::is_arithmetic_v<V>, std::is_floating_point_v<V>,
                      std::is_same_v<Op, plus_t> || std::is_same_v<Op, minimum_t> || std::is_same_v<Op, maximum_t>>;

/// One tile: loads (each warp reads its segment striped, coalesced, then rearranges it to
/// blocked order in shared memory), converts to V, scans (tile 0 alone; the others with their
/// look-back prefix), stores the same way back. Out-of-range items of the last tile repeat
/// the tile's first element: they are combined but never stored.
template <bool Exclusive, int Block, int Items, class Delay, class T, class V, class Op, class Count, class State>
__global__ void __launch_bounds__(Block)
    array_scan_tiles(const T* in, V* out, Count n, Op op, V init, State state) {
  using exchange_t = block_exchange<V, Block, Items>;
  using scan_t = block_scan<V, Block>;
  using prefix_t = tile_prefix<V, Op, State, Delay>;
  constexpr int tile_items = Block * Items;
  __shared__ union {
    typename exchange_t::storage exchange;
    struct {
      typename scan_t::storage scan;
      typename prefix_t::storage prefix;
    } scan;
  } temp;

  const int tile = int(blockIdx.x);
  const Count offset = Count(tile) * Count(tile_items);
  const Count remaining = n - offset;
  const bool last = remaining <= Count(tile_items);
  const int valid = last ? int(remaining) : tile_items;
  // This thread's first position in its warp's segment of the tile.
  const int base = int(threadIdx.x) / warp_size * warp_size * Items + lane_id();
  const T* tile_in = in + offset;
  V* tile_out = out + offset;

  V items[Items];
  if (!last) {
#pragma unroll
    for (int k = 0; k < Items; ++k) items[k] = static_cast<V>(tile_in[base + k * warp_size]);
  } else {
    const V fill = static_cast<V>(tile_in[0]);
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const int at = base + k * warp_size;
      items[k] = at < valid ? static_cast<V>(tile_in[at]) : fill;
    }
  }
  exchange_t(temp.exchange).warp_striped_to_blocked(items);
  __syncthreads();

  scan_t scan(temp.scan.scan);
  if (tile == 0) {
    V aggregate;
    if constexpr (Exclusive) {
      scan.exclusive_scan(items, init, op, aggregate);
      aggregate = op(init, aggregate);
    } else {
      scan.inclusive_scan(items, op, aggregate);
    }
    if (!last && threadIdx.x == 0) state.set_inclusive(0, aggregate);
  } else {
    prefix_t prefix(state, temp.scan.prefix, op, tile);
    if constexpr (Exclusive) scan.exclusive_scan_with(items, op, prefix);
    else scan.inclusive_scan_with(items, op, prefix);
  }
  __syncthreads();

  exchange_t(temp.exchange).blocked_to_warp_striped(items);
  if (!last) {
#pragma unroll
    for (int k = 0; k < Items; ++k) tile_out[base + k * warp_size] = items[k];
  } else {
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const int at = base + k * warp_size;
      if (at < valid) tile_out[at] = items[k];
    }
  }
}

/// Readies the look-back's descriptors of `tiles` tiles.
template <class State>
__global__ void init_tile_state(State state, int tiles) {
  state.initialize(tiles);
}

/// A scan of n > 0 elements of device memory: in (converted to V) to out (may be in), with
/// op, from init when Exclusive. Needs bytes(n) of device scratch, 256-byte aligned.
template <bool Exclusive, class T, class V, class Op>
struct array_scan {
  using policy = array_scan_policy_of<V, Op>;
  using state_t = tile_state<V>;
  static constexpr int tile_items = policy::block * policy::items;

  static int tiles_of(std::uint64_t n, const call_site& site) {
    const std::uint64_t tiles = (n + tile_items - 1) / tile_items;
    if (tiles > std::uint64_t(std::numeric_limits<int>::max()))
      fail<bad_clause>(site, "a scan of " + std::to_string(n) + " elements: at most " +
                                 std::to_string(std::uint64_t(std::numeric_limits<int>::max()) * tile_items) +
                                 " are supported");
    return static_cast<int>(tiles);
  }

  static std::size_t bytes(std::uint64_t n, const call_site& site) { return state_t::bytes(tiles_of(n, site)); }

  /// 32-bit positions while every position fits.
  static void run(void* scratch, const T* in, V* out, std::uint64_t n, const V& init, const Op& op,
                  cudaStream_t stream, const call_site& site) {
    if (n <= std::uint64_t(std::numeric_limits<int>::max()))
      run_with<std::uint32_t>(scratch, in, out, n, init, op, stream, site);
    else
      run_with<std::uint64_t>(scratch, in, out, n, init, op, stream, site);
  }

private:
  template <class Count>
  static void run_with(void* scratch, const T* in, V* out, std::uint64_t n, const V& init, const Op& op,
                       cudaStream_t stream, const call_site& site) {
    const int tiles = tiles_of(n, site);
    const state_t state(scratch, tiles);
    launch(&init_tile_state<state_t>, {unsigned((tiles + 127) / 128), 128u}, 0, stream, site, state, tiles);
    using delay = lookback_delay<policy::spin, policy::start>;
    launch(&array_scan_tiles<Exclusive, policy::block, policy::items, delay, T, V, Op, Count, state_t>,
           {unsigned(tiles), unsigned(policy::block)}, 0, stream, site, in, out, Count(n), op, init, state);
  }
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
