//! @file Iteration spaces of loops: a count, acc::range(lo, hi), acc::collapse(n0, n1[, n2]).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace acc {

/// The iterations lo, lo+1, ..., hi-1; empty when hi <= lo, as `for (i = lo; i < hi; ++i)`.
template <class Index>
struct range_t {
  static_assert(std::is_integral_v<Index> && !std::is_same_v<Index, bool>,
                "acc::range: bounds must be integers");
  Index lo;
  Index hi;
  // Set by acc::range when Index, the common type with an unsigned bound, is unsigned but the
  // loop starts below 0 (acc::range(-2, v.size())): constructs report it (acc::bad_clause), as
  // collapse_t's, rather than run no iterations or wrap to 2^64.
  bool negative_unsigned = false;
  friend constexpr bool operator==(const range_t&, const range_t&) = default;

  // Two values to structured bindings, lo and hi: auto [lo, hi] = acc::device_part(...).
  template <std::size_t K>
  constexpr Index& get() & noexcept {
    static_assert(K < 2, "acc::range_t: a range is two values, lo and hi");
    if constexpr (K == 0) return lo;
    else return hi;
  }
  template <std::size_t K>
  constexpr const Index& get() const& noexcept {
    static_assert(K < 2, "acc::range_t: a range is two values, lo and hi");
    if constexpr (K == 0) return lo;
    else return hi;
  }
  template <std::size_t K>
  constexpr Index get() && noexcept {
    return get<K>();
  }
};

/// Tightly nested loops fused into one iteration space (OpenACC 3.3 §2.9.1 `collapse`); the
/// body receives one index per loop, outermost first, and the last index varies fastest.
/// Loop d runs from lo[d] to hi[d] (lo is 0 for a count).
template <class Index, std::size_t Rank>
struct collapse_t {
  static_assert(std::is_integral_v<Index> && !std::is_same_v<Index, bool>,
                "acc::collapse: extents must be integers or acc::range(lo, hi)");
  static_assert(Rank == 2 || Rank == 3, "acc::collapse: takes two or three extents");
  std::array<Index, Rank> lo;
  std::array<Index, Rank> hi;
  // Set when a loop of a signed type starts below 0 but Index, the common type with an
  // unsigned extent, is unsigned: no index of that type can hold its indices, so constructs
  // report it (acc::bad_clause) rather than run a different loop.
  bool negative_unsigned = false;
  friend constexpr bool operator==(const collapse_t&, const collapse_t&) = default;
};

/// `acc::range(lo, hi)`: the loop `for (i = lo; i < hi; ++i)`; the index type is the common
/// type of lo and hi. Where that is unsigned and a signed bound is negative, the bounds are
/// compared as the numbers they are: hi <= lo is an empty loop, a loop starting below 0 an
/// acc::bad_clause from the construct that runs it.
template <class Lo, class Hi>
constexpr range_t<std::common_type_t<Lo, Hi>> range(Lo lo, Hi hi) noexcept {
  using I = std::common_type_t<Lo, Hi>;
  if constexpr (std::is_unsigned_v<I> && (std::is_signed_v<Lo> || std::is_signed_v<Hi>)) {
    // Promoted (+), so that character bounds compare too: std::cmp_less takes no char types.
    if (!std::cmp_less(+lo, +hi)) return {I(0), I(0)};
    if (std::cmp_less(+lo, 0)) return {I(0), I(0), true};
  }
  return {static_cast<I>(lo), static_cast<I>(hi)};
}

namespace detail {

/// One loop of a collapse: a count n (the loop from 0 to n) or a range_t.
template <class A> struct bound_type { using type = A; };
template <class I> struct bound_type<range_t<I>> { using type = I; };
template <class A>
using bound_t = typename bound_type<A>::type;

template <class I, class A>
constexpr I lower_bound_of(const A& a) noexcept {
  if constexpr (requires { a.lo; }) return static_cast<I>(a.lo);
  else return I(0);
}
template <class I, class A>
constexpr I upper_bound_of(const A& a) noexcept {
  if constexpr (requires { a.hi; }) return static_cast<I>(a.hi);
  else return static_cast<I>(a);
}

/// Loop d of c, given as `a` of a signed type, where c's index type is unsigned: the sequential
/// nest keeps each loop's own type, so an empty loop (a count or range with hi <= lo, -3 say)
/// stays empty instead of wrapping to 2^64 - 3 iterations, and one that starts below 0 is marked.
template <class I, std::size_t R, class A>
constexpr void keep_signed_bounds(const A& a, collapse_t<I, R>& c, std::size_t d) noexcept {
  using S = bound_t<A>;
  if constexpr (std::is_signed_v<S>) {
    const S lo = lower_bound_of<S>(a), hi = upper_bound_of<S>(a);
    if (!(lo < hi)) c.lo[d] = c.hi[d] = I(0);
    else if (lo < 0) c.negative_unsigned = true;
  }
}

template <class... A>
constexpr collapse_t<std::common_type_t<bound_t<A>...>, sizeof...(A)> collapse_of(const A&... a) noexcept {
  using I = std::common_type_t<bound_t<A>...>;
  collapse_t<I, sizeof...(A)> c{{lower_bound_of<I>(a)...}, {upper_bound_of<I>(a)...}};
  const auto marked = [](const auto& x) {  // a range already found to start below 0
    if constexpr (requires { x.negative_unsigned; }) return x.negative_unsigned;
    else return false;
  };
  c.negative_unsigned = (marked(a) || ...);
  if constexpr (std::is_unsigned_v<I>) {
    std::size_t d = 0;
    (keep_signed_bounds(a, c, d++), ...);
  }
  return c;
}

}  // namespace detail

/// `acc::collapse(ni, nj)`: body(i, j) for i in [0, ni), j in [0, nj). Each loop may also be
/// acc::range(lo, hi), counts and ranges mixed: `acc::collapse(acc::range(1, ni - 1), nj)` is
/// `for (i = 1; i < ni - 1; ++i) for (j = 0; j < nj; ++j)`, and the body gets those i and j.
/// The index type is the common type of the counts' and ranges' integer types; where that is
/// unsigned (an extent is size_t, say), a signed loop starting below 0 is an acc::bad_clause.
template <class N0, class N1>
constexpr auto collapse(N0 n0, N1 n1) noexcept {
  return detail::collapse_of(n0, n1);
}

/// `acc::collapse(ni, nj, nk)`: body(i, j, k), k fastest; counts or acc::range(lo, hi) each.
template <class N0, class N1, class N2>
constexpr auto collapse(N0 n0, N1 n1, N2 n2) noexcept {
  return detail::collapse_of(n0, n1, n2);
}

namespace detail {

/// An extent normalised for the backends: Rank loops, each `count[d]` iterations starting at
/// `lo[d]`. Counts are unsigned and at least 64 bits wide so that hi - lo never overflows
/// (range(INT_MIN, INT_MAX) has 2^32 - 1 iterations).
template <class Index, std::size_t Rank>
struct index_space {
  using index_type = Index;
  static constexpr std::size_t rank = Rank;
  std::array<Index, Rank> lo{};
  std::array<std::uint64_t, Rank> count{};
};

/// The index of iteration t of a loop starting at lo, computed modulo 2^bits so that loops
/// reaching the type's limits (range(INT_MAX - 3, INT_MAX)) never overflow a signed type.
template <class Index, class Count>
ACC_DETAIL_HD constexpr Index index_at(Index lo, Count t) noexcept {
  using U = std::make_unsigned_t<std::common_type_t<Index, unsigned>>;
  return static_cast<Index>(static_cast<U>(static_cast<U>(lo) + static_cast<U>(t)));
}

/// Returns f(indices of flat iteration t) for Rank loops starting at lo[d], with inner counts
/// n1 (and n2). Counter type C is 64 bits, or 32 where the caller has checked that every flat
/// iteration fits (32-bit division is much cheaper on a GPU).
template <class Index, std::size_t Rank, class C, class F>
ACC_DETAIL_HD decltype(auto) call_at_flat(const std::array<Index, Rank>& lo, C n1, C n2, C t, const F& f) {
  if constexpr (Rank == 1) {
    return f(index_at(lo[0], t));
  } else if constexpr (Rank == 2) {
    const C i = t / n1;
    return f(index_at(lo[0], i), index_at(lo[1], t - i * n1));
  } else {
    const C n12 = n1 * n2, i = t / n12, r = t - i * n12, j = r / n2;
    return f(index_at(lo[0], i), index_at(lo[1], j), index_at(lo[2], r - j * n2));
  }
}

/// Calls f with the indices of flat iteration t of space s.
template <class Index, std::size_t Rank, class F>
ACC_DETAIL_HD void call_at(const index_space<Index, Rank>& s, std::uint64_t t, const F& f) {
  call_at_flat<Index, Rank, std::uint64_t>(s.lo, Rank > 1 ? s.count[1] : 1, Rank > 2 ? s.count[2] : 1, t, f);
}

/// Iterations of `for (i = lo; i < hi; ++i)`: none for hi <= lo, as the sequential loop.
template <class I>
constexpr std::uint64_t trip_count(I lo, I hi) noexcept {
  if (!(lo < hi)) return 0;
  using U = std::make_unsigned_t<I>;
  return static_cast<std::uint64_t>(static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo)));
}

template <class I>
constexpr index_space<I, 1> to_space(I n) noexcept {
  return {{I(0)}, {trip_count(I(0), n)}};
}
template <class I>
constexpr index_space<I, 1> to_space(range_t<I> r) noexcept {
  if (r.negative_unsigned) return {{I(0)}, {0}};  // reported first: space_of, the backends' region_space
  return {{r.lo}, {trip_count(r.lo, r.hi)}};
}
template <class I, std::size_t R>
constexpr index_space<I, R> to_space(collapse_t<I, R> c) noexcept {
  index_space<I, R> s;
  if (c.negative_unsigned) return s;  // reported first: space_of, the backends' region_space
  for (std::size_t d = 0; d < R; ++d) {
    s.lo[d] = c.lo[d];
    s.count[d] = trip_count(c.lo[d], c.hi[d]);
  }
  return s;
}

/// The iteration space type of an extent type.
template <class Extent>
using space_t = decltype(to_space(std::declval<const Extent&>()));

template <class Extent> struct extent_traits { static constexpr bool valid = false; };
template <class I>
  requires(std::is_integral_v<I> && !std::is_same_v<I, bool>)
struct extent_traits<I> {
  static constexpr bool valid = true;
  static constexpr std::size_t rank = 1;
  using index_type = I;
};
template <class I> struct extent_traits<range_t<I>> {
  static constexpr bool valid = true;
  static constexpr std::size_t rank = 1;
  using index_type = I;
};
template <class I, std::size_t R> struct extent_traits<collapse_t<I, R>> {
  static constexpr bool valid = true;
  static constexpr std::size_t rank = R;
  using index_type = I;
};

/// Whether body can be called with Rank indices of type I (the extent's arity check).
template <class Body, class I, std::size_t Rank>
inline constexpr bool invocable_with_rank_v = [] {
  if constexpr (Rank == 1) return std::is_invocable_v<const Body&, I>;
  else if constexpr (Rank == 2) return std::is_invocable_v<const Body&, I, I>;
  else return std::is_invocable_v<const Body&, I, I, I>;
}();

template <class T>
concept non_void = !std::is_void_v<T>;

/// Whether body, called with Rank indices of type I, returns nothing (a loop body's value would
/// be discarded); true when it cannot be called so (the arity check reports that).
/// (A requires-expression, not std::invoke_result: this is read for every loop body.)
template <class Body, class I, std::size_t Rank>
inline constexpr bool returns_void_with_rank_v = [] {
  if constexpr (Rank == 1) return !requires(const Body& b, I i) { { b(i) } -> non_void; };
  else if constexpr (Rank == 2) return !requires(const Body& b, I i) { { b(i, i) } -> non_void; };
  else return !requires(const Body& b, I i) { { b(i, i, i) } -> non_void; };
}();

}  // namespace detail
}  // namespace acc

template <class I>
struct std::tuple_size<acc::range_t<I>> : std::integral_constant<std::size_t, 2> {};
template <std::size_t K, class I>
struct std::tuple_element<K, acc::range_t<I>> {
  using type = I;
};

#include <acc/detail/header_close.hpp>
