//! @file Rearranging a tile of Block x Items values between threads through shared memory.
//! Arrangements, for item k of thread t (warp w, lane l):
//! - striped: tile position k * Block + t (a warp's accesses are consecutive: coalesced);
//! - blocked: t * Items + k (a thread's items are consecutive: what a scan wants);
//! - warp-striped: w * 32 * Items + k * 32 + l (striped within each warp's own segment, so that
//!   a warp needs only __syncwarp to rearrange its part).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/raw_storage.hpp>
#include <acc/backend/cuda/warp.hpp>

#include <cstddef>

namespace acc::detail::cuda {

/// A thread's Items values, as a parameter takes them by reference. The bound is converted
/// explicitly: g++, which sees device functions' signatures in nvcc's host pass, takes an int
/// template parameter as an array bound for a sign conversion. Items is not deduced through it.
template <class T, int Items>
using thread_items = T[std::size_t(Items)];

/// Block threads (a multiple of 32) of Items values each; one storage per block.
/// - Block-wide moves (striped <-> blocked) synchronise the block between writing and reading;
///   warp-wide moves the warp. Neither synchronises after reading: synchronise before the
///   storage is written again (or reused for something else).
/// - With a power-of-two Items above 4, blocked accesses of a warp would all hit one shared
///   memory bank (a stride of Items words); one padding slot every 32 spreads them, as CUB's
///   BlockExchange does for the same Items.
template <class T, int Block, int Items>
class block_exchange {
  static_assert(Block % warp_size == 0, "acc: block primitives need whole warps");
  static constexpr bool padded = Items > 4 && (Items & (Items - 1)) == 0;
  static constexpr int tile = Block * Items;

  static __device__ int slot(int i) { return padded ? i + (i >> 5) : i; }

public:
  struct storage {
    raw_storage<T, tile + (padded ? tile / 32 : 0)> slots;
  };

  __device__ explicit block_exchange(storage& s) : s_(s) {}

  __device__ void striped_to_blocked(thread_items<T, Items>& items) {
    const int t = threadIdx.x;
#pragma unroll
    for (int k = 0; k < Items; ++k) s_.slots[slot(k * Block + t)] = items[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Items; ++k) items[k] = s_.slots[slot(t * Items + k)];
  }

  __device__ void blocked_to_striped(thread_items<T, Items>& items) {
    const int t = threadIdx.x;
#pragma unroll
    for (int k = 0; k < Items; ++k) s_.slots[slot(t * Items + k)] = items[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Items; ++k) items[k] = s_.slots[slot(k * Block + t)];
  }

  __device__ void warp_striped_to_blocked(thread_items<T, Items>& items) {
    const int base = int(threadIdx.x) / warp_size * warp_size * Items, lane = lane_id();
#pragma unroll
    for (int k = 0; k < Items; ++k) s_.slots[slot(base + k * warp_size + lane)] = items[k];
    __syncwarp();
#pragma unroll
    for (int k = 0; k < Items; ++k) items[k] = s_.slots[slot(base + lane * Items + k)];
  }

  __device__ void blocked_to_warp_striped(thread_items<T, Items>& items) {
    const int base = int(threadIdx.x) / warp_size * warp_size * Items, lane = lane_id();
#pragma unroll
    for (int k = 0; k < Items; ++k) s_.slots[slot(base + lane * Items + k)] = items[k];
    __syncwarp();
#pragma unroll
    for (int k = 0; k < Items; ++k) items[k] = s_.slots[slot(base + k * warp_size + lane)];
  }

private:
  storage& s_;
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
