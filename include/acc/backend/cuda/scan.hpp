//! @file CUDA backend of the scans: inclusive_scan / exclusive_scan in one pass with
//! decoupled look-back (array_scan.hpp), and tile kernels built from block_scan for
//! parallel_scan (one pass with look-back for integers, reduce-then-scan otherwise).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/array_scan.hpp>
#include <acc/backend/cuda/block_exchange.hpp>
#include <acc/backend/cuda/block_scan.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/lookback.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace acc::detail::cuda {

// ---- inclusive_scan / exclusive_scan ---------------------------------------------------------

inline std::size_t align_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

/// Scans n > 0 elements of host range `in` into host range `out` on `device`. Present data is
/// used where it is on the device (the result stays there); absent data is copied in
/// (input) and out (output) for this call through scratch memory of acc's pool.
template <bool Exclusive, class T, class V, class Op>
void run(backend, const scan_task<Exclusive, T, V, Op>& task, const no_body&, const launch_context& ctx) {
  const T* in = task.in;
  const std::uint64_t n = task.n;
  V* out = task.out;
  const V& init = task.init;
  const Op& op = task.op;
  const host_span &in_span = task.in_span, &out_span = task.out_span;
  const launch_spec& spec = ctx.spec;
  const int device = ctx.device;
  const call_site& site = ctx.site;
  const cudaStream_t stream = begin_launch(ctx);
  const T* d_in = static_cast<const T*>(present_address(device, in_span));
  V* d_out = static_cast<V*>(present_address(device, out_span));
  if (spec.default_present) {
    const char* hint = "the scan has acc::default_present; enter it with acc::data or acc::enter_data";
    if (!d_in) fail_absent(in_span, device, hint, site);
    if (!d_out) fail_absent(out_span, device, hint, site);
  }
  const bool in_place = static_cast<const void*>(in) == static_cast<const void*>(out);
  const bool copy_in = d_in == nullptr, copy_out = d_out == nullptr;

  using scan_t = array_scan<Exclusive, T, V, Op>;
  const std::size_t state_bytes = scan_t::bytes(n, site);
  // One scratch block: [input copy][output copy][the look-back's tile descriptors]; an
  // in-place scan of absent data uses one copy for both.
  const std::size_t in_bytes = copy_in ? align_up(sizeof(T) * n) : 0;
  const std::size_t out_bytes = copy_out && !(in_place && copy_in) ? align_up(sizeof(V) * n) : 0;
  stream_buffer scratch(in_bytes + out_bytes + state_bytes + 256, device, stream, site);
  char* base = static_cast<char*>(scratch.get());
  if (copy_in) {
    d_in = reinterpret_cast<const T*>(base);
    const nvtx_text_range range([&] { return transfer_name("implicit copyin", in_span); });
    ACC_DETAIL_CUDA_CHECK(cudaMemcpyAsync(const_cast<T*>(d_in), in, sizeof(T) * n, cudaMemcpyHostToDevice, stream),
                          site);
  }
  if (copy_out) d_out = in_place && copy_in ? reinterpret_cast<V*>(const_cast<T*>(d_in)) : reinterpret_cast<V*>(base + in_bytes);
  scan_t::run(base + in_bytes + out_bytes, d_in, d_out, n, init, op, stream, site);
  if (copy_out) {
    const nvtx_text_range range([&] { return transfer_name("implicit copyout", out_span); });
    ACC_DETAIL_CUDA_CHECK(cudaMemcpyAsync(out, d_out, sizeof(V) * n, cudaMemcpyDeviceToHost, stream), site);
  }
  scratch.release(site);
  finish_launch(stream, spec.queue, site);
}

// ---- parallel_scan ---------------------------------------------------------------------------

/// parallel_scan tiles: `block` threads of `items<T>` iterations, so that a tile keeps about
/// 16 KiB of contributions in registers; 4-byte integer sums take the shorter look-back tiles
/// below (CUB's sm90 scan tunings use 3072-element tiles of 4-byte values), 64-bit integer sums
/// narrow tiles where they can (bench/results/h100-scan.txt).
/// The look-back waits with the delays CUB's sm90 tuning gives DeviceSelect::If on 4-byte
/// items (tuning_select_if.cuh, fixed_delay_constructor_t<76, 1150>), which beat
/// TilePrefixCallbackOp's default (bench/results/h100-scan.txt).
struct scan_policy {
  static constexpr int block = 256;
  template <class T>
  static constexpr int items = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 10 : sizeof(T) <= 16 ? 4 : 2;
  /// Items per thread of a narrow 64-bit tile (narrow_scan_v): 16, the fastest tried for a
  /// long long compaction on an H100 (bench/results/h100-scan.txt).
  static constexpr int narrow_items = 16;
  /// The same on a GPU whose memory is fast for its SMs (fast_memory_per_sm): the block vote
  /// and the 64-bit look-back cost more per tile against the memory's time there, and longer
  /// tiles amortise them. 20 is the fastest tried on an H200 (on an H100, 16 is).
  static constexpr int fast_narrow_items = 20;
  using delay = lookback_delay<76, 1150>;
  /// Tiles of 4-byte values other than the short ones below (floats, reduced then rescanned)
  /// and narrow 64-bit tiles, which hold 32-bit ones, keep 6 blocks resident per SM (at most 42
  /// registers a thread): left to itself nvcc gives a compaction's look-back kernel 48
  /// registers and 5 blocks, too few to hide the look-back's latency
  /// (bench/results/h100-runtime.txt).
  template <class T>
  static constexpr int min_blocks = sizeof(T) <= 4 ? 6 : 1;
  /// Look-back tiles of 4-byte values (integer sums, compaction counters above all), on every
  /// GPU: shorter than `items`, 8 resident per SM (at most 32 registers a thread). A tile then
  /// finishes sooner and its successors wait less in the look-back: the faster shape for an
  /// int compaction on an H200 and on an H100 alike (bench/results/h100-scan.txt).
  static constexpr int short_items = 12;
  static constexpr int short_min_blocks = 8;
};

/// Integers combine exactly in any grouping, so their tiles may take their prefix from
/// whatever predecessors have published (decoupled look-back) and stay deterministic; other
/// types (floats, user structs) use a fixed grouping: reduce, scan the tile sums, rescan.
template <class T>
inline constexpr bool exact_scan_v = std::is_integral_v<T> || std::is_enum_v<T>;

enum class tile_mode { lookback, reduce, rescan };

/// The threads an SM of the architecture being compiled keeps resident (the CUDA programming
/// guide's table of compute capabilities), so that a __launch_bounds__ never asks for more
/// blocks than fit: ptxas would ignore it with a warning per kernel (nvcc's default sm_75 holds
/// 1024, 8.6, 8.7, 8.9 and 12.x 1536, the others 2048).
constexpr int resident_threads_per_sm() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
  return 1024;
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 || __CUDA_ARCH__ == 890 || \
                                 __CUDA_ARCH__ >= 1200)
  return 1536;
#else
  return 2048;
#endif
}

/// MinBlocks blocks of Block threads, or as many as the SM holds.
template <int Block, int MinBlocks>
inline constexpr int bounded_min_blocks =
    MinBlocks * Block <= resident_threads_per_sm() ? MinBlocks : resident_threads_per_sm() / Block;

/// Iteration t of tile `tile`, item k of this thread: striped over the tile, so that a warp's
/// body calls touch consecutive iterations (coalesced loads and, for compaction, stores).
template <int Block, int Items, class Count>
__device__ Count tile_iteration(Count tile, int k) {
  return tile * Count(Block * Items) + Count(k * Block + int(threadIdx.x));
}

/// body(i, c[k], final) for this thread's iterations of tile `tile`. Checked: only those
/// below n (the last tile); a full tile's calls have no test, and so no branch around each,
/// which a compaction pays for dearly (bench/results/h100-scan.txt).
template <bool Checked, int Block, int Items, class Count, class Index, class Body, class T>
__device__ void call_tile(const Body& body, Index lo, Count n, Count tile, thread_items<T, Items>& c, bool final) {
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const Count t = tile_iteration<Block, Items>(tile, k);
    if (!Checked || t < n) body(index_at(lo, t), c[k], final);
  }
}

/// The look-back's shared memory, named only in the mode that uses it.
template <tile_mode Mode, class T, class Op, class TileState>
struct prefix_storage {
  struct type {};
};
template <class T, class Op, class TileState>
struct prefix_storage<tile_mode::lookback, T, Op, TileState> {
  using type = typename tile_prefix<T, Op, TileState, scan_policy::delay>::storage;
};

/// One tile of a parallel_scan: every iteration's contribution (body with final = false,
/// starting from the identity), the tile's exclusive scan of them, then body with final =
/// true and partial = its exclusive prefix.
/// - lookback: the tile's prefix by decoupled look-back; the last tile writes the total.
/// - reduce: only writes the tile's sum to sums[tile].
/// - rescan: the tile's prefix is sums[tile] (already scanned).
template <tile_mode Mode, int Block, int Items, int MinBlocks, class T, class Count, class Index, class Op,
          class Body, class TileState>
__global__ void __launch_bounds__(Block, (bounded_min_blocks<Block, MinBlocks>))
    scan_tiles(Body body, Index lo, Count n, Op op, T id, TileState state, T* sums, T* total) {
  using exchange_t = block_exchange<T, Block, Items>;
  using scan_t = block_scan<T, Block>;
  __shared__ union {
    typename exchange_t::storage exchange;
    typename scan_t::storage scan;
  } temp;
  __shared__ typename prefix_storage<Mode, T, Op, TileState>::type prefix_temp;

  const Count tile = blockIdx.x;
  const bool full = tile + 1 < Count(gridDim.x);  // every tile but the last
  T c[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) c[k] = id;
  if (full) call_tile<false, Block, Items>(body, lo, n, tile, c, false);
  else call_tile<true, Block, Items>(body, lo, n, tile, c, false);
  exchange_t(temp.exchange).striped_to_blocked(c);
  __syncthreads();
  if constexpr (Mode == tile_mode::reduce) {
    // The block scan's aggregate combines the blocked contributions in order, as an
    // order-sensitive operator needs.
    T aggregate;
    scan_t(temp.scan).exclusive_scan(c, id, op, aggregate);
    if (threadIdx.x == 0) sums[tile] = aggregate;
  } else {
    if constexpr (Mode == tile_mode::rescan) {
      T aggregate;
      scan_t(temp.scan).exclusive_scan(c, sums[tile], op, aggregate);
      if (threadIdx.x == 0 && tile == gridDim.x - 1) *total = op(sums[tile], aggregate);
    } else if (tile == 0) {
      T aggregate;
      scan_t(temp.scan).exclusive_scan(c, id, op, aggregate);
      if (threadIdx.x == 0) {
        state.set_inclusive(0, aggregate);
        if (gridDim.x == 1) *total = aggregate;
      }
    } else {
      tile_prefix<T, Op, TileState, scan_policy::delay> prefix(state, prefix_temp, op, int(tile));
      scan_t(temp.scan).exclusive_scan_with(c, op, prefix);
      // Thread 0 ran the callback, which left the tile's inclusive prefix in prefix_temp.
      if (threadIdx.x == 0 && tile == gridDim.x - 1) *total = prefix.inclusive_prefix();
    }
    __syncthreads();
    exchange_t(temp.exchange).blocked_to_striped(c);
    if (full) call_tile<false, Block, Items>(body, lo, n, tile, c, true);
    else call_tile<true, Block, Items>(body, lo, n, tile, c, true);
  }
}

/// 64-bit integer sums (compaction counters, mostly) scan each tile in 32 bits when every
/// contribution of the tile is small enough that no partial sum within the tile leaves the
/// 32-bit range; only the tile's total and prefix, in the look-back, stay 64-bit. A tile with a
/// larger contribution takes a wide path. Halving the exchange and scan and keeping the
/// contributions in registers as 32-bit values brings a long long compaction near the int
/// one's speed (bench/results/h100-scan.txt).
template <class T, class Op>
inline constexpr bool narrow_scan_v = std::is_integral_v<T> && sizeof(T) == 8 && std::is_same_v<Op, acc::plus_t>;

/// A 4-byte integer sum, scanned with decoupled look-back in scan_policy's short tiles.
template <class T>
inline constexpr bool short_scan_v = exact_scan_v<T> && sizeof(T) <= 4;

/// Items per thread of a parallel_scan tile (where memory is slow per SM, for narrow tiles):
/// narrow tiles keep 32-bit contributions.
template <class T, class Op>
inline constexpr int scan_items = narrow_scan_v<T, Op> ? scan_policy::narrow_items
                                  : short_scan_v<T>    ? scan_policy::short_items
                                                       : scan_policy::items<T>;

/// The resident blocks per SM that a parallel_scan tile's kernel asks for (__launch_bounds__).
template <class T>
inline constexpr int scan_min_blocks = short_scan_v<T> ? scan_policy::short_min_blocks : scan_policy::min_blocks<T>;

/// The most items per thread a parallel_scan of T may take on any device.
template <class T, class Op>
inline constexpr int max_scan_items = narrow_scan_v<T, Op> ? scan_policy::fast_narrow_items : scan_items<T, Op>;

/// Which of scan_policy's narrow 64-bit tiles parallel_scan takes: those for the device's
/// memory speed (fast_memory_per_sm), or those for slow or for fast memory on every device, so
/// that the tests run both shapes whatever GPU they have and bench_scan times both on one.
enum class scan_shape { of_device, slow_memory, fast_memory };
inline scan_shape scan_shape_choice = scan_shape::of_device;

/// Whether parallel_scan on `device` takes scan_policy's narrow tiles for fast memory.
inline bool scan_shapes_for_fast_memory(int device, const call_site& site) {
  return scan_shape_choice == scan_shape::of_device ? fast_memory_per_sm(device, site)
                                                    : scan_shape_choice == scan_shape::fast_memory;
}

template <class T>
using narrow_of = std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>;

/// Whether v may take part in a 32-bit scan of Tile contributions: |v| * Tile < 2^31.
template <int Tile, class T>
__device__ bool narrow_fits(T v) {
  constexpr T limit = T(0x7fffffff / Tile);
  if constexpr (std::is_signed_v<T>)
    return static_cast<std::uint64_t>(v) + static_cast<std::uint64_t>(limit) <= static_cast<std::uint64_t>(2 * limit);
  else return v <= limit;
}

/// This thread's contributions to tile `tile` (body with final = false), narrowed; returns
/// whether all fit (narrow_fits).
template <bool Checked, int Block, int Items, class T, class N, class Count, class Index, class Body>
__device__ bool narrow_contributions(const Body& body, Index lo, Count n, Count tile, thread_items<N, Items>& c) {
  bool fits = true;
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const Count t = tile_iteration<Block, Items>(tile, k);
    T v = T(0);
    if (!Checked || t < n) body(index_at(lo, t), v, false);
    fits &= narrow_fits<Block * Items>(v);
    c[k] = N(v);
  }
  return fits;
}

/// body(i, base + c[k], true) for this thread's iterations of tile `tile`.
template <bool Checked, int Block, int Items, class T, class N, class Count, class Index, class Body>
__device__ void narrow_finals(const Body& body, Index lo, Count n, Count tile, const thread_items<N, Items>& c, T base) {
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const Count t = tile_iteration<Block, Items>(tile, k);
    if (!Checked || t < n) {
      T p = base + T(c[k]);
      body(index_at(lo, t), p, true);
    }
  }
}

/// The look-back callback of a narrow tile: the 32-bit block scan hands it the tile's total,
/// the look-back runs in T, and the scan goes on from 0 (the tile's T prefix is added per item).
template <class T, class N, class Prefix>
struct narrow_callback {
  Prefix& prefix;
  __device__ N operator()(N aggregate) {
    prefix(T(aggregate));
    return N(0);
  }
};

/// One tile of a 64-bit integer sum (narrow_scan_v), decoupled look-back as scan_tiles'. The
/// block votes: if every contribution fits (narrow_fits), the tile is exchanged and scanned in
/// 32 bits; otherwise each thread takes Items consecutive iterations, the block scans the
/// threads' 64-bit sums, and each iteration's contribution is computed again (body with final =
/// false, which may happen more than once) on the way to its final call: slower, registers
/// free of 64-bit arrays.
template <int Block, int Items, class T, class Count, class Index, class Body, class TileState>
__global__ void __launch_bounds__(Block, (bounded_min_blocks<Block, scan_policy::min_blocks<std::int32_t>>))
    scan_tiles_narrow(Body body, Index lo, Count n, TileState state, T* total) {
  using N = narrow_of<T>;
  using exchange_t = block_exchange<N, Block, Items>;
  using scan_t = block_scan<N, Block>;
  using wide_scan_t = block_scan<T, Block>;
  using prefix_t = tile_prefix<T, acc::plus_t, TileState, scan_policy::delay>;
  __shared__ union {
    typename exchange_t::storage exchange;
    typename scan_t::storage scan;
    typename wide_scan_t::storage wide_scan;
  } temp;
  __shared__ typename prefix_t::storage prefix_temp;

  const Count tile = blockIdx.x;
  const bool full = tile + 1 < Count(gridDim.x);
  const bool last = tile + 1 == Count(gridDim.x);
  N c[Items];
  const bool fits = full ? narrow_contributions<false, Block, Items, T>(body, lo, n, tile, c)
                         : narrow_contributions<true, Block, Items, T>(body, lo, n, tile, c);
  if (__syncthreads_and(fits)) {
    exchange_t(temp.exchange).striped_to_blocked(c);
    __syncthreads();
    T base = T(0);
    if (tile == 0) {
      N aggregate;
      scan_t(temp.scan).exclusive_scan(c, N(0), acc::plus_t{}, aggregate);
      if (threadIdx.x == 0) {
        state.set_inclusive(0, T(aggregate));
        if (last) *total = T(aggregate);
      }
    } else {
      prefix_t prefix(state, prefix_temp, acc::plus_t{}, int(tile));
      narrow_callback<T, N, prefix_t> callback{prefix};
      scan_t(temp.scan).exclusive_scan_with(c, acc::plus_t{}, callback);
      base = prefix.exclusive_prefix();  // written by warp 0 before the scan's barrier
      if (threadIdx.x == 0 && last) *total = prefix.inclusive_prefix();
    }
    __syncthreads();
    exchange_t(temp.exchange).blocked_to_striped(c);
    if (full) narrow_finals<false, Block, Items>(body, lo, n, tile, c, base);
    else narrow_finals<true, Block, Items>(body, lo, n, tile, c, base);
  } else {
    const Count first = tile * Count(Block * Items) + Count(int(threadIdx.x) * Items);
    T sum = T(0);
    for (int k = 0; k < Items && first + Count(k) < n; ++k) {
      T v = T(0);
      body(index_at(lo, first + Count(k)), v, false);
      sum += v;
    }
    T p;
    if (tile == 0) {
      T aggregate;
      p = wide_scan_t(temp.wide_scan).exclusive_scan(sum, T(0), acc::plus_t{}, aggregate);
      if (threadIdx.x == 0) {
        state.set_inclusive(0, aggregate);
        if (last) *total = aggregate;
      }
    } else {
      prefix_t prefix(state, prefix_temp, acc::plus_t{}, int(tile));
      p = wide_scan_t(temp.wide_scan).exclusive_scan_with(sum, acc::plus_t{}, prefix);
      if (threadIdx.x == 0 && last) *total = prefix.inclusive_prefix();
    }
    for (int k = 0; k < Items; ++k) {
      const Count t = first + Count(k);
      if (t >= n) break;
      T here = p, contribution = T(0);
      body(index_at(lo, t), here, true);
      body(index_at(lo, t), contribution, false);
      p += contribution;
    }
  }
}

/// One block: sums[0 .. m) becomes its exclusive scan from id, in order (threads take
/// contiguous runs), so that every tile's prefix is grouped the same way on every run.
template <int Block, class T, class Op>
__global__ void __launch_bounds__(Block) scan_tile_sums(T* sums, int m, Op op, T id) {
  using scan_t = block_scan<T, Block>;
  __shared__ typename scan_t::storage temp;
  const int per = (m + Block - 1) / Block;
  const int first = min(m, int(threadIdx.x) * per), last = min(m, first + per);
  T run = id;
  for (int k = first; k < last; ++k) run = op(run, sums[k]);
  T aggregate;
  T prefix = scan_t(temp).exclusive_scan(run, id, op, aggregate);
  for (int k = first; k < last; ++k) {
    const T v = sums[k];
    sums[k] = prefix;
    prefix = op(prefix, v);
  }
}

/// A stand-in for the look-back state in the modes that do not use it.
struct no_tile_state {};

/// parallel_scan with tiles of scan_policy::block x Items iterations; MinBlocks for the
/// __launch_bounds__ of scan_tiles (the narrow kernel has its own).
template <int Items, int MinBlocks, class T, class Count, class Index, class Op, class Body>
T parallel_scan_with(Index lo, std::uint64_t total, int device, cudaStream_t stream, const Op& op, const Body& body,
                     const call_site& site) {
  constexpr int block = scan_policy::block, items = Items, tile = block * items;
  const std::uint64_t tiles64 = (total + tile - 1) / tile;
  if (tiles64 > std::uint64_t(std::numeric_limits<int>::max()))
    fail<bad_clause>(site, "parallel_scan of " + std::to_string(total) + " iterations: at most " +
                               std::to_string(std::uint64_t(std::numeric_limits<int>::max()) * tile) +
                               " are supported");
  const int tiles = static_cast<int>(tiles64);
  const T id = identity_of<T>(op);
  // The total goes straight to mapped host memory, with no copy queued after the kernels.
  result_slot& out = result_slot_of(sizeof(T), site);
  T* d_total = static_cast<T*>(out.device());
  T result;
  if constexpr (narrow_scan_v<T, Op>) {
    using state_t = tile_state<T>;
    stream_buffer scratch(state_t::bytes(tiles), device, stream, site);
    const state_t state(scratch.get(), tiles);
    launch(&init_tile_state<state_t>, {unsigned((tiles + 255) / 256), 256u}, 0, stream, site, state, tiles);
    launch(&scan_tiles_narrow<block, items, T, Count, Index, Body, state_t>, {unsigned(tiles), unsigned(block)}, 0,
           stream, site, body, lo, Count(total), state, d_total);
    scratch.release(site);
  } else if constexpr (exact_scan_v<T>) {
    using state_t = tile_state<T>;
    stream_buffer scratch(state_t::bytes(tiles), device, stream, site);
    const state_t state(scratch.get(), tiles);
    launch(&init_tile_state<state_t>, {unsigned((tiles + 255) / 256), 256u}, 0, stream, site, state, tiles);
    launch(&scan_tiles<tile_mode::lookback, block, items, MinBlocks, T, Count, Index, Op, Body, state_t>,
           {unsigned(tiles), unsigned(block)}, 0, stream, site, body, lo, Count(total), op, id, state,
           static_cast<T*>(nullptr), d_total);
    scratch.release(site);
  } else {
    constexpr int sum_block = 1024;
    stream_buffer scratch(sizeof(T) * std::size_t(tiles), device, stream, site);
    T* sums = static_cast<T*>(scratch.get());
    launch(&scan_tiles<tile_mode::reduce, block, items, MinBlocks, T, Count, Index, Op, Body, no_tile_state>,
           {unsigned(tiles), unsigned(block)}, 0, stream, site, body, lo, Count(total), op, id, no_tile_state{}, sums,
           d_total);
    launch(&scan_tile_sums<sum_block, T, Op>, {1u, unsigned(sum_block)}, 0, stream, site, sums, tiles, op, id);
    launch(&scan_tiles<tile_mode::rescan, block, items, MinBlocks, T, Count, Index, Op, Body, no_tile_state>,
           {unsigned(tiles), unsigned(block)}, 0, stream, site, body, lo, Count(total), op, id, no_tile_state{}, sums,
           d_total);
    scratch.release(site);
  }
  ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);  // the caller gets the total
  std::memcpy(&result, out.host(), sizeof(T));
  return result;
}

/// parallel_scan with the tile shape for T and this device: scan_items x scan_min_blocks, but
/// scan_policy's long narrow tiles on a device with fast memory per SM.
template <class T, class Count, class Index, class Op, class Body>
T parallel_scan_on(Index lo, std::uint64_t total, int device, cudaStream_t stream, const Op& op, const Body& body,
                   const call_site& site) {
  if constexpr (narrow_scan_v<T, Op>)
    if (scan_shapes_for_fast_memory(device, site))
      return parallel_scan_with<scan_policy::fast_narrow_items, scan_min_blocks<T>, T, Count>(lo, total, device,
                                                                                               stream, op, body, site);
  return parallel_scan_with<scan_items<T, Op>, scan_min_blocks<T>, T, Count>(lo, total, device, stream, op, body,
                                                                             site);
}

/// parallel_scan on ctx.device (task.total > 0 iterations); returns the total.
template <class Index, class Op, class T, class Body>
T run(backend, const parallel_scan_task<index_space<Index, 1>, Op, T>& task, const Body& body,
      const launch_context& ctx) {
  const cudaStream_t stream = begin_launch(ctx);
  // 32-bit counters while every iteration number of every tile fits.
  if (task.total <= (std::uint64_t(1) << 31) - std::uint64_t(scan_policy::block * max_scan_items<T, Op>))
    return parallel_scan_on<T, std::uint32_t>(task.space.lo[0], task.total, ctx.device, stream, task.op, body,
                                              ctx.site);
  return parallel_scan_on<T, std::uint64_t>(task.space.lo[0], task.total, ctx.device, stream, task.op, body,
                                            ctx.site);
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
