//! @file Host backend of the code inside acc::parallel (acc/gang.hpp): one thread runs a whole
//! gang, so worker and vector loops are plain loops in order and barriers have nothing to wait for.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <acc/detail/body_error.hpp>
#include <acc/detail/gang_handle.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// What acc/gang.hpp's functions call outside nvcc's device pass (detail/gang_ops.hpp picks);
/// backend/cuda/gang.hpp has the same names for a GPU.
struct gang_ops {
  static int gang_num(const gang_t& g) noexcept { return gang_access::gang(g); }
  static int num_gangs(const gang_t& g) noexcept { return gang_access::num_gangs(g); }
  static int worker_num(const gang_t&) noexcept { return 0; }
  static int vector_lane(const gang_t&) noexcept { return 0; }

  /// gang_t::shared: the next `count` T of the gang's memory, aligned; past shared_bytes a
  /// report that the construct's executor completes with its call site (as a GPU's trap does).
  template <class T>
  static std::span<T> shared(const gang_t& g, std::size_t count) {
    if (count == 0) return {};
    std::size_t& used = gang_access::shared_used(g);
    const std::size_t bytes = gang_access::shared_bytes(g);
    const std::size_t start = (used + alignof(T) - 1) / alignof(T) * alignof(T);
    if (start > bytes || count > (bytes - start) / sizeof(T))
      throw body_error<bad_clause>("gang shared memory exhausted: g.shared asks for " + std::to_string(count) +
                                   " elements of " + std::to_string(sizeof(T)) + " bytes beyond " +
                                   std::to_string(start) + " used of the " + std::to_string(bytes) +
                                   " that acc::shared_bytes gave the region (each g.shared call takes new memory "
                                   "until the region ends: take it once, before the gang loop)");
    used = start + count * sizeof(T);
    return {reinterpret_cast<T*>(gang_access::shared(g) + start), count};
  }

  /// g.shared<T>(n0, n1[, n2]) with extent `n` of dimension `d` negative or the whole too large.
  [[noreturn]] static void shared_extent_error(std::size_t d, std::int64_t n) {
    throw body_error<bad_clause>("g.shared: extent " + std::to_string(n) + " of dimension " + std::to_string(d) +
                                 (n < 0 ? " is negative" : " makes the view larger than any memory"));
  }

  static void gang_barrier() noexcept {}

  /// The iteration space of a loop inside the region; a collapse whose indices its unsigned
  /// index type cannot hold (detail::collapse_t::negative_unsigned) is reported as
  /// space_of reports it for constructs.
  template <class Extent>
  static auto region_space(const Extent& extent) {
    if constexpr (requires { extent.negative_unsigned; })
      if (extent.negative_unsigned)
        throw body_error<bad_clause>("a loop starts below 0, but its index type is unsigned (the common type of "
                                     "the range's bounds or the collapse's extents, one of them unsigned); give "
                                     "the unsigned ones a signed type");
    return to_space(extent);
  }

  /// Gang loops take this gang's share of the iterations; worker and vector loops all of them.
  template <class Level, class Extent, class Body>
  static void loop(const gang_t& g, const Extent& extent, const Body& body) {
    const auto s = region_space(extent);
    std::uint64_t total = 1;
    for (auto c : s.count) total *= c;
    std::uint64_t start = 0, stride = 1;
    if constexpr (Level::gang) start = std::uint64_t(gang_num(g)), stride = std::uint64_t(num_gangs(g));
    for (std::uint64_t t = start; t < total; t += stride) call_at(s, t, body);
  }

  /// The whole loop, in order.
  template <class Level, class T, class Extent, class Op, class Body>
  static T loop_reduce(const gang_t&, const Extent& extent, Op op, const Body& body) {
    using Index = typename extent_traits<Extent>::index_type;
    const auto s = region_space(extent);
    std::uint64_t total = 1;
    for (auto c : s.count) total *= c;
    T acc = identity_of<T>(op);
    for (std::uint64_t t = 0; t < total; ++t)
      call_at(s, t, [&](auto... idx) { acc = op(acc, body(static_cast<Index>(idx)...)); });
    return acc;
  }

  /// The whole loop in order, one final call per iteration.
  template <class Level, class V, class Extent, class Op, class Body>
  static V loop_scan(const gang_t&, const Extent& extent, Op op, const Body& body) {
    const auto s = region_space(extent);
    const std::uint64_t total = s.count[0];
    V partial = identity_of<V>(op);
    for (std::uint64_t t = 0; t < total; ++t) body(index_at(s.lo[0], t), partial, true);
    return partial;
  }

  template <class F>
  static void single_per_gang(const gang_t&, const F& f) {
    f();
  }
  template <class F>
  static void single_per_worker(const gang_t&, const F& f) {
    f();
  }
};

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
