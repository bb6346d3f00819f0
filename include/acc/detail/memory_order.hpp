//! @file Memory orders as acc's atomics pass them on: std::memory_order's values, without <atomic>.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <type_traits>

namespace acc::detail {

/// A memory order by its value. std::memory_order's enumerators (libstdc++ and libc++) and
/// GCC's and Clang's __ATOMIC_* constants all number relaxed .. seq_cst 0 .. 5; the runtime
/// checks this against <atomic> where it is compiled (detail/runtime-inl.hpp). acc::atomic_ref
/// takes a std::memory_order argument as a deduced enum and converts it here, so that
/// <acc/parallel.hpp> need not include <atomic>: with C++20's atomic waits it brings pthread and
/// gthr, which cost every translation unit more than any other standard header acc uses
/// (bench/results/compile.txt).
enum class memory_order : int { relaxed = 0, consume = 1, acquire = 2, release = 3, acq_rel = 4, seq_cst = 5 };

/// The default order argument of acc::atomic_ref's operations, as std::memory_order_seq_cst is
/// std::atomic_ref's.
struct seq_cst_t {};

/// The order an acc::atomic_ref operation was given: std::memory_order_relaxed, ... or nothing.
template <class Order>
ACC_DETAIL_HD constexpr memory_order order_of(Order o) noexcept {
  if constexpr (std::is_same_v<Order, seq_cst_t>) {
    return memory_order::seq_cst;
  } else {
    static_assert(std::is_enum_v<Order> && sizeof(Order) == sizeof(int),
                  "acc::atomic_ref: a memory order is std::memory_order_relaxed, _acquire, _release, _acq_rel "
                  "or _seq_cst (from <atomic>), as std::atomic_ref takes");
    return static_cast<memory_order>(static_cast<int>(o));
  }
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
