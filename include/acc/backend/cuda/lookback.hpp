//! @file Decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan with
//! Decoupled Look-back", NVR-2016-002): each tile publishes its total, then its inclusive
//! prefix, in a descriptor; a tile's first warp combines its predecessors' descriptors 32 at a
//! time, back to the nearest one with an inclusive prefix. The same protocol and delays as
//! CUB's ScanTileState and TilePrefixCallbackOp.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/raw_storage.hpp>
#include <acc/backend/cuda/warp.hpp>

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace acc::detail::cuda {

/// A tile descriptor's state. `oob` marks the 32 descriptors before tile 0, so that a window
/// reaching before the first tile reads valid memory (tile 0 always ends the look-back).
enum class tile_status : unsigned { oob = 0, invalid = 1, partial = 2, inclusive = 3 };

/// The look-back's waits, in nanoseconds (__nanosleep). Start: once before the first window,
/// while the predecessors' stores travel through L2; Spin: between polls of an invalid window.
/// As CUB's delay helpers: small grids (below 500 blocks) do not sleep, they only keep the
/// compiler from hoisting the polls (__threadfence_block); Spin 0 never waits.
template <unsigned Spin, unsigned Start>
struct lookback_delay {
  static __device__ void pause(unsigned ns) {
#if __CUDA_ARCH__ >= 700
    if (ns == 0) return;
    if (gridDim.x < 500) __threadfence_block();
    else __nanosleep(ns);
#else
    __threadfence_block();
#endif
  }
  static __device__ void start() { pause(Start); }
  static __device__ void spin() { pause(Spin); }
};

/// Status and value in one 64-bit word (values of at most 4 bytes) or one 128-bit word (at most
/// 8 bytes), read and written whole by relaxed gpu-scope accesses: a reader never sees a
/// status without its value, so no fence is needed.
template <class T>
inline constexpr bool packed_tile_state_v = sizeof(T) <= 8;

template <class T, bool Packed = packed_tile_state_v<T>>
class tile_state;

template <class T>
class tile_state<T, true> {
  static constexpr bool wide = sizeof(T) > 4;
  // wide: {status, value} as two 64-bit halves; else status in the low 32 bits.
  using word = std::conditional_t<wide, ulonglong2, unsigned long long>;

public:
  /// Bytes of descriptors for `tiles` tiles.
  static constexpr std::size_t bytes(int tiles) { return sizeof(word) * (std::size_t(tiles) + warp_size); }

  tile_state() = default;
  /// Descriptors in `memory` (device memory of bytes(tiles), 256-byte aligned).
  tile_state(void* memory, int /*tiles*/) : d_(static_cast<word*>(memory)) {}

  /// Called by a grid of at least `tiles` threads before the scan: all tiles invalid.
  __device__ void initialize(int tiles) const {
    const int t = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (t < tiles) d_[warp_size + t] = empty(tile_status::invalid);
    if (blockIdx.x == 0 && threadIdx.x < warp_size) d_[threadIdx.x] = empty(tile_status::oob);
  }
  __device__ void set_partial(int tile, const T& v) const { store(tile, tile_status::partial, v); }
  __device__ void set_inclusive(int tile, const T& v) const { store(tile, tile_status::inclusive, v); }

  /// Polls the caller's descriptor until no lane of the warp sees an invalid one.
  template <class Delay>
  __device__ void wait(int tile, tile_status& status, T& value) const {
    word w = load(tile);
    while (__any_sync(full_warp, status_of(w) == tile_status::invalid)) {
      Delay::spin();
      w = load(tile);
    }
    status = status_of(w);
    value = value_of(w);
  }

private:
  static __device__ word empty(tile_status s) {
    word w{};
    if constexpr (wide) w.x = static_cast<unsigned long long>(s);
    else w = static_cast<unsigned long long>(s);
    return w;
  }
  __device__ void store(int tile, tile_status s, const T& v) const {
    word* p = d_ + warp_size + tile;
    if constexpr (wide) {
      unsigned long long bits = 0;
      std::memcpy(&bits, &v, sizeof(T));
      const unsigned long long st = static_cast<unsigned long long>(s);
#if __CUDA_ARCH__ >= 700
      asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(st), "l"(bits) : "memory");
#else
      asm volatile("st.global.cg.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(st), "l"(bits) : "memory");
#endif
    } else {
      unsigned bits = 0;
      std::memcpy(&bits, &v, sizeof(T));
      const unsigned long long w = static_cast<unsigned long long>(s) | (static_cast<unsigned long long>(bits) << 32);
#if __CUDA_ARCH__ >= 700
      asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(w) : "memory");
#else
      asm volatile("st.global.cg.u64 [%0], %1;" ::"l"(p), "l"(w) : "memory");
#endif
    }
  }
  __device__ word load(int tile) const {
    const word* p = d_ + warp_size + tile;
    word w;
    if constexpr (wide) {
#if __CUDA_ARCH__ >= 700
      asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(w.x), "=l"(w.y) : "l"(p) : "memory");
#else
      asm volatile("ld.global.cg.v2.u64 {%0, %1}, [%2];" : "=l"(w.x), "=l"(w.y) : "l"(p) : "memory");
#endif
    } else {
#if __CUDA_ARCH__ >= 700
      asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
#else
      asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
#endif
    }
    return w;
  }
  static __device__ tile_status status_of(const word& w) {
    if constexpr (wide) return static_cast<tile_status>(w.x);
    else return static_cast<tile_status>(static_cast<unsigned>(w));
  }
  static __device__ T value_of(const word& w) {
    alignas(T) unsigned char raw[sizeof(T)];
    if constexpr (wide) std::memcpy(raw, &w.y, sizeof(T));
    else {
      const unsigned bits = static_cast<unsigned>(w >> 32);
      std::memcpy(raw, &bits, sizeof(T));
    }
    T v;
    std::memcpy(&v, raw, sizeof(T));
    return v;
  }

  word* d_ = nullptr;
};

/// Larger values: statuses, partial values and inclusive values in three arrays. A value is
/// stored (L2, bypassing L1) before its status with release semantics; a reader fences after
/// seeing the status and reads the value from L2.
template <class T>
class tile_state<T, false> {
  static constexpr int words = (int(sizeof(T)) + 3) / 4;
  struct slot {
    unsigned w[std::size_t(words)];  // explicit: an int bound is a sign conversion to g++
  };
  static constexpr std::size_t round(std::size_t b) { return (b + 255) / 256 * 256; }

public:
  static constexpr std::size_t bytes(int tiles) {
    const std::size_t n = std::size_t(tiles) + warp_size;
    return round(n * sizeof(unsigned)) + 2 * round(n * sizeof(slot));
  }

  tile_state() = default;
  tile_state(void* memory, int tiles) {
    const std::size_t n = std::size_t(tiles) + warp_size;
    char* base = static_cast<char*>(memory);
    status_ = reinterpret_cast<unsigned*>(base);
    partial_ = reinterpret_cast<slot*>(base + round(n * sizeof(unsigned)));
    inclusive_ = reinterpret_cast<slot*>(base + round(n * sizeof(unsigned)) + round(n * sizeof(slot)));
  }

  __device__ void initialize(int tiles) const {
    const int t = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (t < tiles) status_[warp_size + t] = unsigned(tile_status::invalid);
    if (blockIdx.x == 0 && threadIdx.x < warp_size) status_[threadIdx.x] = unsigned(tile_status::oob);
  }
  __device__ void set_partial(int tile, const T& v) const { publish(partial_, tile, tile_status::partial, v); }
  __device__ void set_inclusive(int tile, const T& v) const { publish(inclusive_, tile, tile_status::inclusive, v); }

  template <class Delay>
  __device__ void wait(int tile, tile_status& status, T& value) const {
    const unsigned* p = status_ + warp_size + tile;
    unsigned s;
    do {
      Delay::spin();
#if __CUDA_ARCH__ >= 700
      asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(s) : "l"(p) : "memory");
#else
      s = *static_cast<const volatile unsigned*>(p);
#endif
      __threadfence();
    } while (__any_sync(full_warp, s == unsigned(tile_status::invalid)));
    status = static_cast<tile_status>(s);
    const slot* from = status == tile_status::partial     ? partial_
                       : status == tile_status::inclusive ? inclusive_
                                                          : nullptr;
    if (from) {
      slot v;
#pragma unroll
      for (int k = 0; k < words; ++k) v.w[k] = __ldcg(&from[warp_size + tile].w[k]);
      std::memcpy(&value, &v, sizeof(T));
    }
  }

private:
  __device__ void publish(slot* values, int tile, tile_status s, const T& v) const {
    slot bits{};
    std::memcpy(&bits, &v, sizeof(T));
#pragma unroll
    for (int k = 0; k < words; ++k) __stcg(&values[warp_size + tile].w[k], bits.w[k]);
    unsigned* p = status_ + warp_size + tile;
#if __CUDA_ARCH__ >= 700
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(unsigned(s)) : "memory");
#else
    __threadfence();
    *static_cast<volatile unsigned*>(p) = unsigned(s);
#endif
  }

  unsigned* status_ = nullptr;
  slot* partial_ = nullptr;
  slot* inclusive_ = nullptr;
};

/// The prefix callback of a tile after the first (block_scan's *_with): publishes the tile's
/// total, looks back for its exclusive prefix, publishes its inclusive prefix. Called by all of
/// warp 0; the result is valid in lane 0.
template <class T, class Op, class State, class Delay>
class tile_prefix {
public:
  struct storage {
    raw_storage<T, 1> exclusive, inclusive;
  };

  __device__ tile_prefix(const State& state, storage& s, const Op& op, int tile)
      : state_(state), s_(s), op_(op), tile_(tile) {}

  __device__ T operator()(const T& aggregate) {
    const int lane = lane_id();
    if (lane == 0) state_.set_partial(tile_, aggregate);
    Delay::start();
    int predecessor = tile_ - lane - 1;
    tile_status status;
    T exclusive = window(predecessor, status);
    while (__all_sync(full_warp, status != tile_status::inclusive)) {
      predecessor -= warp_size;
      exclusive = op_(window(predecessor, status), exclusive);
    }
    if (lane == 0) {
      const T inclusive = op_(exclusive, aggregate);
      state_.set_inclusive(tile_, inclusive);
      s_.exclusive[0] = exclusive;
      s_.inclusive[0] = inclusive;
    }
    return exclusive;
  }

  /// The tile's inclusive prefix (after the block scan that called the callback).
  __device__ T inclusive_prefix() { return s_.inclusive[0]; }
  __device__ T exclusive_prefix() { return s_.exclusive[0]; }

private:
  /// Lane l waits for tile `predecessor` (tile_ - 1 - l in the first window); lane 0 gets the
  /// combination, oldest first, of lanes 0 .. the first lane whose tile has an inclusive prefix
  /// (or all 32).
  __device__ T window(int predecessor, tile_status& status) {
    T value;
    state_.template wait<Delay>(predecessor, status, value);
    const unsigned flags = (__ballot_sync(full_warp, status == tile_status::inclusive) & lanemask_ge()) | (1u << 31);
    const int last = __ffs(int(flags)) - 1;
    // Higher lanes hold older tiles: the one from above goes first.
    return warp_tree_reduce(value, last, [&](const T& mine, const T& up) { return op_(up, mine); });
  }

  const State& state_;
  storage& s_;
  Op op_;
  int tile_;
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
