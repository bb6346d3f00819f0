//! @file acc::gang_t, the handle a parallel region's body receives. A leaf (no backend), so that
//! the backends that construct it need not include acc/gang.hpp, which includes them.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <cstddef>
#include <span>

namespace acc {

namespace detail {
struct gang_access;
}

template <class T, std::size_t Rank>
class cached_view;

/// What a parallel region's body receives: where the calling thread is, and the gang's shared
/// memory. Each thread has its own copy; all of a gang's copies hand out the same shared
/// memory, because every thread makes the same calls (gang-redundant execution).
/// The members that ask the backend are defined in acc/gang.hpp.
class gang_t {
public:
  ACC_DETAIL_HD int gang_num() const noexcept;
  ACC_DETAIL_HD int num_gangs() const noexcept;
  /// This thread's worker in the gang, below num_workers().
  ACC_DETAIL_HD int worker_num() const noexcept;
  /// The workers the gang runs: num_workers on a GPU; 1 on the host, where one thread runs each
  /// gang (worker loops then run all their iterations in that worker).
  ACC_DETAIL_HD int num_workers() const noexcept { return num_workers_; }
  /// This thread's vector lane; lanes at or above vector_length() only pad a worker to whole
  /// warps and take no vector iterations.
  ACC_DETAIL_HD int vector_lane() const noexcept;
  /// The lanes of each worker: vector_length on a GPU; 1 on the host.
  ACC_DETAIL_HD int vector_length() const noexcept { return vector_length_; }

  /// `count` elements of gang-shared memory (team memory): the same span for every thread of
  /// the gang. Each call takes memory after the last one's until the region ends, so take it
  /// once, before a gang loop, and reuse it in every iteration. Size the region with
  /// acc::shared_bytes; asking for more is an error (acc::bad_clause on the host; on a GPU a
  /// message and a trap).
  template <class T>
  ACC_DETAIL_HD std::span<T> shared(std::size_t count) const;

  /// An n0 x n1 (x n2) row-major block of gang-shared memory, indexed (i, j[, k]) from 0: the
  /// same elements for every thread of the gang, taken from acc::shared_bytes as shared(count).
  /// It is a cached_view (team memory, as acc::cache gives), not an acc::view: an acc::view
  /// always refers to global memory, which lets the compiler keep its elements in registers
  /// next to team memory (backend/cuda/array.hpp).
  /// e.g. auto tile = g.shared<float>(16, 17); tile(i, j) = a(i0 + i, j0 + j);
  template <class T, class N0, class N1, class... N2>
    requires(sizeof...(N2) <= 1)
  ACC_DETAIL_HD cached_view<T, 2 + sizeof...(N2)> shared(N0 n0, N1 n1, N2... n2) const;

  // Constructed by the backends only.
  ACC_DETAIL_HD gang_t(int gang, int num_gangs, int num_workers, int vector_length, unsigned char* shared,
                       std::size_t shared_bytes) noexcept
      : gang_(gang), num_gangs_(num_gangs), num_workers_(num_workers), vector_length_(vector_length),
        shared_(shared), shared_bytes_(shared_bytes) {}
  // Not copyable: a copy would count its own g.shared and loops apart from the gang's, and the
  // gang's next g.shared would hand out the same team memory again. Take it as const gang_t&
  // (in a routine: ACC_ROUTINE void row(const acc::gang_t& g, ...)).
  gang_t(const gang_t&) = delete;
  gang_t& operator=(const gang_t&) = delete;

private:
  friend struct detail::gang_access;

  // How many worker-partitioned loops this thread is inside: vector loops then synchronise
  // per worker. Kept by the CUDA backend's acc::loop.
  mutable int worker_depth_ = 0;
  int gang_, num_gangs_, num_workers_, vector_length_;
  unsigned char* shared_;
  std::size_t shared_bytes_;
  mutable std::size_t shared_used_ = 0;
};

namespace detail {

/// What the backends read of a gang_t beyond its public interface.
struct gang_access {
  static ACC_DETAIL_HD int gang(const gang_t& g) noexcept { return g.gang_; }
  static ACC_DETAIL_HD int num_gangs(const gang_t& g) noexcept { return g.num_gangs_; }
  static ACC_DETAIL_HD int& worker_depth(const gang_t& g) noexcept { return g.worker_depth_; }
  static ACC_DETAIL_HD unsigned char* shared(const gang_t& g) noexcept { return g.shared_; }
  static ACC_DETAIL_HD std::size_t shared_bytes(const gang_t& g) noexcept { return g.shared_bytes_; }
  static ACC_DETAIL_HD std::size_t& shared_used(const gang_t& g) noexcept { return g.shared_used_; }
};

}  // namespace detail
}  // namespace acc

#include <acc/detail/header_close.hpp>
