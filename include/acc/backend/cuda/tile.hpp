//! @file CUDA backend of acc::tile_loop: one block per tile (grid-stride over tiles when the
//! grid is capped), threadIdx = position in the tile (last dimension in x), cached clauses in
//! dynamic shared memory. Included by acc/tile.hpp after the tile types.
#pragma once

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/runtime.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail::cuda {

/// tile_loop: the block is the tile (its shape comes from tile_size, not from a policy); this
/// only caps limits_of_kernel's occupancy query. TODO(measure): bench/tile (issue 6).
struct tile_policy {
  static constexpr int max_block = 1024;
};

/// Stages a cached clause for tile t in shared memory (loaded cooperatively if it has fetch;
/// the caller synchronises).
template <std::size_t Rank, class Index, class Spec>
__device__ auto stage(const Spec& s, const tile_t<Rank, Index>& t, unsigned char* shared, std::size_t offset) {
  using T = typename Spec::element_type;
  using U = std::remove_cv_t<T>;
  const cache_box<Rank> b = box_of(t, s.range, s.source);
  U* storage = reinterpret_cast<U*>(shared + offset);
  if (s.mode.has(fetch)) load_box<Rank>(s.source, storage, b);
  return view_on<T, Rank>(storage, b, s.label);
}

/// Stores the tile's own range of a write_back clause (collective; after a barrier).
template <std::size_t Rank, class Index, class Spec>
__device__ void unstage(const Spec& s, const tile_t<Rank, Index>& t, unsigned char* shared, std::size_t offset) {
  using T = typename Spec::element_type;
  if constexpr (!std::is_const_v<T>) {
    if (!s.mode.has(write_back)) return;
    const cache_box<Rank> b = box_of(t, s.range, s.source);
    std::int64_t lo[Rank] = {}, hi[Rank] = {};
    own_range(t, s.range, b, lo, hi);
    store_box<Rank>(s.source, reinterpret_cast<const T*>(shared + offset), b, lo, hi);
  }
}

template <class Index, std::size_t Rank, class Body, class... S, std::size_t N, std::size_t... K>
__device__ void run_tile(const tile_geometry<Index, Rank>& g, std::uint64_t num, const tile_layout<N>& layout,
                         std::size_t cache_bytes, const tile_closure<Body, std::tuple<S...>>& c, unsigned char* shared,
                         std::index_sequence<K...>) {
  const tile_t<Rank, Index> t(g, num, shared + layout.cache_offset, cache_bytes, nullptr);
  const std::tuple<view_of_spec_t<S>...> views{cuda::stage(std::get<K>(c.specs), t, shared, layout.offset[K])...};
  if ((std::get<K>(c.specs).mode.has(fetch) || ... || false)) __syncthreads();
  call_tile_body(c.body, t, std::get<K>(views)...);
  if ((std::get<K>(c.specs).mode.has(write_back) || ... || false)) {
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

inline std::string tile_shape_text(const int* shape, std::size_t rank) {
  std::string s = "tile_size(";
  for (std::size_t d = 0; d < rank; ++d) s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + ")";
}

/// Runs a tile_loop on `device` (g.total > 0).
template <class Index, std::size_t Rank, class Closure, std::size_t N>
void run_tiles(const tile_geometry<Index, Rank>& g, const launch_spec& spec, const tile_layout<N>& layout,
               std::size_t cache_bytes, int device, const Closure& c, const call_site& site) {
  register_ops();
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, spec.queue, site);
  auto kernel = &tile_kernel<Index, Rank, Closure, N>;
  const kernel_limits& k = limits_of_kernel<tile_policy>(kernel, device, site);

  const unsigned x = unsigned(g.shape[Rank - 1]);
  const unsigned y = Rank >= 2 ? unsigned(g.shape[Rank - 2]) : 1u;
  const unsigned z = Rank >= 3 ? unsigned(g.shape[Rank - 3]) : 1u;
  const long long threads = static_cast<long long>(x) * y * z;
  if (threads > k.max_block)
    fail<bad_clause>(site, tile_shape_text(g.shape, Rank) + " = " + std::to_string(threads) +
                               " threads per gang; device " + std::to_string(device) + " runs at most " +
                               std::to_string(k.max_block) + " for this tile_loop");
  if (z > 64)
    fail<bad_clause>(site, tile_shape_text(g.shape, Rank) + ": the first of three extents runs in threadIdx.z, "
                                                            "at most 64 on NVIDIA GPUs");

  const std::size_t shared = layout.total;
  if (shared + k.static_shared > 48 * 1024) {
    int optin = 0;
    ACC_DETAIL_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), site);
    if (shared + k.static_shared > static_cast<std::size_t>(optin))
      fail<bad_clause>(site, "the tile asks " + std::to_string(shared + k.static_shared) +
                                 " bytes of shared memory (" + std::to_string(layout.cache_offset) +
                                 " for cached clauses, " + std::to_string(shared - layout.cache_offset) +
                                 " for acc::cache_bytes, " + std::to_string(k.static_shared) + " static), device " +
                                 std::to_string(device) + " allows " + std::to_string(optin));
    ACC_DETAIL_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)), site);
  }
  const std::uint64_t cap = spec.num_gangs ? std::uint64_t(spec.num_gangs) : std::uint64_t(0x7fffffff);
  const unsigned grid = static_cast<unsigned>(std::min(g.total, cap));
  // Kernel arguments by address, as cudaLaunchKernel copies them; the closure is not copied
  // again on the host (its arrays already hold device addresses).
  void* argv[] = {const_cast<tile_geometry<Index, Rank>*>(&g), const_cast<tile_layout<N>*>(&layout), &cache_bytes,
                  const_cast<Closure*>(&c)};
  ACC_DETAIL_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(grid), dim3(x, y, z), argv,
                                         shared, stream),
                        site);
  finish_launch(stream, spec.queue, site);
}

}  // namespace acc::detail::cuda
