//! @file Folds tile_loop's clauses into one tile_spec (the shape, acc::cache_bytes and the
//! launch clauses) and gathers its cached() clauses; tile_loop's counterpart of
//! detail/clauses.hpp.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/tile_clauses.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>

namespace acc::detail {

// tile_loop's own clauses, in the one clause table (detail/clauses.hpp).
template <std::size_t R>
struct clause_kind<tile_size_t<R>> : std::integral_constant<unsigned, clause_bit::tile_size> {};
template <> struct clause_kind<cache_bytes_t> : std::integral_constant<unsigned, clause_bit::cache_bytes> {};
template <class T, std::size_t R, unsigned F>
struct clause_kind<cached_t<T, R, F>> : std::integral_constant<unsigned, clause_bit::cached> {};
// acc::scratch is a cached clause without an array: it may repeat, and only tile_loop takes it.
template <class T, std::size_t R>
struct clause_kind<scratch_t<T, R>> : std::integral_constant<unsigned, clause_bit::cached> {};

template <class C> struct is_tile_size : std::false_type {
  static constexpr std::size_t rank = 0;
};
template <std::size_t R> struct is_tile_size<tile_size_t<R>> : std::true_type {
  static constexpr std::size_t rank = R;
};
template <class C> struct is_cached : std::false_type {};
template <class T, std::size_t R, unsigned F> struct is_cached<cached_t<T, R, F>> : std::true_type {};

template <class C>
inline constexpr bool is_tile_size_v = is_tile_size<std::remove_cvref_t<C>>::value;
template <class C>
inline constexpr bool is_cached_v = is_cached<std::remove_cvref_t<C>>::value;
template <class C> struct is_scratch : std::false_type {};
template <class T, std::size_t R> struct is_scratch<scratch_t<T, R>> : std::true_type {};
template <class C>
inline constexpr bool is_scratch_v = is_scratch<std::remove_cvref_t<C>>::value;
/// A clause whose body receives a view: acc::cached (and dist_*) or acc::scratch.
template <class C>
inline constexpr bool is_view_clause_v = is_cached_v<C> || is_scratch_v<C>;

/// The modes of a view clause (acc::scratch: none, it is neither loaded nor stored).
template <class T, std::size_t R, unsigned F>
ACC_DETAIL_HD constexpr cache_mode_t mode_of(const cached_t<T, R, F>& c) noexcept { return c.mode; }
template <class T, std::size_t R>
ACC_DETAIL_HD constexpr cache_mode_t mode_of(const scratch_t<T, R>&) noexcept { return none; }
template <class C>
inline constexpr bool is_cache_bytes_v = std::is_same_v<std::remove_cvref_t<C>, cache_bytes_t>;

/// Everything a tile_loop's clauses said.
template <std::size_t Rank>
struct tile_spec {
  launch_spec launch;
  int shape[Rank];
  bool shape_given = false;
  bool shape_from_vector_length = false;  // so that reports name the clause the user wrote
  std::size_t cache_bytes = 0;
};

template <std::size_t Rank>
constexpr void apply_tile_arg(tile_spec<Rank>& s, const tile_size_t<Rank>& c) {
  for (std::size_t d = 0; d < Rank; ++d) s.shape[d] = c.extents[d];
  s.shape_given = true;
}
template <std::size_t Rank>
constexpr void apply_tile_arg(tile_spec<Rank>& s, const vector_length_t& c) {
  if constexpr (Rank == 1) {
    s.shape[0] = c.value;
    s.shape_given = true;
    s.shape_from_vector_length = true;
  }
}
template <std::size_t Rank>
constexpr void apply_tile_arg(tile_spec<Rank>& s, const cache_bytes_t& c) { s.cache_bytes = c.value; }
template <std::size_t Rank, class T, std::size_t R, unsigned F>
constexpr void apply_tile_arg(tile_spec<Rank>&, const cached_t<T, R, F>&) {}
template <std::size_t Rank, class T, std::size_t R>
constexpr void apply_tile_arg(tile_spec<Rank>&, const scratch_t<T, R>&) {}
/// The clauses every construct shares go to the launch_spec, as everywhere.
template <std::size_t Rank, class C>
  requires(!is_tile_size_v<C> && !is_view_clause_v<C> && !is_cache_bytes_v<C> && !std::is_same_v<C, vector_length_t>)
constexpr void apply_tile_arg(tile_spec<Rank>& s, const C& c) {
  apply_clause(s.launch, c);
}

/// Defaults when no tile_size is given: 256 iterations in 1D, 16 x 16, 4 x 8 x 8.
template <std::size_t Rank>
constexpr tile_spec<Rank> fold_tile_args(const auto&... args) {
  tile_spec<Rank> s{};
  if constexpr (Rank == 1) s.shape[0] = 256;
  else if constexpr (Rank == 2) s.shape[0] = s.shape[1] = 16;
  else s.shape[0] = 4, s.shape[1] = 8, s.shape[2] = 8;
  (apply_tile_arg(s, args), ...);
  return s;
}

/// The view clauses (cached() and scratch()) among a construct's arguments, in order, as a tuple.
template <class... C>
auto cached_of(const C&... c) {
  return std::tuple_cat([](const auto& x) {
    if constexpr (is_view_clause_v<decltype(x)>) return std::tuple(x);
    else return std::tuple<>();
  }(c)...);
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
