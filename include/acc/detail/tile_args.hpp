//! @file The compile-time checks of acc::tile_loop's arguments (extent, clauses, body form),
//! each failure a static_assert that names the fix, in the order a user would fix them.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/body_checks.hpp>
#include <acc/clauses.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/construct_data.hpp>
#include <acc/detail/tile_clauses.hpp>
#include <acc/detail/tile_fwd.hpp>
#include <acc/detail/tile_plan.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace acc::detail {

/// Whether body is tile-level (form 2: tile, views...) or per iteration (form 1: indices, views...).
template <class Body, class Index, std::size_t Rank, class Specs> struct tile_body_form;
template <class Body, class Index, std::size_t Rank, class... S>
struct tile_body_form<Body, Index, Rank, std::tuple<S...>> {
  static constexpr bool tile_level = std::is_invocable_v<const Body&, const tile_t<Rank, Index>&, const view_of_spec_t<S>&...>;
  static constexpr bool per_iteration = [] {
    if constexpr (Rank == 1) return std::is_invocable_v<const Body&, Index, const view_of_spec_t<S>&...>;
    else if constexpr (Rank == 2) return std::is_invocable_v<const Body&, Index, Index, const view_of_spec_t<S>&...>;
    else return std::is_invocable_v<const Body&, Index, Index, Index, const view_of_spec_t<S>&...>;
  }();
};

/// Whether body is tile-level for a tile_t of the same rank but another common index type.
template <class Body, class Index, std::size_t Rank, class Specs>
constexpr bool tile_level_with_other_index() {
  const auto with = [](auto index) {
    using J = decltype(index);
    return !std::is_same_v<J, Index> && tile_body_form<Body, J, Rank, Specs>::tile_level;
  };
  return with(0) || with(0L) || with(0LL) || with(0U) || with(0UL) || with(0ULL) || with(short{}) ||
         with(static_cast<unsigned short>(0));
}

template <class... C> struct tile_size_rank { static constexpr std::size_t value = 0; };
template <class C, class... Rest> struct tile_size_rank<C, Rest...> {
  static constexpr std::size_t value =
      is_tile_size_v<C> ? is_tile_size<std::remove_cvref_t<C>>::rank : tile_size_rank<Rest...>::value;
};

template <std::size_t Rank, class C>
inline constexpr bool cached_rank_matches_v = [] {
  if constexpr (is_cached_v<C>) return std::remove_cvref_t<C>::rank == Rank;
  else return true;
}();

/// The checks of tile_loop's arguments, in the order a user would fix them.
template <class Extent, class... Args>
constexpr bool check_tile_args() {
  if constexpr (!extent_traits<Extent>::valid) {
    static_assert(dependent_false<Extent>,
                  "acc::tile_loop: the first argument must be an iteration count (an integer), acc::range(lo, hi) "
                  "or acc::collapse(n0, n1[, n2])");
    return false;
  } else if constexpr (sizeof...(Args) == 0) {
    static_assert(dependent_false<Extent>,
                  "acc::tile_loop: the body is missing; write acc::tile_loop(n, acc::tile_size(256), ..., "
                  "ACC_LAMBDA(int i, ...) { ... })");
    return false;
  } else {
    using Tuple = std::tuple<Args...>;
    constexpr std::size_t n = sizeof...(Args) - 1;
    constexpr std::size_t rank = extent_traits<Extent>::rank;
    using Body = body_of_t<Args...>;
    using Index = typename extent_traits<Extent>::index_type;
    using Specs = decltype(cached_of(std::declval<const Args&>()...));
    constexpr std::size_t shapes = []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::size_t(is_tile_size_v<std::tuple_element_t<I, Tuple>>) + ... + 0);
    }(std::make_index_sequence<n>{});
    constexpr std::size_t shape_rank = []<std::size_t... I>(std::index_sequence<I...>) {
      return tile_size_rank<std::tuple_element_t<I, Tuple>...>::value;
    }(std::make_index_sequence<n>{});
    constexpr bool vector_given = []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::is_same_v<std::remove_cvref_t<std::tuple_element_t<I, Tuple>>, vector_length_t> || ...);
    }(std::make_index_sequence<n>{});
    constexpr bool ranks_match = []<std::size_t... I>(std::index_sequence<I...>) {
      return (cached_rank_matches_v<rank, std::tuple_element_t<I, Tuple>> && ...);
    }(std::make_index_sequence<n>{});
    if constexpr (!clauses_then_body<Args...>()) {
      // Data clauses among the clauses are not wrong: tile_loop runs inside a data region of them.
      if constexpr (data_clauses_then_body<Args...>())
        static_assert(!has_delete_clause_v<Args...>, ACC_DETAIL_DELETE_ON_CONSTRUCT("tile_loop"));
      else
        static_assert(dependent_false<Extent>,
                      "acc::tile_loop: an argument between the extent and the body is not a tile_loop clause; "
                      "clauses are acc::tile_size, acc::cached (dist_private, ...), acc::cache_bytes, num_gangs, "
                      "async, if_, device_num, default_present, the data clauses (copy, copyin, copyout, create, "
                      "no_create, present, deviceptr), and the body comes last");
      return false;
    } else if constexpr (!clauses_accepted<construct::tile_loop, Args...>()) {
      return false;
    } else if constexpr (shapes == 1 && vector_given) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: give the tile shape once, as acc::tile_size(...) (or vector_length(n) in 1D)");
      return false;
    } else if constexpr (shapes == 1 && shape_rank != rank) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: tile_size must have one extent per dimension of the iteration space, e.g. "
                    "acc::tile_size(16, 16) for acc::collapse(ni, nj)");
      return false;
    } else if constexpr (vector_given && rank != 1) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: vector_length gives a 1D tile; for acc::collapse use acc::tile_size(t0, t1[, t2])");
      return false;
    } else if constexpr (!ranks_match) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: a cached array's rank differs from the iteration space's; cache arrays of "
                    "the tile's rank (a 1D acc::view of a row for a 1D tile)");
      return false;
    } else if constexpr (!tile_body_form<Body, Index, rank, Specs>::tile_level &&
                         !tile_body_form<Body, Index, rank, Specs>::per_iteration &&
                         tile_level_with_other_index<Body, Index, rank, Specs>()) {
      // A tile-level body written for another index type than the extent's (tile_t<1> is
      // tile_t<1, int>): name the type to write.
#define ACC_DETAIL_TILE_INDEX(R, I, Name)                                                                     \
  static_assert(!(rank == R && std::is_same_v<Index, I>),                                                     \
                "acc::tile_loop: the iteration space's index type is " Name ", so the tile-level body takes " \
                "const acc::tile_t<" #R ", " Name ">& (acc::tile_t<" #R "> means tile_t<" #R ", int>); "     \
                "make the extent int or write ACC_LAMBDA(const acc::tile_t<" #R ", " Name ">& t, ...)")
#define ACC_DETAIL_TILE_INDEX_RANKS(I, Name) \
  ACC_DETAIL_TILE_INDEX(1, I, Name);         \
  ACC_DETAIL_TILE_INDEX(2, I, Name);         \
  ACC_DETAIL_TILE_INDEX(3, I, Name)
      ACC_DETAIL_TILE_INDEX_RANKS(int, "int");
      ACC_DETAIL_TILE_INDEX_RANKS(long, "long");
      ACC_DETAIL_TILE_INDEX_RANKS(long long, "long long");
      ACC_DETAIL_TILE_INDEX_RANKS(unsigned, "unsigned");
      ACC_DETAIL_TILE_INDEX_RANKS(unsigned long, "unsigned long");
      ACC_DETAIL_TILE_INDEX_RANKS(unsigned long long, "unsigned long long");
      ACC_DETAIL_TILE_INDEX_RANKS(short, "short");
      ACC_DETAIL_TILE_INDEX_RANKS(unsigned short, "unsigned short");
#undef ACC_DETAIL_TILE_INDEX_RANKS
#undef ACC_DETAIL_TILE_INDEX
      constexpr bool named = std::is_same_v<Index, int> || std::is_same_v<Index, long> ||
                             std::is_same_v<Index, long long> || std::is_same_v<Index, unsigned> ||
                             std::is_same_v<Index, unsigned long> || std::is_same_v<Index, unsigned long long> ||
                             std::is_same_v<Index, short> || std::is_same_v<Index, unsigned short>;
      static_assert(named || dependent_false<Extent>,
                    "acc::tile_loop: the tile-level body's acc::tile_t must have the rank and the index type of "
                    "the extent: const acc::tile_t<Rank, Index>&");
      return false;
    } else if constexpr (!tile_body_form<Body, Index, rank, Specs>::tile_level &&
                         !tile_body_form<Body, Index, rank, Specs>::per_iteration) {
      static_assert(!mutable_body<Body>(), ACC_DETAIL_MUTABLE_BODY("tile_loop"));
      static_assert(mutable_body<Body>() || dependent_false<Extent>,
                    "acc::tile_loop: the body must take the indices and then one cached_view per cached() clause, "
                    "ACC_LAMBDA(int i, int j, const acc::cached_view<float, 2>& a) { ... }, or the tile and the "
                    "views, ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<float, 2>& a) { ... }");
      return false;
    } else if constexpr (!check_body_tile_loop<Body, Extent>()) {
      return false;
    } else if constexpr (!body_copyable_v<Body>) {
      static_assert(dependent_false<Extent>,
                    "acc::tile_loop: the body must be copyable, as it is copied to every gang; capture by value");
      return false;
    } else {
      return true;
    }
  }
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
