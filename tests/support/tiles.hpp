// What the tile tests share: index boxes of rank 1 to 3 given as int[3], and the extent, tile
// shape, array, element access and cached-range test of such a box for rank R.
#pragma once

#include <acc/parallel.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>

namespace acc_test {

using dims = std::array<int, 3>;

template <std::size_t R>
auto extent_of(const dims& n) {
  if constexpr (R == 1) return n[0];
  else if constexpr (R == 2) return acc::collapse(n[0], n[1]);
  else return acc::collapse(n[0], n[1], n[2]);
}
template <std::size_t R>
auto tile_of(const dims& t) {
  if constexpr (R == 1) return acc::tile_size(t[0]);
  else if constexpr (R == 2) return acc::tile_size(t[0], t[1]);
  else return acc::tile_size(t[0], t[1], t[2]);
}
template <class T, std::size_t R>
acc::array<T, R> make_array(const char* label, const dims& n) {
  if constexpr (R == 1) return acc::array<T, R>(label, n[0]);
  else if constexpr (R == 2) return acc::array<T, R>(label, n[0], n[1]);
  else return acc::array<T, R>(label, n[0], n[1], n[2]);
}
/// v(i[0][, i[1][, i[2]]]).
template <std::size_t R, class V>
ACC_ROUTINE decltype(auto) at(const V& v, const int* i) {
  if constexpr (R == 1) return v(i[0]);
  else if constexpr (R == 2) return v(i[0], i[1]);
  else return v(i[0], i[1], i[2]);
}
/// Whether cached view v holds element i.
template <std::size_t R, class V>
ACC_ROUTINE bool has(const V& v, const int* i) {
  if constexpr (R == 1) return v.contains(i[0]);
  else if constexpr (R == 2) return v.contains(i[0], i[1]);
  else return v.contains(i[0], i[1], i[2]);
}

/// The elements of `out` (extents big) that differ from expect(i) for i = {i0, i1, i2}, the
/// first five of them reported; inside the iteration extent n, expect gets inside = true.
template <std::size_t R, class Out, class Expect>
int count_wrong(const Out& out, const dims& big, const dims& n, const Expect& expect) {
  int bad = 0;
  for (int i0 = 0; i0 < big[0]; ++i0)
    for (int i1 = 0; i1 < (R > 1 ? big[1] : 1); ++i1)
      for (int i2 = 0; i2 < (R > 2 ? big[2] : 1); ++i2) {
        const int i[3] = {i0, i1, i2};
        bool inside = true;
        for (std::size_t d = 0; d < R; ++d) inside = inside && i[d] < n[d];
        const auto e = expect(i, inside);
        const auto got = at<R>(out, i);
        if (got != e && bad++ < 5) UNSCOPED_INFO("at " << i0 << "," << i1 << "," << i2 << ": " << got << " expected " << e);
      }
  return bad;
}

}  // namespace acc_test
