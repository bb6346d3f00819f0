//! @file What a construct asks a backend to run: one task type per construct kind, the same
//! for every backend. A backend implements `run(backend, const Task&, const Body&, const
//! launch_context&)` for each (backend/host/backend.hpp lists them).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/clauses.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail {

/// Where and how a backend entry runs: the construct's clauses, the device (0 on the host)
/// and the user's call site for messages.
struct launch_context {
  const launch_spec& spec;
  int device;
  const call_site& site;
};

/// The iteration count of a space, or bad_clause if it does not fit in 64 bits; 0 when any
/// loop is empty, however long the others (collapse(LONG_MAX, LONG_MAX, 0) runs nothing).
template <class Index, std::size_t Rank>
std::uint64_t checked_size(const index_space<Index, Rank>& s, const call_site& site) {
  for (auto c : s.count)
    if (c == 0) return 0;
  std::uint64_t n = 1;
  for (auto c : s.count) {
    if (n > UINT64_MAX / c) fail<bad_clause>(site, "the collapsed iteration space exceeds 2^64 iterations");
    n *= c;
  }
  return n;
}

/// Tasks without a value to return.
struct no_result {
  using result_type = void;
  static constexpr void empty_result() noexcept {}
};

/// parallel_loop: body(i...) for every point of `space` (`total` points).
template <class Space>
struct loop_task : no_result {
  Space space;
  std::uint64_t total;
  bool empty() const noexcept { return total == 0; }
};

/// parallel_loop with reduction clauses: body(i..., T&...) with per-thread private copies,
/// folded into the variables at the end.
template <class Space, class Reds>
struct loop_reduction_task : no_result {
  Space space;
  std::uint64_t total;
  Reds reductions;
  bool empty() const noexcept { return total == 0; }
};

/// parallel: body(gang[, T&...]) in every thread of every gang; one private copy of each
/// reduction variable per gang.
template <class Reds>
struct region_task : no_result {
  Reds reductions;
  static constexpr bool empty() noexcept { return false; }
};

/// serial: body() once, by one thread of one gang (OpenACC's one gang, one worker, one lane).
struct serial_task : no_result {
  static constexpr bool empty() noexcept { return false; }
};

/// parallel_reduce: op(init, body(i...) for every point).
template <class Space, class Op, class T>
struct reduce_task {
  using result_type = T;
  Space space;
  std::uint64_t total;
  Op op;
  T init;
  bool empty() const noexcept { return total == 0; }
  T empty_result() const { return init; }
};

/// inclusive_scan / exclusive_scan of n elements from host range `in` to host range `out`.
/// The data are the task's, not a body's: the backend uses present copies where there are
/// some and stages the rest itself, so an output is never copied in.
template <bool Exclusive, class T, class V, class Op>
struct scan_task : no_result {
  static constexpr bool exclusive = Exclusive;
  // Its data are not a body's captures, which is what a host run under acc::adaptive keeps
  // coherent: ACC_DEVICE_TYPE=auto leaves scans where the device type puts them.
  static constexpr bool selectable = false;
  const T* in;
  std::uint64_t n;
  V* out;
  V init;
  Op op;
  host_span in_span, out_span;
  bool empty() const noexcept { return n == 0; }
};

/// What scan_task runs with: the scan has no body.
struct no_body {};

/// parallel_scan: body(i, T& partial, bool final) over `space`; returns the total.
template <class Space, class Op, class T>
struct parallel_scan_task {
  using result_type = T;
  Space space;
  std::uint64_t total;
  Op op;
  T identity;
  bool empty() const noexcept { return total == 0; }
  T empty_result() const { return identity; }
};

/// tile_loop: one gang per tile of `geometry`, with shared memory laid out as `layout`
/// (detail/tile_plan.hpp) and cache_bytes more for acc::cache.
template <class Geometry, class Layout>
struct tile_task : no_result {
  Geometry geometry;
  Layout layout;
  std::size_t cache_bytes;
  bool empty() const noexcept { return geometry.total == 0; }
};

/// The size a construct is measured by (acc::adaptive, acc::tuned): its iteration count, the
/// elements of a scan, the tiles of a tile_loop; 0 for regions and serial (one size class).
template <class Task>
constexpr std::uint64_t task_size(const Task& t) noexcept {
  if constexpr (requires { t.total; }) return t.total;
  else if constexpr (requires { t.n; }) return t.n;
  else if constexpr (requires { t.geometry.total; }) return t.geometry.total;
  else return 0;
}

/// Whether acc::adaptive / ACC_DEVICE_TYPE=auto may move a task to the host (scans may not).
template <class Task>
constexpr bool task_selectable() noexcept {
  if constexpr (requires { Task::selectable; }) return Task::selectable;
  else return true;
}

/// The iteration space of `extent` and its number of iterations (bad_clause past 2^64).
template <class Extent>
auto space_of(const Extent& extent, const call_site& site) {
  if constexpr (requires { extent.negative_unsigned; })
    if (extent.negative_unsigned)
      fail<bad_clause>(site, "a loop starts below 0, but its index type is unsigned (the common type of the "
                             "range's bounds or the collapse's extents, one of them unsigned); give the unsigned ones "
                             "a signed type: acc::range(-2, static_cast<long>(v.size()))");
  const auto space = to_space(extent);
  return std::pair{space, checked_size(space, site)};
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
