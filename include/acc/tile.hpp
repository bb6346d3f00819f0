//! @file Software-managed-cache tiles: acc::tile_loop with cached arrays in fetch, channel and
//! write-back modes (Lashgar & Baniyasi's `fcw`, 2015), gang-private team-memory chunks (MACC's
//! dist_private / dist_firstprivate / dist_lastprivate, Ozen 2014), and acc::cache, OpenACC's
//! `cache` directive (OpenACC 3.3 §2.10).
//!
//! A tile is the block of iterations one gang runs: acc::tile_size(16, 16) gives 16 x 16
//! iterations per gang, one GPU thread each. For each array named in an acc::cached(...) clause
//! the gang keeps the tile's part of the array (plus a halo, or a constant range) in shared
//! memory; the body receives an acc::cached_view per clause and indexes it with global indices.
//!
//!   acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(16, 16),
//!                  acc::cached(t, acc::fetch, acc::halo(1, 1), acc::halo(1, 1)),
//!     ACC_LAMBDA(int i, int j, const acc::cached_view<float, 2>& tc) {
//!       out(i, j) = tc(i - 1, j) + tc(i + 1, j) + tc(i, j - 1) + tc(i, j + 1) - 4 * tc(i, j);
//!     });
//!
//! The body is either per iteration (form 1 above: indices, then one view per cached clause;
//! no barriers inside), or tile-level code (form 2: the tile handle, then the views) that runs
//! iteration loops with acc::tile_for, synchronises with acc::tile_barrier, keeps
//! iteration-private values across loops in acc::per_iteration and stages ranges with
//! acc::cache:
//!
//!   acc::tile_loop(n, acc::tile_size(256), acc::cache_bytes(256 * sizeof(float4)),
//!     ACC_LAMBDA(const acc::tile_t<1>& t) {
//!       acc::per_iteration<float3> f(t);
//!       for (int jt = 0; jt < n; jt += 256) {
//!         auto p = acc::cache(t, pos, acc::fixed(jt, std::min(256, n - jt)));
//!         acc::tile_for(t, [&](int i) { for (int j = jt; j < p.hi(0); ++j) f(i) += force(pos[i], p(j)); });
//!       }
//!       acc::tile_for(t, [&](int i) { out[i] = f(i); });
//!     });
//!
//! acc::cache also takes a list of array sections, as the directive does
//! (`#pragma acc cache(a[i0:16][k0:16], b[k0:16][j0:16])`): one call, one view per section, and
//! on a GPU every section's load issued before any store to shared memory:
//!
//!   const auto [as, bs] = acc::cache(t, acc::section(a, acc::fixed(i0, 16), acc::fixed(k0, 16)),
//!                                       acc::section(b, acc::fixed(k0, 16), acc::fixed(j0, 16)));
//!
//! This header brings the whole tile API: acc::tile_loop here, its clauses in
//! acc/tile_clauses.hpp, acc::cached_view in acc/cached_view.hpp, tile-level code (tile_t,
//! tile_for, tile_barrier, per_iteration) in acc/tile_level.hpp and acc::cache in acc/cache.hpp.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/array.hpp>
#include <acc/cache.hpp>
#include <acc/cached_view.hpp>
#include <acc/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/construct_data.hpp>
#include <acc/detail/nvtx.hpp>
#include <acc/detail/tile_args.hpp>
#include <acc/detail/tile_clauses.hpp>
#include <acc/detail/tile_run.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>
#include <acc/runtime.hpp>
#include <acc/tile_clauses.hpp>
#include <acc/tile_level.hpp>

#include <cstddef>
#include <source_location>
#include <tuple>
#include <utility>

namespace acc {

/// Runs `extent` in tiles of tile_size iterations, one gang per tile, with the arrays of the
/// acc::cached clauses staged in the gang's shared memory (software-managed cache; fcw's
/// fetch / channel / write-back, MACC's team-memory chunks). See the file comment for examples.
/// - `extent`: a count, acc::range(lo, hi) or acc::collapse(n0, n1[, n2]); tile_size has as
///   many extents (default 256, 16 x 16, 4 x 8 x 8; in 1D vector_length(n) also gives it).
/// - Clauses: acc::tile_size, acc::cached / dist_private / dist_firstprivate / dist_lastprivate
///   (any number, each array of the tile's rank), acc::scratch<T>(n0[, n1[, n2]]) (any number:
///   gang-private team memory of that shape, no array, indexed from 0), acc::cache_bytes (room
///   for acc::cache),
///   num_gangs (caps the gangs; they then take several tiles each), async, if_, device_num,
///   default_present, adaptive, and data clauses (copy, copyin, ...: a data region around the
///   construct, with its if_, async and device_num). num_workers, shared_bytes and reduction are
///   rejected at compile time.
/// - Body form 1, per iteration: body(i[, j[, k]], views...), one const cached_view<T, R>& per
///   cached or scratch clause in clause order; no barriers inside (reads of other iterations' channel
///   writes are not ordered). Form 2, tile level: body(const tile_t<R, Index>& t, views...),
///   run by every thread of the gang, calling acc::tile_for, tile_barrier, per_iteration and
///   acc::cache. Arrays captured by the body and those in cached clauses get implicit data as
///   in parallel_loop.
/// - Shared memory: per clause the product over dimensions of (tile size + before + after),
///   or the fixed count (a scratch clause: its extents), times sizeof(T), each rounded up to 16 bytes, plus cache_bytes. A
///   fixed range in the last dimension is widened to 16-byte boundaries in storage (rows of
///   4-byte elements can then be read four at a time); its valid range stays lo .. lo + count.
///   Above the device's opt-in limit: acc::bad_clause naming the bytes asked and allowed.
/// - On the host backend tiles run on OpenMP threads, a tile's iterations in order; fetch-only
///   clauses of const elements alias the array (the fetch is free: nothing can write through
///   them), every other clause uses a per-thread buffer with the same fetch and write-back as
///   on a GPU (so halos hold the values from the start of the tile, and writes to fetch, none
///   or channel storage never reach the array).
/// e.g. acc::tile_loop(n, acc::tile_size(128), acc::cached(x, acc::fetch, acc::halo(1, 1)),
///        ACC_LAMBDA(int i, const acc::cached_view<float, 1>& xc) { y[i] = xc(i - 1) + xc(i + 1); });
template <class Extent, class... Args>
struct tile_loop {
  tile_loop(Extent extent, Args&&... args, std::source_location where = std::source_location::current()) {
    if constexpr (detail::check_tile_args<Extent, Args...>()) {
      constexpr std::size_t rank = detail::extent_traits<Extent>::rank;
      const detail::call_site site{"tile_loop", where};
      static detail::nvtx_site nvtx;  // constant-initialised: no guard per construct
      auto all = std::forward_as_tuple(std::as_const(args)...);
      constexpr std::size_t n = sizeof...(Args) - 1;
      const auto spec = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return detail::fold_tile_args<rank>(std::get<I>(all)...);
      }(std::make_index_sequence<n>{});
      const auto specs = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return detail::cached_of(std::get<I>(all)...);
      }(std::make_index_sequence<n>{});
      detail::run_tile_loop(extent, spec, std::get<n>(all), specs, site, &nvtx);
    } else if constexpr (detail::construct_data_ok<Args...>()) {
      detail::with_construct_data(
          detail::call_site{"tile_loop", where},
          [&](const auto&... rest) { (void)tile_loop<Extent, decltype(rest)...>(extent, rest..., where); },
          std::as_const(args)...);
    }
  }
};

template <class Extent, class... Args>
tile_loop(Extent, Args&&...) -> tile_loop<Extent, Args...>;

}  // namespace acc

#include <acc/detail/header_close.hpp>
