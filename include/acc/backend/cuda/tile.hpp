//! @file CUDA backend of acc::tile_loop: one block per tile, threadIdx = position in the tile
//! (last dimension in x), cached clauses in dynamic shared memory. Usually blockIdx.x/y/z are
//! the tile's coordinates and tile arithmetic is 32-bit (tile_grid_kernel); when num_gangs caps
//! the grid, tile counts exceed the grid's limits or indices need 64 bits, tile_kernel runs
//! (grid-stride over tile numbers, 64-bit). The body's operations: backend/cuda/tile_ops.hpp.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/detail/task.hpp>
#include <acc/backend/cuda/tile_ops.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/tile_box.hpp>
#include <acc/detail/tile_fwd.hpp>
#include <acc/detail/tile_plan.hpp>
#include <acc/detail/tile_range.hpp>
#include <acc/detail/tile_state.hpp>
#include <acc/error.hpp>
#include <acc/tile_clauses.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail::cuda {

/// tile_loop: the block is the tile (its shape comes from tile_size, not from a policy); this
/// only caps limits_of_kernel's occupancy query, so there is nothing here to tune. The tile
/// programs' timings against hand-written kernels are in bench/results/h100-tiles.txt.
struct tile_policy {
  static constexpr int max_block = 1024;
};

/// Stages a cached clause for tile t in shared memory (loaded cooperatively if it has fetch;
/// the caller synchronises); a scratch clause is its view of shared memory, from 0.
template <std::size_t Rank, class Index, class Spec>
__device__ auto stage(const Spec& s, [[maybe_unused]] const tile_t<Rank, Index>& t, unsigned char* shared,
                      std::size_t offset) {
  using T = typename Spec::element_type;
  using U = std::remove_cv_t<T>;
  U* storage = static_cast<U*>(__builtin_assume_aligned(shared + offset, 16));
  if constexpr (is_scratch_v<Spec>) {
    return scratch_view<T, Spec::rank>(storage, s.extents);
  } else {
    const cache_box<Rank> b = box_of(t, s.range, s.source, last_dim_align_v<Spec>);
    if (s.mode.has(fetch)) load_box<Rank, cuda::tile_ops>(s.source, storage, b);
    return view_on<T, Rank>(storage, b, s.label);
  }
}

/// Stores the tile's own range of a write_back clause (collective; after a barrier).
template <std::size_t Rank, class Index, class Spec>
__device__ void unstage(const Spec& s, const tile_t<Rank, Index>& t, unsigned char* shared, std::size_t offset) {
  using T = typename Spec::element_type;
  if constexpr (!std::is_const_v<T> && !is_scratch_v<Spec>) {
    if (!s.mode.has(write_back)) return;
    const cache_box<Rank> b = box_of(t, s.range, s.source, last_dim_align_v<Spec>);
    std::int64_t lo[Rank] = {}, hi[Rank] = {};
    own_range(t, s.range, b, lo, hi);
    store_box<Rank, cuda::tile_ops>(s.source, reinterpret_cast<const T*>(shared + offset), b, lo, hi);
  }
}

template <class Index, std::size_t Rank, class Body, class... S, std::size_t N, std::size_t... K>
__device__ void run_tile(const tile_geometry<Index, Rank>& g, std::uint64_t num, const tile_layout<N>& layout,
                         std::size_t cache_bytes, const tile_closure<Body, std::tuple<S...>>& c, unsigned char* shared,
                         std::index_sequence<K...>) {
  const tile_t<Rank, Index> t(g, num, shared + (N == 0 ? 0 : layout.cache_offset), cache_bytes, nullptr);
  const std::tuple<view_of_spec_t<S>...> views{cuda::stage(std::get<K>(c.specs), t, shared, layout.offset[K])...};
  if ((mode_of(std::get<K>(c.specs)).has(fetch) || ... || false)) __syncthreads();
  call_tile_body<cuda::tile_ops>(c.body, t, std::get<K>(views)...);
  cuda::tile_ops::check_cache_room(t);
  if ((mode_of(std::get<K>(c.specs)).has(write_back) || ... || false)) {
    __syncthreads();
    (cuda::unstage(std::get<K>(c.specs), t, shared, layout.offset[K]), ...);
  }
}

template <class Index, std::size_t Rank, class Closure, std::size_t N>
__global__ void tile_kernel(tile_geometry<Index, Rank> g, tile_layout<N> layout, std::size_t cache_bytes, Closure c) {
  extern __shared__ __align__(16) unsigned char tile_shared[];
  for (std::uint64_t num = blockIdx.x; num < g.total; num += gridDim.x) {
    if (num != blockIdx.x) __syncthreads();  // the previous tile's readers and stores are done
    run_tile(g, num, layout, cache_bytes, c, tile_shared, std::make_index_sequence<std::tuple_size_v<decltype(c.specs)>>{});
  }
}

// ---- One gang per tile on a 1D-3D grid, 32-bit tile arithmetic (the common case) ----------
//
// When the tile counts fit the grid's limits, the construct does not cap the gangs, and every
// iteration index, tile end, cached box and array extent fits in 32 bits (the tile_task entry checks
// this on the host), blockIdx gives the tile's coordinates directly (no division per tile),
// boxes are computed in 32 bits, and the cooperative load and store run one flat loop over the
// box's storage (consecutive threads, consecutive elements), so that no warp runs mostly-empty
// iterations of a loop nest. Otherwise tile_kernel above (grid-stride, 64-bit) runs.

/// What the grid kernel needs of each cached clause's box that is the same for every tile:
/// its extents, the block's thread count as a mixed-radix number over them (the step of the
/// flat load loop in box coordinates), and per extent e a multiplier for q = tid / e without a
/// division: q = umulhi(tid, lo) + tid * hi, where (hi, lo) = floor(2^32 / e) + 1, exact for
/// tid * e < 2^32 (tid < 1024, e < 2^22: checked on the host).
template <std::size_t Rank, std::size_t N>
struct tile_grid_plan {
  unsigned ext[N ? N : 1][Rank];
  unsigned step[N ? N : 1][Rank];
  unsigned magic_lo[N ? N : 1][Rank];
  unsigned magic_hi[N ? N : 1][Rank];
};

/// A cached clause's box for one tile, in 32 bits: storage origin and the valid range [lo, hi).
template <std::size_t R>
struct narrow_box {
  int origin[R];
  int lo[R];
  int hi[R];
};

template <std::size_t R, class Index, class Spec>
__device__ narrow_box<R> narrow_box_of(const tile_t<R, Index>& t, const Spec& s, const unsigned* ext) {
  constexpr int align = static_cast<int>(last_dim_align_v<Spec>);  // > 1: a widened fixed last dimension
  narrow_box<R> b;
  for (std::size_t d = 0; d < R; ++d) {
    const bool widened = align > 1 && d == R - 1;
    const int o = s.range[d].is_fixed() ? static_cast<int>(s.range[d].lo())
                                      : static_cast<int>(t.origin(d)) - static_cast<int>(s.range[d].before());
    const int n = static_cast<int>(s.source.extent(d));
    const int end = o + (widened ? static_cast<int>(s.range[d].count()) : static_cast<int>(ext[d]));
    b.origin[d] = widened ? o & -align : o;
    b.lo[d] = o < 0 ? 0 : o;
    const int h = end < n ? end : n;
    b.hi[d] = h < b.lo[d] ? b.lo[d] : h;
  }
  return b;
}

/// f(off, global indices of box coordinates a): origin[d] + a[d], unsigned.
template <std::size_t R, class F, std::size_t... D>
__device__ void call_with_indices(const F& f, unsigned off, const int* origin, const unsigned* a,
                                  std::index_sequence<D...>) {
  f(off, static_cast<unsigned>(origin[D] + static_cast<int>(a[D]))...);
}

/// Calls f(off, g0[, g1[, g2]]) (unsigned global indices) for every element of [lo, hi) of a
/// box of extents ext at origin, off being its offset in the box's storage. One loop over the
/// storage: thread tid takes elements tid, tid + threads, ...; its box coordinates advance by
/// `step` (threads in the box's mixed radix), with one carry per dimension.
template <std::size_t R, class F, std::size_t N>
__device__ void for_each_in_box_flat(const tile_grid_plan<R, N>& plan, std::size_t clause, const int* origin,
                                     const int* lo, const int* hi, const F& f) {
  const unsigned* ext = plan.ext[clause];
  const unsigned* step = plan.step[clause];
  unsigned volume = 1;
  for (std::size_t d = 0; d < R; ++d) volume *= ext[d];
  const unsigned tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (tid >= volume) return;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned a[R], first[R], span[R];
  unsigned rest = tid;
  for (std::size_t d = R; d-- > 1;) {
    const unsigned q = __umulhi(rest, plan.magic_lo[clause][d]) + rest * plan.magic_hi[clause][d];
    a[d] = rest - q * ext[d];
    rest = q;
  }
  a[0] = rest;
  for (std::size_t d = 0; d < R; ++d) {
    first[d] = static_cast<unsigned>(lo[d] - origin[d]);
    span[d] = static_cast<unsigned>(hi[d] - lo[d]);
  }
  for (unsigned k = tid; k < volume; k += threads) {
    bool in = true;
    for (std::size_t d = 0; d < R; ++d) in = in && a[d] - first[d] < span[d];
    if (in) call_with_indices<R>(f, k, origin, a, std::make_index_sequence<R>{});
    unsigned carry = 0;
    for (std::size_t d = R; d-- > 0;) {
      a[d] += step[d] + carry;
      carry = 0;
      if (d > 0 && a[d] >= ext[d]) {
        a[d] -= ext[d];
        carry = 1;
      }
    }
  }
}

/// stage() for the grid kernel: clause K's box in 32 bits, loaded with the flat loop.
template <std::size_t K, std::size_t Rank, class Index, class Spec, std::size_t N>
__device__ auto stage_grid(const Spec& s, const tile_t<Rank, Index>& t, const tile_grid_plan<Rank, N>& plan,
                           unsigned char* shared, std::size_t offset) {
  using T = typename Spec::element_type;
  using U = std::remove_cv_t<T>;
  if constexpr (is_scratch_v<Spec>) {
    return cuda::stage(s, t, shared, offset);
  } else {
    constexpr unsigned align = static_cast<unsigned>(last_dim_align_v<Spec>);
    const narrow_box<Rank> b = narrow_box_of(t, s, plan.ext[K]);
    // Clause offsets are multiples of 16 bytes (layout_of), as the dynamic shared memory.
    U* storage = static_cast<U*>(__builtin_assume_aligned(shared + offset, 16));
    if (s.mode.has(fetch))
      for_each_in_box_flat<Rank>(plan, K, b.origin, b.lo, b.hi,
                                 [&](unsigned off, auto... g) { storage[off] = s.source(g...); });
    std::int64_t origin[Rank], stride[Rank], lo[Rank], hi[Rank];
    unsigned st = 1;
    for (std::size_t d = Rank; d-- > 0;) {
      stride[d] = st;
      // A widened last extent is a multiple of align already; the mask tells the compiler.
      st *= d == Rank - 1 ? plan.ext[K][d] & ~(align - 1) : plan.ext[K][d];
      origin[d] = b.origin[d];
      lo[d] = b.lo[d];
      hi[d] = b.hi[d];
    }
    return cached_view<T, Rank>(storage, origin, stride, lo, hi, s.label);
  }
}

/// unstage() for the grid kernel: the tile's own range of a write_back clause.
template <std::size_t K, std::size_t Rank, class Index, class Spec, std::size_t N>
__device__ void unstage_grid(const Spec& s, const tile_t<Rank, Index>& t, const tile_grid_plan<Rank, N>& plan,
                             unsigned char* shared, std::size_t offset) {
  using T = typename Spec::element_type;
  if constexpr (!std::is_const_v<T> && !is_scratch_v<Spec>) {
    if (!s.mode.has(write_back)) return;
    const narrow_box<Rank> b = narrow_box_of(t, s, plan.ext[K]);
    int lo[Rank], hi[Rank];
    for (std::size_t d = 0; d < Rank; ++d) {
      lo[d] = b.lo[d];
      hi[d] = b.hi[d];
      if (!s.range[d].is_fixed()) {
        const int o = static_cast<int>(t.origin(d));
        if (lo[d] < o) lo[d] = o;
        if (hi[d] > o + t.count(d)) hi[d] = o + t.count(d);
      }
      if (hi[d] < lo[d]) hi[d] = lo[d];
    }
    const T* storage = reinterpret_cast<const T*>(shared + offset);
    for_each_in_box_flat<Rank>(plan, K, b.origin, lo, hi,
                               [&](unsigned off, auto... g) { s.source(g...) = storage[off]; });
  }
}

template <class Index, std::size_t Rank, class Body, class... S, std::size_t N, std::size_t... K>
__device__ void run_grid_tile(const tile_geometry<Index, Rank>& g, const tile_grid_plan<Rank, N>& plan,
                              const tile_layout<N>& layout, std::size_t cache_bytes,
                              const tile_closure<Body, std::tuple<S...>>& c, unsigned char* shared,
                              std::index_sequence<K...>) {
  unsigned coord[Rank];
  coord[Rank - 1] = blockIdx.x;
  if constexpr (Rank >= 2) coord[Rank - 2] = blockIdx.y;
  if constexpr (Rank >= 3) coord[Rank - 3] = blockIdx.z;
  // Without cached clauses the acc::cache area starts at 0: a constant the compiler folds into
  // the views' shared-memory addresses.
  const tile_t<Rank, Index> t(g, coord, shared + (N == 0 ? 0 : layout.cache_offset), cache_bytes);
  const std::tuple<view_of_spec_t<S>...> views{
      cuda::stage_grid<K>(std::get<K>(c.specs), t, plan, shared, layout.offset[K])...};
  if ((mode_of(std::get<K>(c.specs)).has(fetch) || ... || false)) __syncthreads();
  call_tile_body<cuda::tile_ops>(c.body, t, std::get<K>(views)...);
  cuda::tile_ops::check_cache_room(t);
  if ((mode_of(std::get<K>(c.specs)).has(write_back) || ... || false)) {
    __syncthreads();
    (cuda::unstage_grid<K>(std::get<K>(c.specs), t, plan, shared, layout.offset[K]), ...);
  }
}

template <class Index, std::size_t Rank, class Closure, std::size_t N>
__global__ void tile_grid_kernel(tile_geometry<Index, Rank> g, tile_grid_plan<Rank, N> plan, tile_layout<N> layout,
                                 std::size_t cache_bytes, Closure c) {
  extern __shared__ __align__(16) unsigned char tile_shared[];
  run_grid_tile(g, plan, layout, cache_bytes, c, tile_shared,
                std::make_index_sequence<std::tuple_size_v<decltype(c.specs)>>{});
}

/// Whether v (any integer type) lies in [lo, hi].
template <class V>
constexpr bool within(V v, [[maybe_unused]] long long lo, long long hi) {
  if constexpr (std::is_signed_v<V>) return static_cast<long long>(v) >= lo && static_cast<long long>(v) <= hi;
  else return static_cast<unsigned long long>(v) <= static_cast<unsigned long long>(hi);
}

/// Whether a box extent along a dimension other than the first is too large for the plan's
/// multipliers (tid * extent must stay below 2^32).
inline bool ext_limit_exceeded(const dim_range& r, int shape) {
  const long long e = r.is_fixed() ? r.count() : static_cast<long long>(shape) + r.before() + r.after();
  return e >= (1LL << 22) - 32;  // room for a fixed last dimension widened to 16-byte boundaries
}

/// Whether the grid kernel can run g (see above); fills its plan.
template <class Index, std::size_t Rank, class Body, class... S>
bool plan_grid(const tile_geometry<Index, Rank>& g, int num_gangs, unsigned threads,
               const tile_closure<Body, std::tuple<S...>>& c, tile_grid_plan<Rank, sizeof...(S)>& plan) {
  constexpr long long imax = 0x7fffffffLL, imin = -imax - 1;
  if (num_gangs > 0 && static_cast<std::uint64_t>(num_gangs) < g.total) return false;
  for (std::size_t d = 0; d < Rank; ++d) {
    const std::uint64_t limit = d == Rank - 1 ? 0x7fffffffu : 65535u;
    if (g.tiles[d] > limit) return false;
    // Iteration indices lo .. lo + count + shape (a tile's end) fit in int.
    if (!within(g.lo[d], imin / 2, imax / 2) || g.count[d] > std::uint64_t(imax / 4) ||
        std::uint64_t(g.shape[d]) > std::uint64_t(imax / 8))
      return false;
  }
  bool ok = true;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (([&] {
       const auto& s = std::get<K>(c.specs);
       // A scratch clause is neither loaded nor stored: the flat loops never see it.
       if constexpr (is_scratch_v<decltype(s)>) return;
       else {
         for (std::size_t d = 0; d < Rank; ++d) {
           const dim_range& r = s.range[d];
           const long long n = s.source.extent(d) > std::size_t(imax) ? -1 : static_cast<long long>(s.source.extent(d));
           long long ext = 0;
           if (n < 0) ok = false;
           if (d > 0 && ext_limit_exceeded(r, g.shape[d])) ok = false;
           if (r.is_fixed()) {
             if (r.lo() < imin / 2 || r.lo() > imax / 2 || r.count() < 0 || r.count() > imax / 4) ok = false;
             if (!ok) return;
             ext = d == Rank - 1 ? widened_ext(r.lo(), r.count(), last_dim_align_v<std::remove_cvref_t<decltype(s)>>) : r.count();
           } else {
             ext = static_cast<long long>(g.shape[d]) + r.before() + r.after();
             if (r.before() < 0 || r.after() < 0 || r.before() > imax / 8 || r.after() > imax / 8) ok = false;
           }
           if (!ok) return;
           plan.ext[K][d] = static_cast<unsigned>(ext);
         }
         std::uint64_t volume = 1;  // each factor < 2^31: no overflow before the check
         for (std::size_t d = 0; d < Rank && ok; ++d) {
           volume *= plan.ext[K][d];
           if (volume > 0x3fffffffu) ok = false;
         }
         if (!ok) return;
         for (std::size_t d = 0; d < Rank; ++d) {
           const std::uint64_t e = plan.ext[K][d], m = e ? (std::uint64_t(1) << 32) / e + 1 : 0;
           plan.magic_lo[K][d] = static_cast<unsigned>(m);
           plan.magic_hi[K][d] = static_cast<unsigned>(m >> 32);
         }
         unsigned rest = threads;
         for (std::size_t d = Rank; d-- > 1;) {
           plan.step[K][d] = plan.ext[K][d] ? rest % plan.ext[K][d] : 0;
           rest = plan.ext[K][d] ? rest / plan.ext[K][d] : 0;
         }
         plan.step[K][0] = rest;
       }
     }()),
     ...);
  }(std::index_sequence_for<S...>{});
  return ok;
}

inline std::string tile_shape_text(const int* shape, std::size_t rank) {
  std::string s = "tile_size(";
  for (std::size_t d = 0; d < rank; ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + ")";
}

/// tile_loop on ctx.device (task.geometry.total > 0).
template <class Index, std::size_t Rank, std::size_t N, class Closure>
void run(backend, const tile_task<tile_geometry<Index, Rank>, tile_layout<N>>& task, const Closure& c,
         const launch_context& ctx) {
  const tile_geometry<Index, Rank>& g = task.geometry;
  const tile_layout<N>& layout = task.layout;
  std::size_t cache_bytes = task.cache_bytes;  // a kernel argument, passed by address
  const launch_spec& spec = ctx.spec;
  const int device = ctx.device;
  const call_site& site = ctx.site;
  const cudaStream_t stream = begin_launch(ctx);

  const unsigned x = unsigned(g.shape[Rank - 1]);
  const unsigned y = Rank >= 2 ? unsigned(g.shape[Rank - 2]) : 1u;
  const unsigned z = Rank >= 3 ? unsigned(g.shape[Rank - 3]) : 1u;
  const long long threads = static_cast<long long>(x) * y * z;

  // A shape above a block's 1024 threads or 64 in z was refused for every backend
  // (check_tile_spec); a kernel's own limit can be lower (below).
  tile_grid_plan<Rank, N> plan{};
  const bool on_grid = plan_grid(g, spec.num_gangs, static_cast<unsigned>(threads), c, plan);
  const void* kernel = on_grid ? reinterpret_cast<const void*>(&tile_grid_kernel<Index, Rank, Closure, N>)
                               : reinterpret_cast<const void*>(&tile_kernel<Index, Rank, Closure, N>);
  const kernel_limits& k = on_grid ? limits_of_kernel<tile_policy>(&tile_grid_kernel<Index, Rank, Closure, N>, device, site)
                                   : limits_of_kernel<tile_policy>(&tile_kernel<Index, Rank, Closure, N>, device, site);
  if (threads > k.max_block)
    fail<bad_clause>(site, tile_shape_text(g.shape, Rank) + " = " + std::to_string(threads) +
                               " threads per gang; device " + std::to_string(device) + " runs at most " +
                               std::to_string(k.max_block) + " for this tile_loop");

  const std::size_t shared = layout.total;
  if (shared + k.static_shared > 48 * 1024) {
    static per_device<int> allowed[2];  // per kernel (this function is per body): off and on the grid
    const int optin = allow_shared(allowed[on_grid], kernel, k.static_shared, device, site);
    if (shared + k.static_shared > static_cast<std::size_t>(optin))
      fail<bad_clause>(site, "the tile asks " + std::to_string(shared + k.static_shared) +
                                 " bytes of shared memory (" + std::to_string(layout.cache_offset) +
                                 " for cached clauses, " + std::to_string(shared - layout.cache_offset) +
                                 " for acc::cache_bytes, " + std::to_string(k.static_shared) + " static), device " +
                                 std::to_string(device) + " allows " + std::to_string(optin));
  }
  // Above 48 KiB a gang's shared memory is an opt-in (allow_shared) of the runtime's launch.
  const cudaFunction_t handle = shared + k.static_shared > 48 * 1024 ? nullptr : launch_handle(k, kernel);
  // Kernel arguments by address, as the launch copies them; the closure is not copied again
  // on the host (its arrays already hold device addresses).
  if (on_grid) {
    const dim3 grid(unsigned(g.tiles[Rank - 1]), Rank >= 2 ? unsigned(g.tiles[Rank >= 2 ? Rank - 2 : 0]) : 1u,
                    Rank >= 3 ? unsigned(g.tiles[0]) : 1u);
    void* argv[] = {const_cast<tile_geometry<Index, Rank>*>(&g), &plan, const_cast<tile_layout<N>*>(&layout),
                    &cache_bytes, const_cast<Closure*>(&c)};
    ACC_DETAIL_CUDA_CHECK(launch_kernel(kernel, handle, grid, dim3(x, y, z), argv, shared, stream), site);
  } else {
    const std::uint64_t cap = spec.num_gangs ? std::uint64_t(spec.num_gangs) : std::uint64_t(0x7fffffff);
    const unsigned grid = static_cast<unsigned>(g.total < cap ? g.total : cap);
    void* argv[] = {const_cast<tile_geometry<Index, Rank>*>(&g), const_cast<tile_layout<N>*>(&layout), &cache_bytes,
                    const_cast<Closure*>(&c)};
    ACC_DETAIL_CUDA_CHECK(launch_kernel(kernel, handle, dim3(grid), dim3(x, y, z), argv, shared, stream), site);
  }
  finish_launch(stream, spec.queue, site);
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
