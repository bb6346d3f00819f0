//! @file The list form of acc::cache, acc::cache(t, acc::section(a, ...), acc::section(b, ...)):
//! the traits of a section, and the views it returns, packed as a plain aggregate.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/tile_fwd.hpp>
#include <acc/detail/tile_range.hpp>
#include <acc/section.hpp>
#include <acc/tile_clauses.hpp>

#include <cstddef>
#include <type_traits>

namespace acc::detail {

/// The rank of a section (0 for anything else).
template <class S> struct section_rank : std::integral_constant<std::size_t, 0> {};
template <class T, std::size_t R, bool Rel> struct section_rank<section_t<T, R, Rel>>
    : std::integral_constant<std::size_t, R> {};

/// The view acc::cache returns for a section: read-only, as for a single array.
template <class S> struct section_view;
template <class T, std::size_t R, bool Rel> struct section_view<section_t<T, R, Rel>> {
  using element_type = const T;
  using type = cached_view<element_type, R>;
};

/// The views of a list, first and rest: a plain aggregate (no std::tuple in device code).
template <class... V> struct view_pack {};
template <class V, class... Rest> struct view_pack<V, Rest...> {
  V first;
  view_pack<Rest...> rest;
};

template <std::size_t K, class P>
ACC_DETAIL_HD constexpr auto& pack_get(P& p) noexcept {
  if constexpr (K == 0) return p.first;
  else return pack_get<K - 1>(p.rest);
}

template <class V, class... Rest>
ACC_DETAIL_HD view_pack<V, Rest...> pack_views(const V& v, const Rest&... rest) {
  if constexpr (sizeof...(Rest) == 0) return {v, {}};
  else return {v, pack_views(rest...)};
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
