//! @file What a tile caches: the arrays it can cache (acc::array, acc::view) and, per
//! dimension, the range it keeps of them, a halo around the tile's iterations or a fixed range.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/array.hpp>
#include <acc/detail/config.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace acc::detail {

/// One dimension of a cached range: a halo around the tile's iterations (acc::halo: before()
/// and after()) or, when is_fixed(), the same range for every tile (acc::fixed: [lo(), lo() +
/// count())). One pair of slots serves both kinds, so that the cached clauses that kernels
/// receive as arguments are no larger than needed; trivially copyable.
class dim_range {
public:
  ACC_DETAIL_HD static constexpr dim_range halo(std::int64_t before, std::int64_t after) noexcept {
    dim_range r;
    r.first_ = before;
    r.second_ = after;
    return r;
  }
  ACC_DETAIL_HD static constexpr dim_range fixed(std::int64_t lo, std::int64_t count) noexcept {
    dim_range r;
    r.fixed_ = true;
    r.first_ = lo;
    r.second_ = count;
    return r;
  }

  ACC_DETAIL_HD constexpr bool is_fixed() const noexcept { return fixed_; }
  /// A halo's elements before the tile's first iteration and after its last one.
  ACC_DETAIL_HD constexpr std::int64_t before() const noexcept { return first_; }
  ACC_DETAIL_HD constexpr std::int64_t after() const noexcept { return second_; }
  /// A fixed range's first element and its number of elements.
  ACC_DETAIL_HD constexpr std::int64_t lo() const noexcept { return first_; }
  ACC_DETAIL_HD constexpr std::int64_t count() const noexcept { return second_; }

private:
  // No constructor of its own (the factories build it): with one, nvcc compiles the kernels
  // that build ranges (acc::cache, acc::section) to different code.
  bool fixed_ = false;
  std::int64_t first_ = 0;   // before() or lo()
  std::int64_t second_ = 0;  // after() or count()
};

template <class A> struct cacheable : std::false_type {};
template <class T, std::size_t R> struct cacheable<view<T, R>> : std::true_type {
  using element_type = T;
  static constexpr std::size_t rank = R;
};
template <class T, std::size_t R> struct cacheable<array<T, R>> : std::true_type {
  using element_type = T;
  static constexpr std::size_t rank = R;
};

inline constexpr std::size_t label_chars = 24;

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
