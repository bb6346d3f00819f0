//! @file acc::section: a rectangular part of an acc::array or acc::view, one range per
//! dimension, as OpenACC's subarray `a[lo0:len0][lo1:len1]` (OpenACC 3.3 §2.7.1). Data
//! clauses and updates take a contiguous section; acc::cache takes any.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/array.hpp>
#include <acc/detail/array_ops.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/tile_range.hpp>
#include <acc/error.hpp>
#include <acc/tile_clauses.hpp>

#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>
#include <type_traits>

namespace acc {

/// A rectangular part of an acc::array or acc::view (`source`): one range per dimension
/// (`range`), OpenACC's subarray `a[lo0:len0][lo1:len1]` (OpenACC 3.3 §2.7.1). Made by
/// acc::section; every form makes this one type.
/// - Data clauses, updates, is_present and deviceptr take a section whose elements are
///   contiguous in the row-major source: whole rows (acc::section(a, lo, len)), or any part of
///   one row; one that is not, or that does not lie inside the source, throws
///   acc::bad_clause naming the clause's line.
/// - acc::cache takes any section. Its ranges may be relative to the tile's iterations
///   (acc::halo); such a section is `TileRelative`, and only acc::cache takes it (data
///   clauses reject it at compile time, as its elements depend on the tile).
/// The source is a view of the whole array (a copy of it, not the array itself), so a section
/// stays valid as long as the array's elements do.
template <class T, std::size_t Rank = 1, bool TileRelative = false>
struct section_t {
  using element_type = T;
  static constexpr std::size_t rank = Rank;
  static constexpr bool tile_relative = TileRelative;

  view<T, Rank> source;
  detail::dim_range range[Rank];

  /// The host address of the section's first element.
  T* data() const noexcept {
    static_assert(!TileRelative, "acc::section: a section with acc::halo ranges has no fixed elements outside acc::cache");
    std::size_t k = 0;
    for (std::size_t d = 0; d < Rank; ++d)
      k = k * source.extent(d) + static_cast<std::size_t>(range[d].lo());
    return source.data() + k;
  }
  /// The section's number of elements.
  std::size_t size() const noexcept {
    static_assert(!TileRelative, "acc::section: a section with acc::halo ranges has no fixed size outside acc::cache");
    std::size_t n = 1;
    for (std::size_t d = 0; d < Rank; ++d) n *= static_cast<std::size_t>(range[d].count());
    return n;
  }
  const char* label() const noexcept { return source.label(); }
};

namespace detail {

template <class S>
struct is_section : std::false_type {};
template <class T, std::size_t R, bool Rel>
struct is_section<section_t<T, R, Rel>> : std::true_type {};
template <class S>
inline constexpr bool is_section_v = is_section<std::remove_cvref_t<S>>::value;

inline std::string section_text(const dim_range* range, std::size_t rank) {
  std::string s;
  for (std::size_t d = 0; d < rank; ++d)
    s += "[" + std::to_string(range[d].lo()) + ":" + std::to_string(range[d].count()) + "]";
  return s;
}

/// The host memory of a section that a data clause or update names (`site`), or
/// acc::bad_clause when the section leaves its source or its elements are not contiguous
/// (a data clause maps one contiguous range of host memory).
template <class T, std::size_t R>
host_span section_span(const section_t<T, R, false>& s, const call_site& site) {
  std::size_t ext[R];
  for (std::size_t d = 0; d < R; ++d) {
    ext[d] = s.source.extent(d);
    const std::int64_t lo = s.range[d].lo(), count = s.range[d].count();
    if (lo < 0 || count < 0 || static_cast<std::size_t>(lo) > ext[d] ||
        static_cast<std::size_t>(count) > ext[d] - static_cast<std::size_t>(lo)) {
      fail<bad_clause>(site, "the section " + section_text(s.range, R) + " is outside " + source_name(s.label()) +
                                 ", whose extent " + (R > 1 ? "in dimension " + std::to_string(d) + " " : "") +
                                 "is " + std::to_string(ext[d]));
    }
  }
  const std::size_t n = s.size();
  // Row-major: contiguous when every dimension before the first partial one has one index and
  // every dimension after it is whole. An empty section names no memory and always passes.
  if (n != 0) {
    std::size_t k = 0;
    while (k < R && s.range[k].count() == 1) ++k;
    for (std::size_t d = k + 1; d < R; ++d)
      if (static_cast<std::size_t>(s.range[d].count()) != ext[d]) {
        std::string dims;
        for (std::size_t e = 0; e < R; ++e) dims += (e ? " x " : "") + std::to_string(ext[e]);
        fail<bad_clause>(site, "the section " + section_text(s.range, R) + " of " + source_name(s.label()) +
                                   " (extents " + dims +
                                   ") is not contiguous; data clauses and updates take whole rows, "
                                   "acc::section(a, lo, len), or a part of one row");
      }
  }
  return {s.data(), n * sizeof(T), *s.label() ? s.label() : nullptr, std::is_const_v<T>};
}

template <class A>
struct section_source;
template <class T, std::size_t R>
struct section_source<view<T, R>> {
  using element_type = T;
  static constexpr std::size_t rank = R;
  ACC_DETAIL_HD static const view<T, R>& of(const view<T, R>& v) noexcept { return v; }
};
template <class T, std::size_t R>
struct section_source<array<T, R>> {
  using element_type = T;
  static constexpr std::size_t rank = R;
  ACC_DETAIL_HD static view<T, R> of(const array<T, R>& a) noexcept { return a; }
};

template <class A, class... Ranges>
constexpr bool check_section_args() {
  if constexpr (!cacheable<std::remove_cvref_t<A>>::value) {
    static_assert(dependent_false<A>,
                  "acc::section: with ranges the array must be an acc::array or acc::view (for acc::cache, one "
                  "captured by the body), e.g. acc::section(a, acc::fixed(i0, 16), acc::fixed(k0, 16))");
    return false;
  } else if constexpr (!(is_range_v<Ranges> && ...)) {
    static_assert(dependent_false<A>,
                  "acc::section: give either only ranges after the array, acc::fixed(lo, count) or "
                  "acc::halo(before, after), one per dimension, or a first row and a row count, "
                  "acc::section(a, lo, len)");
    return false;
  } else if constexpr (sizeof...(Ranges) != cacheable<std::remove_cvref_t<A>>::rank) {
    static_assert(dependent_false<A>,
                  "acc::section: give one range per dimension of the array, e.g. acc::section(a, acc::fixed(i0, 16), "
                  "acc::fixed(k0, 16)) for a rank-2 array");
    return false;
  } else {
    return true;
  }
}

template <class... Ranges>
inline constexpr bool any_halo_v = (std::is_same_v<std::remove_cvref_t<Ranges>, halo_t> || ...);

/// Rows [lo, lo + len) of v, in host code or in tile-level code on a GPU (for acc::cache): rows
/// outside v are acc::bad_clause naming `where` on the host, a message and a trap on a GPU.
template <class T, std::size_t Rank>
ACC_DETAIL_HD section_t<T, Rank> row_section(const view<T, Rank>& v, std::size_t lo, std::size_t len,
                                             const std::source_location& where) {
  const std::size_t n = v.extent(0);
  if (lo > n || len > n - lo) array_ops::rows_outside(v, lo, len, Rank > 1, where);
  section_t<T, Rank> s{v, {}};
  s.range[0] = dim_range::fixed(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(len));
  for (std::size_t d = 1; d < Rank; ++d) s.range[d] = dim_range::fixed(0, static_cast<std::int64_t>(v.extent(d)));
  return s;
}

}  // namespace detail

/// Rows [lo, lo + len) of a view (elements for rank 1), OpenACC's `a[lo:len]`, or
/// acc::bad_clause naming this line if they do not lie inside it. Contiguous, so every data
/// clause and update takes it; a section of present data maps into the existing device copy.
/// Tile-level code may make one for acc::cache (rows outside the view are then a message and
/// a trap on a GPU).
/// e.g. acc::update_self(acc::section(a, 0, 10));
template <class T, std::size_t Rank>
ACC_DETAIL_HD section_t<T, Rank> section(const view<T, Rank>& v, std::size_t lo, std::size_t len,
                                         std::source_location where = std::source_location::current()) {
  return detail::row_section(v, lo, len, where);
}

/// Rows [lo, lo + len) of an array (elements for rank 1); see above.
template <class T, std::size_t Rank>
ACC_DETAIL_HD section_t<T, Rank> section(const array<T, Rank>& a, std::size_t lo, std::size_t len,
                                         std::source_location where = std::source_location::current()) {
  return detail::row_section(static_cast<view<T, Rank>>(a), lo, len, where);
}

/// `count` elements at host address p: how a pointer range joins an update list,
/// e.g. acc::update_self(a, acc::section(p, n), acc::async(1)).
template <class T>
section_t<T, 1> section(T* p, std::size_t count, std::source_location where = std::source_location::current()) {
  return {view<T, 1>(p, count, where), {detail::dim_range::fixed(0, static_cast<std::int64_t>(count))}};
}

/// The section of `a` given by one range per dimension: acc::fixed(lo, count), or acc::halo
/// relative to the tile's iterations (for acc::cache only), e.g.
/// acc::section(a, acc::fixed(i0, 16), acc::fixed(k0, 16)) is OpenACC's `a[i0:16][k0:16]`.
/// In tile-level code pass the array the body captured, so that on a GPU the section reads
/// its device copy.
template <class A, class... Ranges>
  requires((detail::is_range_v<Ranges> || ...))
ACC_DETAIL_HD auto section(const A& a, Ranges... ranges) {
  if constexpr (detail::check_section_args<A, Ranges...>()) {
    using source = detail::section_source<std::remove_cvref_t<A>>;
    return section_t<typename source::element_type, source::rank, detail::any_halo_v<Ranges...>>{
        source::of(a), {detail::to_dim_range(ranges)...}};
  }
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
