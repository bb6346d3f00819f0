//! @file Warp primitives on shuffles: exchange of any trivially copyable value, reduction,
//! inclusive/exclusive scan and broadcast, for the whole (32-lane) warp. Every lane of the warp
//! calls them together (full mask). The combination orders are those of CUB's WarpReduceShfl
//! and WarpScanShfl, so that float and non-commutative results do not depend on which of the two
//! a kernel is built with.
#pragma once

#include <acc/detail/header_open.hpp>

#include <cstring>
#include <type_traits>

namespace acc::detail::cuda {

inline constexpr unsigned full_warp = 0xffffffffu;
inline constexpr int warp_size = 32;

/// The caller's lane (%laneid: right for any block shape whose rows are whole warps or not).
__device__ inline int lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return static_cast<int>(lane);
}

/// Bit i set for lanes i >= the caller's lane.
__device__ inline unsigned lanemask_ge() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(mask));
  return mask;
}

/// Moves v across the warp one 32-bit word at a time: the hardware shuffles 32 bits, and a
/// trivially copyable value is only its bytes. `move(word)` is one __shfl_*_sync.
template <class T, class Move>
__device__ T shuffle_words(const T& v, const Move& move) {
  static_assert(std::is_trivially_copyable_v<T>, "acc: values exchanged between lanes must be trivially copyable");
  constexpr int words = (int(sizeof(T)) + 3) / 4;
  unsigned in[words] = {}, out[words];
  std::memcpy(in, &v, sizeof(T));
#pragma unroll
  for (int w = 0; w < words; ++w) out[w] = move(in[w]);
  T r = v;
  std::memcpy(&r, out, sizeof(T));
  return r;
}

/// v of lane `src` (broadcast when every lane passes the same src).
template <class T>
__device__ T shfl(const T& v, int src) {
  return shuffle_words(v, [src](unsigned w) { return __shfl_sync(full_warp, w, src); });
}
/// v of lane (lane - delta); lanes below delta get their own v.
template <class T>
__device__ T shfl_up(const T& v, unsigned delta) {
  return shuffle_words(v, [delta](unsigned w) { return __shfl_up_sync(full_warp, w, delta); });
}
/// v of lane (lane + delta); lanes above 31 - delta get their own v.
template <class T>
__device__ T shfl_down(const T& v, unsigned delta) {
  return shuffle_words(v, [delta](unsigned w) { return __shfl_down_sync(full_warp, w, delta); });
}
/// v of lane (lane ^ mask).
template <class T>
__device__ T shfl_xor(const T& v, int mask) {
  return shuffle_words(v, [mask](unsigned w) { return __shfl_xor_sync(full_warp, w, mask); });
}

/// v of lane `src`, in every lane.
template <class T>
__device__ T broadcast(const T& v, int src) {
  return shfl(v, src);
}

/// Tree reduction towards lower lanes: at offsets 1, 2, 4, 8, 16 a lane takes the value
/// `offset` lanes up if that lane is at most its `last` lane. Lane L ends with the combination
/// of lanes L .. last (its own `last`, which may differ per lane: segmented reductions), in
/// the grouping of a binary tree. `combine(mine, theirs)` puts the two in the operator's order.
template <class T, class Combine>
__device__ T warp_tree_reduce(T v, int last, const Combine& combine) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < warp_size; offset *= 2) {
    const T up = shfl_down(v, offset);
    if (lane + offset <= last) v = combine(v, up);
  }
  return v;
}

/// op over lanes [0, valid) of v (lanes from `valid` on are ignored), in lane order; the
/// result is in lane 0 (other lanes hold partial results).
template <class T, class Op>
__device__ T warp_reduce(T v, const Op& op, int valid = warp_size) {
  return warp_tree_reduce(v, valid - 1, [&](const T& mine, const T& up) { return op(mine, up); });
}

/// op over the whole warp, in every lane.
template <class T, class Op>
__device__ T warp_reduce_all(T v, const Op& op) {
  return broadcast(warp_reduce(v, op), 0);
}

/// Inclusive scan over the warp in lane order (Kogge-Stone: at offsets 1, 2, 4, 8, 16 a lane
/// prepends the running value of the lane `offset` below it).
template <class T, class Op>
__device__ T warp_inclusive_scan(T v, const Op& op) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < warp_size; offset *= 2) {
    const T down = shfl_up(v, offset);
    if (lane >= offset) v = op(down, v);
  }
  return v;
}

/// Inclusive and exclusive scans over the warp; lane 0's exclusive value is undefined (there
/// is no initial value: callers put the identity or a prefix there).
template <class T, class Op>
__device__ void warp_scan(T v, const Op& op, T& inclusive, T& exclusive) {
  inclusive = warp_inclusive_scan(v, op);
  exclusive = shfl_up(inclusive, 1);
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
