// The shape every V&V `atomic` test shares: many iterations apply `x = x op e` (or `e op x`)
// to a few locations, optionally capturing x's value before or after their own update; the
// result must be one that some sequential order of the same updates produces.
#pragma once

#include "vv_support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

namespace vv {
namespace {

/// `x = x op e` (and `x op= e`, `x++`...) or `x = e op x`.
enum class form { x_op_e, e_op_x };
/// `atomic update` (nothing captured), or `atomic capture` of x before / after the update.
enum class capture { none, before, after };

template <class Op>
inline constexpr bool commutes_v = std::is_same_v<Op, acc::plus_t> || std::is_same_v<Op, acc::multiplies_t> ||
                                   std::is_same_v<Op, acc::bit_and_t> || std::is_same_v<Op, acc::bit_or_t> ||
                                   std::is_same_v<Op, acc::bit_xor_t>;

template <form F, class Op, class T>
ACC_DETAIL_HD T combine(Op op, T x, T e) {
  if constexpr (F == form::x_op_e) return static_cast<T>(op(x, e));
  else return static_cast<T>(op(e, x));
}

/// The atomic statement, returning the value x held just before it. `x = e op x` with an
/// operator that commutes is acc::atomic_update's `x = x op e`; with one that does not
/// (-, /, <<, >>) acc has no atomic_update form, so it is a compare-and-swap on acc::atomic_ref.
template <form F, capture C, class T, class Op>
ACC_DETAIL_HD T atomic_step(T& x, Op op, T e) {
  if constexpr (F == form::x_op_e || commutes_v<Op>) {
    if constexpr (C == capture::none) {
      acc::atomic_update(x, op, e);
      return T{};
    } else {
      return acc::atomic_capture(x, op, e);
    }
  } else {
    acc::atomic_ref<T> r(x);
    T old = r.load();
    while (!r.compare_exchange_weak(old, combine<F>(op, old, e))) {
    }
    return old;
  }
}

/// Locations with their initial values, and iterations: which location each updates, with
/// which operand.
template <class T>
struct atomic_case {
  std::vector<T> init;
  std::vector<int> slot;
  std::vector<T> e;
  void add(int s, T v) {
    slot.push_back(s);
    e.push_back(v);
  }
};

/// Iteration x updates location x % slots (the suite's totals[x % (n/10 + 1)]).
template <class T, class Gen>
atomic_case<T> by_mod(int slots, T init, Gen gen) {
  atomic_case<T> c;
  c.init.assign(slots, init);
  for (int x = 0; x < n; ++x) c.add(x % slots, static_cast<T>(gen(x)));
  return c;
}

/// Iteration x updates location x / 10 (the suite's totals[x / 10]).
template <class T, class Gen>
atomic_case<T> by_div10(T init, Gen gen) {
  atomic_case<T> c;
  c.init.assign((n + 9) / 10, init);
  for (int x = 0; x < n; ++x) c.add(x / 10, static_cast<T>(gen(x)));
  return c;
}

namespace detail {

template <class T>
bool same(T a, T b, double tol) {
  if constexpr (std::is_floating_point_v<T>) return close(a, b, tol);
  else return a == b;
}

/// Is there an order of the updates (e, captured) of one location, from `init`, that gives
/// every captured value and ends at `final`? Depth-first over the updates whose captured value
/// fits the current state; states already refuted are remembered.
template <form F, capture C, class T, class Op>
struct chain_search {
  Op op;
  const std::vector<T>& e;
  const std::vector<T>& cap;
  T final;
  double tol;
  std::vector<bool> used;
  std::set<std::pair<std::vector<bool>, T>> refuted;

  bool from(T cur, std::size_t done) {
    if (done == e.size()) return same(cur, final, tol);
    if (refuted.count({used, cur})) return false;
    std::vector<std::pair<T, T>> tried;
    for (std::size_t k = 0; k < e.size(); ++k) {
      if (used[k]) continue;
      const T next = combine<F>(op, cur, e[k]);
      if (!same(cap[k], C == capture::before ? cur : next, tol)) continue;
      // Updates with the same operand and captured value are interchangeable: try one.
      if (std::find(tried.begin(), tried.end(), std::pair{e[k], cap[k]}) != tried.end()) continue;
      tried.emplace_back(e[k], cap[k]);
      used[k] = true;
      if (from(next, done + 1)) return true;
      used[k] = false;
    }
    refuted.insert({used, cur});
    return false;
  }
};

/// Can `x = e op x` over these operands, in some order, end at `final`? Few operands: every
/// order. Otherwise for - and /: the last update has sign +, the one before -, ...; so the
/// result is (sum of some ceil(m/2) operands) - (the rest) +- init, or the same with products.
template <class T, class Op>
bool reversed_result_possible(Op op, T init, std::vector<T> es, T final, double tol) {
  const std::size_t m = es.size();
  if (m <= 7) {
    std::sort(es.begin(), es.end());
    do {
      T x = init;
      for (T v : es) x = combine<form::e_op_x>(op, x, v);
      if (same(x, final, tol)) return true;
    } while (std::next_permutation(es.begin(), es.end()));
    return false;
  } else if constexpr (std::is_same_v<Op, acc::minus_t> || std::is_same_v<Op, acc::divides_t>) {
    constexpr bool sub = std::is_same_v<Op, acc::minus_t>;
    const std::size_t plus_count = (m + 1) / 2;
    for (std::uint32_t mask = 0; mask < (1u << m); ++mask) {
      if (static_cast<std::size_t>(__builtin_popcount(mask)) != plus_count) continue;
      T x = sub ? T(0) : T(1);
      for (std::size_t k = 0; k < m; ++k) {
        const bool plus = (mask >> k) & 1u;
        if constexpr (sub) x = plus ? x + es[k] : x - es[k];
        else x = plus ? x * es[k] : x / es[k];
      }
      // init enters with sign (-1)^m.
      if constexpr (sub) x = (m % 2 == 0) ? x + init : x - init;
      else x = (m % 2 == 0) ? x * init : x / init;
      if (same(x, final, tol)) return true;
    }
    return false;
  } else {
    FAIL("reversed_result_possible: too many operands for this operator");
    return false;
  }
}

}  // namespace detail

/// Runs the case with acc (data region: operands copyin, locations copy, captures copyout; one
/// parallel loop doing the atomic statement) and checks locations and captured values.
template <form F, capture C, class T, class Op>
void run_atomic(const atomic_case<T>& c, Op op, double tol = precision) {
  const int items = static_cast<int>(c.e.size());
  const int slots = static_cast<int>(c.init.size());
  acc::array<T> totals = filled("totals", c.init);
  acc::array<int> slot = filled("slot", c.slot);
  acc::array<T> e = filled("e", c.e);
  acc::array<T> captured("captured", items);
  {
    acc::data region{acc::copyin(slot), acc::copyin(e), acc::copy(totals), acc::copyout(captured)};
    acc::parallel_loop(items, ACC_LAMBDA(int i) {
      const T old = atomic_step<F, C>(totals[slot[i]], op, e[i]);
      // nvcc's extended lambdas must capture outside `if constexpr`.
      [[maybe_unused]] const acc::array<T>& out = captured;
      if constexpr (C == capture::before) out[i] = old;
      else if constexpr (C == capture::after) out[i] = combine<F>(op, old, e[i]);
    });
  }
  std::vector<std::vector<T>> es(slots), caps(slots);
  for (int i = 0; i < items; ++i) {
    es[c.slot[i]].push_back(c.e[i]);
    caps[c.slot[i]].push_back(captured[i]);
  }
  for (int s = 0; s < slots; ++s) {
    INFO("location " << s << " of " << slots << ", " << es[s].size() << " updates, got " << totals[s]);
    if constexpr (C != capture::none) {
      detail::chain_search<F, C, T, Op> search{op, es[s], caps[s], totals[s], tol,
                                               std::vector<bool>(es[s].size(), false), {}};
      REQUIRE(search.from(c.init[s], 0));
    } else if constexpr (F == form::x_op_e || commutes_v<Op>) {
      T want = c.init[s];
      for (T v : es[s]) want = combine<F>(op, want, v);
      INFO("sequential " << want);
      REQUIRE(detail::same(totals[s], want, tol));
    } else {
      REQUIRE(detail::reversed_result_possible(op, c.init[s], es[s], totals[s], tol));
    }
  }
}

}  // namespace
}  // namespace vv
