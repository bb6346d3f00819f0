//! @file Launch constants of the CUDA backend, with the measurements behind them.
#pragma once

#include <cstddef>

namespace acc::detail::cuda {

/// parallel_loop: threads per block from cudaOccupancyMaxPotentialBlockSize, at most
/// max_block; blocks enough for one iteration per thread (num_gangs, or the hardware's
/// 2^31 - 1 blocks, cap it; threads then stride through the rest).
///
/// bench/stream, H100 80GB HBM3, 2^28 doubles, acc/hand-written CUDA (block 256, one element
/// per thread), 2026-11-21:
///                                      copy   mul    add    triad  nstream
///   block 256, one iteration/thread    1.001  1.001  1.000  0.999  0.999   <- chosen
///   block 1024, one iteration/thread   0.935  0.936  0.997  0.999  1.006
///   block 256, grid <= 32 full waves   0.992  0.993  0.958  0.961  0.966
///   block 256, grid <= 4 full waves    0.968  0.969  0.941  0.944  0.952
/// Striding threads lose because each has one load in flight per iteration; short-lived
/// blocks keep more memory requests outstanding.
struct loop_policy {
  static constexpr int max_block = 256;
};

/// parallel_reduce: a persistent grid of `block`-thread blocks (as many as are resident);
/// each thread keeps `unroll<T>` = 16 bytes of body values in flight.
///
/// bench/reduce, H100 80GB HBM3, 2^28 elements, acc/cub::DeviceReduce::Sum on raw pointers,
/// 2026-11-21 (one run each; runs differ by about 0.01):
///                              double  int    double 2^28+12345
///   16 bytes in flight          0.997  0.968  0.993   <- chosen
///   32 bytes                    0.981  0.944  0.988
///   64 bytes                    0.993  0.926  0.990
///   32 bytes, block 512         0.796  0.696  0.825   (before acc's own memory pool: the
///   32 bytes, block 256         0.851  0.722  0.864    allocation cost ~130 us a call)
/// CUB's raw-pointer path loads 16 bytes per instruction; a body's loads cannot be widened,
/// which is what keeps int at 0.97.
struct reduce_policy {
  static constexpr int block = 256;
  // limits_of_kernel's occupancy cap; the block is `block` unless clauses give one.
  static constexpr int max_block = 1024;
  template <class T>
  static constexpr int unroll = sizeof(T) >= 16 ? 1 : 16 / int(sizeof(T));
};

/// acc::parallel without vector_length: 128 lanes, or one warp per worker when num_workers is
/// given (workers then synchronise with __syncwarp). As PGI's defaults for gang vector and
/// gang worker vector loops. Measured with bench/reduce's Xu cases (H100, 2^28 doubles, rows
/// of 2^15): vector 128 reaches 0.99x and 4 workers of 32 lanes 1.00x a hand-written kernel
/// of the same shape, both at about 3 TB/s.
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
/// MemBoundScaling gives: nominal 24 scaled by 4 / sizeof), which acc had through
/// cub::DeviceScan before it scanned with its own kernel; Tuned: plus, minimum or maximum on
/// an arithmetic type, as CUB tunes only those (other operators and types get its default:
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
/// memory: bench/reduce lost about 130 us per call to that, 15% of a 2^28-double sum.
struct memory_policy {
  static constexpr unsigned long long kept_bytes = 256ull << 20;
};

/// Transfers between pageable host memory and the device (memory.hpp: to_device, to_host)
/// pass through `buffers` pinned buffers of `buffer_bytes` per device, the host copy of one
/// chunk (spread over the copy team, detail/copy_team.hpp) overlapping the DMA of another.
/// Page-locking a range instead costs about 45 ms for 1 GiB on the H100 against 20 ms for the
/// pinned copy itself (bench/results/h100-transfer.txt), which a range transferred once never
/// recovers. Four buffers keep a DMA queued while the host fills or empties another; below
/// min_bytes CUDA's own staging is as fast. The sizes are chosen, not yet measured: bench/transfer
/// reports staged copies against pinned ones per size.
struct staging_policy {
  static constexpr int buffers = 4;
  static constexpr std::size_t buffer_bytes = std::size_t(8) << 20;
  static constexpr std::size_t min_chunk = std::size_t(1) << 20;
  static constexpr std::size_t min_bytes = std::size_t(256) << 10;
};

}  // namespace acc::detail::cuda
