//! @file Scan over a block of Block threads (whole warps, one-dimensional): each warp scans by
//! shuffles, the warps' totals go through shared memory, and every thread combines its warp's
//! prefix in sequence order (the warp-scans algorithm of CUB's BlockScan, with the same
//! grouping, so float and non-commutative results match it). Thread arrays are blocked: thread
//! t holds positions t * Items .. t * Items + Items - 1 of the block's sequence.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/raw_storage.hpp>
#include <acc/backend/cuda/warp.hpp>

#include <cstddef>

namespace acc::detail::cuda {

/// Sequential fold of a thread's items: op(op(items[0], items[1]), ...).
// Items is a std::size_t: g++, which sees these signatures in nvcc's host pass, takes an int
// array bound for a sign conversion.
template <std::size_t Items, class T, class Op>
__device__ T thread_reduce(const T (&items)[Items], const Op& op) {
  T r = items[0];
#pragma unroll
  for (int k = 1; k < Items; ++k) r = op(r, items[k]);
  return r;
}

/// items becomes its exclusive scan from prefix.
template <std::size_t Items, class T, class Op>
__device__ void thread_exclusive_scan(T (&items)[Items], const Op& op, T prefix) {
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const T next = op(prefix, items[k]);
    items[k] = prefix;
    prefix = next;
  }
}

/// items becomes its inclusive scan, prefixed by `prefix` when `apply`.
template <std::size_t Items, class T, class Op>
__device__ void thread_inclusive_scan(T (&items)[Items], const Op& op, const T& prefix, bool apply) {
  if (apply) items[0] = op(prefix, items[0]);
#pragma unroll
  for (int k = 1; k < Items; ++k) items[k] = op(items[k - 1], items[k]);
}

/// Scans of one value (or Items values) per thread over the block.
/// - Every thread of the block calls, with the same arguments where they are not per-thread.
/// - A scan synchronises the block after writing its storage but not after its last read:
///   synchronise before the storage is written again.
/// - Prefix callbacks (the look-back) are called by all of warp 0 with the block's total and
///   return the block's prefix (in lane 0 at least).
template <class T, int Block>
class block_scan {
  static_assert(Block % warp_size == 0, "acc: block primitives need whole warps");
  static constexpr int warps = Block / warp_size;

public:
  struct storage {
    raw_storage<T, warps> warp_totals;
    raw_storage<T, 1> prefix;
  };

  __device__ explicit block_scan(storage& s)
      : s_(s), warp_(int(threadIdx.x) / warp_size), lane_(int(threadIdx.x) % warp_size) {}

  /// Exclusive scan without an initial value: thread 0's result is undefined.
  template <class Op>
  __device__ T exclusive_scan(T v, const Op& op, T& aggregate) {
    T inclusive, exclusive;
    warp_scan(v, op, inclusive, exclusive);
    const T prefix = warp_prefix(inclusive, op, aggregate);
    if (warp_ != 0) exclusive = lane_ == 0 ? prefix : op(prefix, exclusive);
    return exclusive;
  }

  /// Exclusive scan from init; aggregate is the block's total without init.
  template <class Op>
  __device__ T exclusive_scan(T v, const T& init, const Op& op, T& aggregate) {
    T inclusive, exclusive;
    warp_scan(v, op, inclusive, exclusive);
    T prefix = warp_prefix(inclusive, op, aggregate);
    prefix = warp_ == 0 ? init : op(init, prefix);
    return lane_ == 0 ? prefix : op(prefix, exclusive);
  }

  /// Exclusive scan from the prefix that callback(block total) returns.
  template <class Op, class Callback>
  __device__ T exclusive_scan_with(T v, const Op& op, Callback& callback) {
    T aggregate;
    T exclusive = exclusive_scan(v, op, aggregate);
    if (warp_ == 0) {
      const T block_prefix = callback(aggregate);
      if (lane_ == 0) {
        s_.prefix[0] = block_prefix;
        exclusive = block_prefix;
      }
    }
    __syncthreads();
    if (threadIdx.x != 0) exclusive = op(s_.prefix[0], exclusive);
    return exclusive;
  }

  /// Inclusive scan; aggregate is the block's total.
  template <class Op>
  __device__ T inclusive_scan(T v, const Op& op, T& aggregate) {
    T inclusive = warp_inclusive_scan(v, op);
    const T prefix = warp_prefix(inclusive, op, aggregate);
    if (warp_ != 0) inclusive = op(prefix, inclusive);
    return inclusive;
  }

  /// Inclusive scan after the prefix that callback(block total) returns.
  template <class Op, class Callback>
  __device__ T inclusive_scan_with(T v, const Op& op, Callback& callback) {
    T aggregate;
    T inclusive = inclusive_scan(v, op, aggregate);
    if (warp_ == 0) {
      const T block_prefix = callback(aggregate);
      if (lane_ == 0) s_.prefix[0] = block_prefix;
    }
    __syncthreads();
    return op(s_.prefix[0], inclusive);
  }

  // Items per thread (blocked): each thread folds its items, the block scans the folds, and
  // each thread rescans its items from its fold's prefix.

  template <std::size_t Items, class Op>
  __device__ void exclusive_scan(T (&items)[Items], const T& init, const Op& op, T& aggregate) {
    const T prefix = exclusive_scan(thread_reduce(items, op), init, op, aggregate);
    thread_exclusive_scan(items, op, prefix);
  }
  template <std::size_t Items, class Op, class Callback>
  __device__ void exclusive_scan_with(T (&items)[Items], const Op& op, Callback& callback) {
    const T prefix = exclusive_scan_with(thread_reduce(items, op), op, callback);
    thread_exclusive_scan(items, op, prefix);
  }
  template <std::size_t Items, class Op>
  __device__ void inclusive_scan(T (&items)[Items], const Op& op, T& aggregate) {
    const T prefix = exclusive_scan(thread_reduce(items, op), op, aggregate);
    thread_inclusive_scan(items, op, prefix, threadIdx.x != 0);
  }
  template <std::size_t Items, class Op, class Callback>
  __device__ void inclusive_scan_with(T (&items)[Items], const Op& op, Callback& callback) {
    const T prefix = exclusive_scan_with(thread_reduce(items, op), op, callback);
    thread_inclusive_scan(items, op, prefix, true);
  }

private:
  /// The combination of the warps before the caller's (undefined in warp 0) and the block's
  /// total, both in warp order: the last lane of each warp publishes its inclusive value.
  template <class Op>
  __device__ T warp_prefix(const T& inclusive, const Op& op, T& aggregate) {
    if (lane_ == warp_size - 1) s_.warp_totals[warp_] = inclusive;
    __syncthreads();
    T prefix = inclusive;  // any value: warp 0 has no prefix
    aggregate = s_.warp_totals[0];
#pragma unroll
    for (int w = 1; w < warps; ++w) {
      if (warp_ == w) prefix = aggregate;
      aggregate = op(aggregate, s_.warp_totals[w]);
    }
    return prefix;
  }

  storage& s_;
  int warp_, lane_;
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
