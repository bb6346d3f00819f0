//! @file Launch constants of the CUDA backend, with the measurements behind them.
#pragma once

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

}  // namespace acc::detail::cuda
