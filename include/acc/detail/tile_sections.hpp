//! @file The list form of acc::cache, acc::cache(t, acc::section(a, ...), acc::section(b, ...)):
//! the checks of acc::section's arguments, the traits of a section, and the views it returns,
//! packed as a plain aggregate.
#pragma once

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/tile_fwd.hpp>
#include <acc/detail/tile_range.hpp>
#include <acc/tile_clauses.hpp>

#include <cstddef>
#include <type_traits>

namespace acc::detail {

template <class A, class... Ranges>
constexpr bool check_section_args() {
  if constexpr (!cacheable<std::remove_cvref_t<A>>::value) {
    static_assert(dependent_false<A>,
                  "acc::section: with ranges (for acc::cache) the array must be an acc::array or acc::view captured "
                  "by the body, e.g. acc::section(a, acc::fixed(i0, 16), acc::fixed(k0, 16))");
    return false;
  } else if constexpr (!(is_range_v<Ranges> && ...)) {
    static_assert(dependent_false<A>,
                  "acc::section: for acc::cache give only ranges after the array, acc::fixed(lo, count) or "
                  "acc::halo(before, after), one per dimension; for a data clause write acc::section(a, lo, len)");
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

template <class S> struct is_cache_section : std::false_type {};
template <class A, std::size_t R> struct is_cache_section<cache_section_t<A, R>> : std::true_type {};
template <class S>
inline constexpr bool is_cache_section_v = is_cache_section<std::remove_cvref_t<S>>::value;

/// The rank of a section's array (0 for anything else).
template <class S> struct section_rank : std::integral_constant<std::size_t, 0> {};
template <class A, std::size_t R> struct section_rank<cache_section_t<A, R>>
    : std::integral_constant<std::size_t, cacheable<A>::rank> {};

/// The view acc::cache returns for a section.
template <class S> struct section_view;
template <class A, std::size_t R> struct section_view<cache_section_t<A, R>> {
  using element_type = typename cacheable<A>::element_type;
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
