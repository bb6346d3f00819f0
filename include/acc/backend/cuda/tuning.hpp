//! @file Launch constants of the CUDA backend and why they are what they are; the
//! measurements behind them are in bench/results/.
#pragma once

#include <acc/detail/header_open.hpp>

#include <cstddef>

namespace acc::detail::cuda {

/// parallel_loop: threads per block from cudaOccupancyMaxPotentialBlockSize, at most
/// max_block; blocks enough for one iteration per thread (num_gangs, or the hardware's
/// 2^31 - 1 blocks, cap it; threads then stride through the rest). Striding threads lose
/// because each has one load in flight per iteration; short-lived blocks keep more memory
/// requests outstanding; and 256 beats 1024 threads a block on bench/stream's copy and scale
/// (bench/results/h100-stream.txt).
struct loop_policy {
  static constexpr int max_block = 256;
};

/// parallel_reduce: a persistent grid of `block`-thread blocks (as many as are resident);
/// each thread keeps `unroll<T>` = 16 bytes of body values in flight, the fastest of 16, 32
/// and 64 bytes for double and int sums on an H100 (bench/results/h100-reduce.txt). CUB's
/// raw-pointer path loads 16 bytes per instruction; a body's loads cannot be widened, which
/// is why int sums stay a little behind CUB's.
struct reduce_policy {
  static constexpr int block = 256;
  // limits_of_kernel's occupancy cap; the block is `block` unless clauses give one.
  static constexpr int max_block = 1024;
  template <class T>
  static constexpr int unroll = sizeof(T) >= 16 ? 1 : 16 / int(sizeof(T));
};

/// acc::parallel without vector_length: 128 lanes, or one warp per worker when num_workers is
/// given (workers then synchronise with __syncwarp). As PGI's defaults for gang vector and
/// gang worker vector loops; with them bench/reduce's Xu cases run as fast as hand-written
/// kernels of the same shape (bench/results/h100-reduce.txt).
struct region_policy {
  static constexpr int vector_length = 128;
  static constexpr int vector_with_workers = 32;
  // limits_of_kernel's occupancy cap; a region's block comes from its clauses, not from the
  // calculator, so this only bounds a query whose suggestion regions ignore.
  static constexpr int max_block = 1024;
};

/// inclusive_scan / exclusive_scan (array_scan.hpp): tiles of `block` threads x `items`, and
/// the look-back's waits in ns (lookback_delay<spin, start>). These are CUB's sm90 DeviceScan
/// tunings (cub/device/dispatch/tuning/tuning_scan.cuh, sm90_tuning, with the items that its
/// MemBoundScaling gives: nominal 24 scaled by 4 / sizeof): acc's scan kernel has the same
/// tile and look-back structure as CUB's, so the tunings CUB found for this hardware carry
/// over. Tuned: plus, minimum or maximum on an arithmetic type, as CUB tunes only those
/// (other operators and types get its default:
/// 128 threads of 15 x 4 / sizeof items, spin 350 / start 450 on arithmetic types, else no spin).
///            threads  items  spin  start
///   1 byte     192     44     168  1140
///   2 bytes    512     24     376  1125
///   4 bytes    128     24     648  1245   (float: 688, 1140)
///   8 bytes    224     12     632  1290   (double: 576, 1215)
template <int Size, bool Arithmetic, bool Floating, bool Tuned>
struct array_scan_policy {
  static constexpr bool tuned = Tuned && Arithmetic && Size <= 8;
  static constexpr int pick(int one, int two, int four, int eight) {
    return Size == 1 ? one : Size == 2 ? two : Size == 4 ? four : eight;
  }
  static constexpr int default_items() {
    const int items = 60 / Size;
    return items < 1 ? 1 : items > 30 ? 30 : items;
  }
  // 128 threads, fewer (whole warps) where the exchanged tile would pass 48 KiB of static
  // shared memory.
  static constexpr int default_block() {
    const int fit = 49152 / (Size * default_items()) / 32 * 32;
    return fit >= 128 ? 128 : fit < 32 ? 32 : fit;
  }
  static constexpr int block = tuned ? pick(192, 512, 128, 224) : default_block();
  static constexpr int items = tuned ? pick(44, 24, 24, 12) : default_items();
  static constexpr unsigned spin =
      tuned ? pick(168, 376, Floating ? 688 : 648, Floating ? 576 : 632) : Arithmetic ? 350 : 0;
  static constexpr unsigned start = tuned ? pick(1140, 1125, Floating ? 1140 : 1245, Floating ? 1215 : 1290) : 450;
};

/// acc's device memory pool keeps up to kept_bytes of freed memory across synchronisations.
/// With nothing kept (the default pools' policy) every allocation after a sync maps fresh
/// memory, and a reduction, which allocates its partial sums on every call, pays for that
/// mapping each time (bench/results/h100-reduce.txt).
struct memory_policy {
  static constexpr unsigned long long kept_bytes = 256ull << 20;
};

/// Transfers between pageable host memory and the device (memory.hpp: to_device, to_host)
/// pass through `buffers` pinned buffers of `buffer_bytes` per device, the host copy of one
/// chunk (spread over the OpenMP threads or the copy team: staging_copy in runtime-inl.hpp)
/// overlapping the DMA of another.
/// Page-locking a range instead costs about 45 ms for 1 GiB on the H100 against 20 ms for the
/// pinned copy itself (bench/results/h100-transfer.txt), which a range transferred once never
/// recovers. Four buffers keep a DMA queued while the host fills or empties another; below
/// min_bytes CUDA's own staging is as fast. The sizes are chosen, not yet measured: bench/transfer
/// reports staged copies against pinned ones per size.
/// Transfers to the device of at most stream_max_bytes fill the buffers with streaming stores
/// (a DMA reading lines still dirty in the CPU's caches is slower); larger ones with ordinary
/// stores: there the buffers are refilled many times over and streaming showed no gain
/// (bench/results/h100-transfer.txt).
/// A transfer to the device of pipe_min_bytes or more that fits all the buffers (buffers *
/// buffer_bytes) is pipelined instead: one OpenMP region copies it in `pipe_piece` pieces, and
/// its chunks (a quarter of it, at most pipe_max_chunk) go to the DMA engine as each is
/// complete, so only the first chunk's copy is not overlapped (memory-inl.hpp,
/// staged_to_device_pipelined). Below pipe_min_bytes the DMAs of quarter chunks cost more
/// than the overlap gains (1 MiB: bench/results/h100-transfer.txt). Chunk loops copy theirs in
/// pieces of `piece`.
struct staging_policy {
  static constexpr int buffers = 4;
  static constexpr std::size_t buffer_bytes = std::size_t(8) << 20;
  static constexpr std::size_t min_chunk = std::size_t(1) << 20;
  static constexpr std::size_t piece = std::size_t(128) << 10;
  static constexpr std::size_t pipe_piece = std::size_t(64) << 10;
  static constexpr std::size_t pipe_min_bytes = std::size_t(4) << 20;
  static constexpr std::size_t pipe_max_chunk = std::size_t(4) << 20;
  static constexpr std::size_t min_bytes = std::size_t(256) << 10;
  static constexpr std::size_t stream_max_bytes = std::size_t(64) << 20;
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
