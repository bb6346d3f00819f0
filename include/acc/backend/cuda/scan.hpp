//! @file CUDA backend of the scans: cub::DeviceScan (single-pass, decoupled look-back) for
//! inclusive_scan / exclusive_scan, and tile kernels built from cub::BlockScan for
//! parallel_scan (one pass with look-back for integers, reduce-then-scan otherwise).
#pragma once

#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace acc::detail::cuda {

// ---- inclusive_scan / exclusive_scan ---------------------------------------------------------

/// acc's operators as the ones CUB knows: its tunings (tuning_scan.cuh) are chosen for
/// ::cuda::std::plus, ::cuda::minimum and ::cuda::maximum, and other operators get a slower
/// default policy. Typed on V, so that CUB accumulates in V (plus<> would promote chars to int).
template <class Op, class V> struct cub_op { static Op of(const Op& op) { return op; } };
template <class V> struct cub_op<plus_t, V> {
  static ::cuda::std::plus<V> of(const plus_t&) { return {}; }
};
template <class V> struct cub_op<maximum_t, V> {
  static ::cuda::maximum<V> of(const maximum_t&) { return {}; }
};
template <class V> struct cub_op<minimum_t, V> {
  static ::cuda::minimum<V> of(const minimum_t&) { return {}; }
};

/// Converts an input element to the output's element type, which the scan accumulates in.
template <class V>
struct convert_to {
  template <class T>
  __host__ __device__ V operator()(const T& x) const { return static_cast<V>(x); }
};

/// One scan with CUB on device memory; bytes == 0 asks for the temporary storage size.
template <bool Exclusive, class T, class V, class Op, class Count>
cudaError_t cub_scan(void* temp, std::size_t& bytes, const T* in, V* out, const V& init, const Op& op, Count n,
                     cudaStream_t stream) {
  auto cop = cub_op<Op, V>::of(op);
  auto call = [&](auto first) {
    if constexpr (Exclusive) return cub::DeviceScan::ExclusiveScan(temp, bytes, first, out, cop, init, n, stream);
    else return cub::DeviceScan::InclusiveScan(temp, bytes, first, out, cop, n, stream);
  };
  if constexpr (std::is_same_v<std::remove_cv_t<T>, V>) return call(in);
  else return call(thrust::make_transform_iterator(in, convert_to<V>{}));
}

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

  std::size_t cub_bytes = 0;
  const bool narrow = n <= std::uint64_t(std::numeric_limits<int>::max());
  if (narrow)
    ACC_DETAIL_CUDA_CHECK((cub_scan<Exclusive>(nullptr, cub_bytes, d_in, d_out, init, op, std::uint32_t(n), stream)),
                          site);
  else
    ACC_DETAIL_CUDA_CHECK(
        (cub_scan<Exclusive>(nullptr, cub_bytes, d_in, d_out, init, op, static_cast<unsigned long long>(n), stream)),
        site);
  // One scratch block: [input copy][output copy][CUB's temporary storage]; an in-place scan of
  // absent data uses one copy for both.
  const std::size_t in_bytes = copy_in ? align_up(sizeof(T) * n) : 0;
  const std::size_t out_bytes = copy_out && !(in_place && copy_in) ? align_up(sizeof(V) * n) : 0;
  stream_buffer scratch(in_bytes + out_bytes + cub_bytes + 256, device, stream, site);
  char* base = static_cast<char*>(scratch.get());
  if (copy_in) {
    d_in = reinterpret_cast<const T*>(base);
    const nvtx_text_range range(transfer_name("implicit copyin", in_span));
    ACC_DETAIL_CUDA_CHECK(cudaMemcpyAsync(const_cast<T*>(d_in), in, sizeof(T) * n, cudaMemcpyHostToDevice, stream),
                          site);
  }
  if (copy_out) d_out = in_place && copy_in ? reinterpret_cast<V*>(const_cast<T*>(d_in)) : reinterpret_cast<V*>(base + in_bytes);
  void* temp = base + in_bytes + out_bytes;
  if (narrow)
    ACC_DETAIL_CUDA_CHECK((cub_scan<Exclusive>(temp, cub_bytes, d_in, d_out, init, op, std::uint32_t(n), stream)), site);
  else
    ACC_DETAIL_CUDA_CHECK(
        (cub_scan<Exclusive>(temp, cub_bytes, d_in, d_out, init, op, static_cast<unsigned long long>(n), stream)),
        site);
  if (copy_out) {
    const nvtx_text_range range(transfer_name("implicit copyout", out_span));
    ACC_DETAIL_CUDA_CHECK(cudaMemcpyAsync(out, d_out, sizeof(V) * n, cudaMemcpyDeviceToHost, stream), site);
  }
  scratch.release(site);
  finish_launch(stream, spec.queue, site);
}

// ---- parallel_scan ---------------------------------------------------------------------------

/// parallel_scan tiles: `block` threads of `items<T>` iterations, so that a tile keeps about
/// 16 KiB of contributions in registers (CUB's sm90 scan tunings use 3072-element tiles of
/// 4-byte values). Measured (H100, compaction of 2^28 ints, relative to
/// cub::DeviceSelect::If with int offsets): 4-byte counters 256 x 16 0.97, x 12 0.87,
/// x 20 0.94, x 8 0.83; 8-byte counters 256 x 10 0.68, x 8 0.63, x 12 0.68, x 16 0.67.
/// The look-back waits with the delays CUB's sm90 tuning gives DeviceSelect::If on 4-byte
/// items (tuning_select_if.cuh, fixed_delay_constructor_t<76, 1150>), which beat
/// TilePrefixCallbackOp's default (bench/results/h100-scan.txt).
struct scan_policy {
  static constexpr int block = 256;
  template <class T>
  static constexpr int items = sizeof(T) <= 4 ? 16 : sizeof(T) <= 8 ? 10 : sizeof(T) <= 16 ? 4 : 2;
  using delay = cub::detail::fixed_delay_constructor_t<76, 1150>;
};

/// Integers combine exactly in any grouping, so their tiles may take their prefix from
/// whatever predecessors have published (decoupled look-back) and stay deterministic; other
/// types (floats, user structs) use a fixed grouping: reduce, scan the tile sums, rescan.
template <class T>
inline constexpr bool exact_scan_v = std::is_integral_v<T> || std::is_enum_v<T>;

enum class tile_mode { lookback, reduce, rescan };

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
__device__ void call_tile(const Body& body, Index lo, Count n, Count tile, T (&c)[Items], bool final) {
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
  using type = typename cub::TilePrefixCallbackOp<T, Op, TileState, scan_policy::delay>::TempStorage;
};

/// One tile of a parallel_scan: every iteration's contribution (body with final = false,
/// starting from the identity), the tile's exclusive scan of them, then body with final =
/// true and partial = its exclusive prefix.
/// - lookback: the tile's prefix by decoupled look-back; the last tile writes the total.
/// - reduce: only writes the tile's sum to sums[tile].
/// - rescan: the tile's prefix is sums[tile] (already scanned).
template <tile_mode Mode, int Block, int Items, class T, class Count, class Index, class Op, class Body,
          class TileState>
__global__ void __launch_bounds__(Block)
    scan_tiles(Body body, Index lo, Count n, Op op, T id, TileState state, T* sums, T* total) {
  using exchange_t = cub::BlockExchange<T, Block, Items>;
  using scan_t = cub::BlockScan<T, Block, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union {
    typename exchange_t::TempStorage exchange;
    typename scan_t::TempStorage scan;
  } temp;
  __shared__ typename prefix_storage<Mode, T, Op, TileState>::type prefix_temp;

  const Count tile = blockIdx.x;
  const bool full = tile + 1 < Count(gridDim.x);  // every tile but the last
  T c[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) c[k] = id;
  if (full) call_tile<false, Block>(body, lo, n, tile, c, false);
  else call_tile<true, Block>(body, lo, n, tile, c, false);
  exchange_t(temp.exchange).StripedToBlocked(c);
  __syncthreads();
  if constexpr (Mode == tile_mode::reduce) {
    // The block scan's aggregate combines the blocked contributions in order, as an
    // order-sensitive operator needs.
    T aggregate;
    scan_t(temp.scan).ExclusiveScan(c, c, id, op, aggregate);
    if (threadIdx.x == 0) sums[tile] = aggregate;
  } else {
    if constexpr (Mode == tile_mode::rescan) {
      T aggregate;
      scan_t(temp.scan).ExclusiveScan(c, c, sums[tile], op, aggregate);
      if (threadIdx.x == 0 && tile == gridDim.x - 1) *total = op(sums[tile], aggregate);
    } else if (tile == 0) {
      T aggregate;
      scan_t(temp.scan).ExclusiveScan(c, c, id, op, aggregate);
      if (threadIdx.x == 0) {
        state.SetInclusive(0, aggregate);
        if (gridDim.x == 1) *total = aggregate;
      }
    } else {
      cub::TilePrefixCallbackOp<T, Op, TileState, scan_policy::delay> prefix(state, prefix_temp, op, int(tile));
      scan_t(temp.scan).ExclusiveScan(c, c, op, prefix);
      // Thread 0 ran the callback, which left the tile's inclusive prefix in prefix_temp.
      if (threadIdx.x == 0 && tile == gridDim.x - 1) *total = prefix.GetInclusivePrefix();
    }
    __syncthreads();
    exchange_t(temp.exchange).BlockedToStriped(c);
    if (full) call_tile<false, Block>(body, lo, n, tile, c, true);
    else call_tile<true, Block>(body, lo, n, tile, c, true);
  }
}

/// Readies the look-back's tile descriptors.
template <class TileState>
__global__ void init_tile_state(TileState state, int tiles) {
  state.InitializeStatus(tiles);
}

/// One block: sums[0 .. m) becomes its exclusive scan from id, in order (threads take
/// contiguous runs), so that every tile's prefix is grouped the same way on every run.
template <int Block, class T, class Op>
__global__ void __launch_bounds__(Block) scan_tile_sums(T* sums, int m, Op op, T id) {
  using scan_t = cub::BlockScan<T, Block, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename scan_t::TempStorage temp;
  const int per = (m + Block - 1) / Block;
  const int first = min(m, int(threadIdx.x) * per), last = min(m, first + per);
  T run = id;
  for (int k = first; k < last; ++k) run = op(run, sums[k]);
  T prefix;
  scan_t(temp).ExclusiveScan(run, prefix, id, op);
  for (int k = first; k < last; ++k) {
    const T v = sums[k];
    sums[k] = prefix;
    prefix = op(prefix, v);
  }
}

/// A stand-in for the look-back state in the modes that do not use it.
struct no_tile_state {};

template <class T, class Count, class Index, class Op, class Body>
T parallel_scan_with(Index lo, std::uint64_t total, int device, cudaStream_t stream, const Op& op, const Body& body,
                     const call_site& site) {
  constexpr int block = scan_policy::block, items = scan_policy::items<T>, tile = block * items;
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
  if constexpr (exact_scan_v<T>) {
    using state_t = cub::ScanTileState<T>;
    std::size_t state_bytes = 0;
    ACC_DETAIL_CUDA_CHECK(state_t::AllocationSize(tiles, state_bytes), site);
    stream_buffer scratch(state_bytes, device, stream, site);
    char* base = static_cast<char*>(scratch.get());
    state_t state;
    ACC_DETAIL_CUDA_CHECK(state.Init(tiles, base, state_bytes), site);
    launch(&init_tile_state<state_t>, {unsigned((tiles + 255) / 256), 256u}, 0, stream, site, state, tiles);
    launch(&scan_tiles<tile_mode::lookback, block, items, T, Count, Index, Op, Body, state_t>,
           {unsigned(tiles), unsigned(block)}, 0, stream, site, body, lo, Count(total), op, id, state,
           static_cast<T*>(nullptr), d_total);
    scratch.release(site);
  } else {
    constexpr int sum_block = 1024;
    stream_buffer scratch(sizeof(T) * std::size_t(tiles), device, stream, site);
    T* sums = static_cast<T*>(scratch.get());
    launch(&scan_tiles<tile_mode::reduce, block, items, T, Count, Index, Op, Body, no_tile_state>,
           {unsigned(tiles), unsigned(block)}, 0, stream, site, body, lo, Count(total), op, id, no_tile_state{}, sums,
           d_total);
    launch(&scan_tile_sums<sum_block, T, Op>, {1u, unsigned(sum_block)}, 0, stream, site, sums, tiles, op, id);
    launch(&scan_tiles<tile_mode::rescan, block, items, T, Count, Index, Op, Body, no_tile_state>,
           {unsigned(tiles), unsigned(block)}, 0, stream, site, body, lo, Count(total), op, id, no_tile_state{}, sums,
           d_total);
    scratch.release(site);
  }
  ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);  // the caller gets the total
  std::memcpy(&result, out.host(), sizeof(T));
  return result;
}

/// parallel_scan on ctx.device (task.total > 0 iterations); returns the total.
template <class Index, class Op, class T, class Body>
T run(backend, const parallel_scan_task<index_space<Index, 1>, Op, T>& task, const Body& body,
      const launch_context& ctx) {
  const cudaStream_t stream = begin_launch(ctx);
  // 32-bit counters while every iteration number of every tile fits.
  if (task.total <= (std::uint64_t(1) << 31) - std::uint64_t(scan_policy::block * scan_policy::items<T>))
    return parallel_scan_with<T, std::uint32_t>(task.space.lo[0], task.total, ctx.device, stream, task.op, body,
                                                ctx.site);
  return parallel_scan_with<T, std::uint64_t>(task.space.lo[0], task.total, ctx.device, stream, task.op, body,
                                              ctx.site);
}

}  // namespace acc::detail::cuda
