//! @file acc::cached_view: what a tile_loop body receives for a cached array, and what
//! acc::cache returns: the tile's copy of part of an array, indexed with the array's indices.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/array.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/tile_ops.hpp>
#include <acc/detail/tile_range.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace acc {

/// A tile's cached copy of an array (or, on the host backend for fetch-only clauses of const
/// elements and for acc::cache's read-only views, the array itself), indexed with the array's
/// global indices: v(i - 1, j) is element (i - 1, j).
/// - Valid indices are the cached range lo(d) <= i < hi(d): the tile's range with its halo,
///   or the fixed range, clipped to the array. With ACC_BOUNDS_CHECK an index outside it is
///   reported with the array's label, the index and the range (acc::error on the host; a
///   message and a trap on a GPU, where views made by acc::cache carry no label).
/// - Elements are T& into shared memory on a GPU. Without acc::fetch they start uninitialised.
/// - Trivially copyable; cheap to pass by value or reference.
template <class T, std::size_t Rank>
class cached_view {
public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  static constexpr std::size_t rank() noexcept { return Rank; }

  /// Element (i[, j[, k]]), by global index.
  template <class... I>
  ACC_DETAIL_HD T& operator()(I... i) const {
    static_assert(sizeof...(I) == Rank, "acc::cached_view: index with one integer per dimension of the cached array");
    static_assert(detail::all_integral_v<I...>, "acc::cached_view: indices must be integers");
#if defined(ACC_BOUNDS_CHECK)
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    for (std::size_t d = 0; d < Rank; ++d)
      if (idx[d] < lo_[d] || idx[d] >= hi_[d]) detail::tile_ops::cache_index_error(label_, d, idx[d], lo_[d], hi_[d]);
#endif
    return detail::tile_ops::element<T, Rank>(p_, origin_, stride_, i...);
  }
  /// Element i of a rank-1 view.
  template <class I>
  ACC_DETAIL_HD T& operator[](I i) const {
    static_assert(Rank == 1, "acc::cached_view: v[i] is for rank 1; write v(i, j) for rank 2");
    return (*this)(i);
  }

  /// First valid global index of dimension d (the cached range clipped to the array).
  ACC_DETAIL_HD std::int64_t lo(std::size_t d = 0) const noexcept { return lo_[d]; }
  /// One past the last valid global index of dimension d.
  ACC_DETAIL_HD std::int64_t hi(std::size_t d = 0) const noexcept { return hi_[d]; }
  /// Whether (i[, j[, k]]) is inside the cached range.
  template <class... I>
  ACC_DETAIL_HD bool contains(I... i) const noexcept {
    const std::int64_t idx[] = {static_cast<std::int64_t>(i)...};
    for (std::size_t d = 0; d < Rank; ++d)
      if (idx[d] < lo_[d] || idx[d] >= hi_[d]) return false;
    return true;
  }

  cached_view() = default;

  /// A read-only view of the same cached elements (a body may take cached_view<const T, R>).
  template <class U>
    requires(std::is_same_v<const U, T> && !std::is_same_v<U, T>)
  ACC_DETAIL_HD cached_view(const cached_view<U, Rank>& o) noexcept : p_(o.p_) {
    for (std::size_t d = 0; d < Rank; ++d) {
      origin_[d] = o.origin_[d];
      stride_[d] = o.stride_[d];
      lo_[d] = o.lo_[d];
      hi_[d] = o.hi_[d];
    }
#if defined(ACC_BOUNDS_CHECK)
    for (std::size_t k = 0; k < detail::label_chars; ++k) label_[k] = o.label_[k];
#endif
  }

  // Made by the library only: storage p (element `origin`), strides in elements.
  ACC_DETAIL_HD cached_view(T* p, const std::int64_t* origin, const std::int64_t* stride, const std::int64_t* lo,
                            const std::int64_t* hi, [[maybe_unused]] const char* label) noexcept
      : p_(p) {
    for (std::size_t d = 0; d < Rank; ++d) {
      origin_[d] = origin[d];
      stride_[d] = stride[d];
      lo_[d] = lo[d];
      hi_[d] = hi[d];
    }
#if defined(ACC_BOUNDS_CHECK)
    std::size_t k = 0;
    for (; label && label[k] && k + 1 < detail::label_chars; ++k) label_[k] = label[k];
    label_[k] = '\0';
#endif
  }

private:
  template <class, std::size_t>
  friend class cached_view;
  T* p_ = nullptr;
  std::int64_t origin_[Rank] = {};
  std::int64_t stride_[Rank] = {};
  std::int64_t lo_[Rank] = {};
  std::int64_t hi_[Rank] = {};
#if defined(ACC_BOUNDS_CHECK)
  char label_[detail::label_chars] = {};
#endif
};

}  // namespace acc

#include <acc/detail/header_close.hpp>
