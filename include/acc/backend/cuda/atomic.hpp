//! @file Atomic operations inside kernels: CUDA's built-in atomic functions where the hardware
//! has the operation, compare-and-swap loops elsewhere.
//!
//! libcu++'s cuda::atomic_ref would do the same, but <cuda/atomic> adds about 2 s to every
//! translation unit that includes acc/parallel.hpp; the built-ins need no header.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/memory_order.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace acc::detail::cuda {

/// The integer that carries T's bits through atomicCAS / atomicExch (4 or 8 bytes).
template <class T>
using atomic_bits_t = std::conditional_t<sizeof(T) == 4, unsigned, unsigned long long>;

template <class To, class From>
__device__ To bits_cast(const From& v) noexcept {
  static_assert(sizeof(To) == sizeof(From));
  To r;
  memcpy(&r, &v, sizeof(To));
  return r;
}

// Device-scope orders: a relaxed operation has no fence; anything stronger is fenced on both
// sides, which is at least what acquire, release and seq_cst ask for.
__device__ inline void fence_before(memory_order o) noexcept {
  if (o != memory_order::relaxed && o != memory_order::consume && o != memory_order::acquire)
    __threadfence();
}
__device__ inline void fence_after(memory_order o) noexcept {
  if (o != memory_order::relaxed && o != memory_order::release) __threadfence();
}

struct atomic_ops {
  template <class T>
  __device__ static T add(T* p, T v) noexcept {
    if constexpr (std::is_floating_point_v<T>) {
      return atomicAdd(p, v);
    } else if constexpr (sizeof(T) == 4) {
      using U = std::conditional_t<std::is_signed_v<T>, int, unsigned>;
      return static_cast<T>(atomicAdd(reinterpret_cast<U*>(p), static_cast<U>(v)));
    } else {
      // Two's complement: the unsigned 64-bit add gives the signed sum too.
      return static_cast<T>(atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
    }
  }

  template <class T>
  __device__ static T load(const T* p, memory_order o) noexcept {
    // An aligned access of up to 8 bytes is single-copy atomic; volatile keeps it a real load.
    const T v = *const_cast<const volatile T*>(p);
    fence_after(o);
    return v;
  }
  template <class T>
  __device__ static void store(T* p, T v, memory_order o) noexcept {
    fence_before(o);
    *const_cast<volatile T*>(p) = v;
    if (o == memory_order::seq_cst) __threadfence();
  }
  template <class T>
  __device__ static T exchange(T* p, T v, memory_order o) noexcept {
    if constexpr (sizeof(T) >= 4) {
      using U = atomic_bits_t<T>;
      fence_before(o);
      const T old = bits_cast<T>(atomicExch(reinterpret_cast<U*>(p), bits_cast<U>(v)));
      fence_after(o);
      return old;
    } else {
      return fetch_apply(p, [v](T) { return v; }, o);
    }
  }
  /// Strong compare-exchange; compares value bits, as std::atomic_ref does.
  template <class T>
  __device__ static bool compare_exchange(T* p, T& expected, T desired, memory_order success,
                                          memory_order) noexcept {
    fence_before(success);
    bool ok;
    if constexpr (sizeof(T) >= 4) {
      using U = atomic_bits_t<T>;
      const U want = bits_cast<U>(expected);
      const U seen = atomicCAS(reinterpret_cast<U*>(p), want, bits_cast<U>(desired));
      ok = seen == want;
      if (!ok) expected = bits_cast<T>(seen);
    } else {
      ok = narrow_cas(p, expected, desired);
    }
    fence_after(success);
    return ok;
  }
  template <class T>
  __device__ static T fetch_add(T* p, T v, memory_order o) noexcept {
    if constexpr (sizeof(T) >= 4) {
      fence_before(o);
      const T old = add(p, v);
      fence_after(o);
      return old;
    } else {
      return fetch_apply(p, [v](T old) { return T(old + v); }, o);
    }
  }
  template <class T>
  __device__ static T fetch_sub(T* p, T v, memory_order o) noexcept {
    if constexpr (std::is_floating_point_v<T>) return fetch_add(p, T(-v), o);
    // Modulo 2^n, adding the negation subtracts, for signed and unsigned alike.
    else if constexpr (sizeof(T) >= 4) return fetch_add(p, static_cast<T>(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(v)), o);
    else return fetch_apply(p, [v](T old) { return T(old - v); }, o);
  }
  template <class T>
  __device__ static T fetch_and(T* p, T v, memory_order o) noexcept {
    if constexpr (sizeof(T) >= 4) return bitwise<0>(p, v, o);
    else return fetch_apply(p, [v](T old) { return T(old & v); }, o);
  }
  template <class T>
  __device__ static T fetch_or(T* p, T v, memory_order o) noexcept {
    if constexpr (sizeof(T) >= 4) return bitwise<1>(p, v, o);
    else return fetch_apply(p, [v](T old) { return T(old | v); }, o);
  }
  template <class T>
  __device__ static T fetch_xor(T* p, T v, memory_order o) noexcept {
    if constexpr (sizeof(T) >= 4) return bitwise<2>(p, v, o);
    else return fetch_apply(p, [v](T old) { return T(old ^ v); }, o);
  }
  template <class T>
  __device__ static T fetch_min(T* p, T v, memory_order o) noexcept {
    if constexpr (std::is_integral_v<T> && sizeof(T) >= 4) return min_max<true>(p, v, o);
    else return fetch_apply(p, [v](T old) { return v < old ? v : old; }, o);
  }
  template <class T>
  __device__ static T fetch_max(T* p, T v, memory_order o) noexcept {
    if constexpr (std::is_integral_v<T> && sizeof(T) >= 4) return min_max<false>(p, v, o);
    else return fetch_apply(p, [v](T old) { return old < v ? v : old; }, o);
  }

  /// *p = f(*p) as one indivisible step; returns the old value.
  template <class T, class F>
  __device__ static T fetch_apply(T* p, const F& f, memory_order o) noexcept {
    fence_before(o);
    T old = *const_cast<const volatile T*>(p);
    if constexpr (sizeof(T) >= 4) {
      using U = atomic_bits_t<T>;
      U seen = bits_cast<U>(old);
      for (;;) {
        const U want = seen;
        seen = atomicCAS(reinterpret_cast<U*>(p), want, bits_cast<U>(f(bits_cast<T>(want))));
        if (seen == want) break;
      }
      old = bits_cast<T>(seen);
    } else {
      while (!narrow_cas(p, old, f(old))) {
      }
    }
    fence_after(o);
    return old;
  }

private:
  // 1- and 2-byte values: compare-and-swap of the aligned 4-byte word that holds them
  // (little-endian), retried while only the neighbouring bytes changed.
  template <class T>
  __device__ static bool narrow_cas(T* p, T& expected, T desired) noexcept {
    using N = std::conditional_t<sizeof(T) == 1, unsigned char, unsigned short>;
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    unsigned* word = reinterpret_cast<unsigned*>(addr & ~std::uintptr_t(3));
    const unsigned shift = unsigned(addr & 3) * 8;
    const unsigned mask = unsigned(N(~N(0))) << shift;
    const unsigned want = unsigned(bits_cast<N>(expected)) << shift;
    const unsigned put = unsigned(bits_cast<N>(desired)) << shift;
    unsigned seen = *const_cast<const volatile unsigned*>(word);
    for (;;) {
      if ((seen & mask) != want) {
        expected = bits_cast<T>(N((seen & mask) >> shift));
        return false;
      }
      const unsigned prev = atomicCAS(word, seen, (seen & ~mask) | put);
      if (prev == seen) return true;
      seen = prev;
    }
  }

  template <int Kind, class T>
  __device__ static T bitwise(T* p, T v, memory_order o) noexcept {
    using U = atomic_bits_t<T>;
    U* q = reinterpret_cast<U*>(p);
    const U b = static_cast<U>(v);
    fence_before(o);
    U old;
    if constexpr (Kind == 0) old = atomicAnd(q, b);
    else if constexpr (Kind == 1) old = atomicOr(q, b);
    else old = atomicXor(q, b);
    fence_after(o);
    return static_cast<T>(old);
  }

  template <bool Min, class T>
  __device__ static T min_max(T* p, T v, memory_order o) noexcept {
    using U = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 4, int, long long>,
                                 atomic_bits_t<T>>;
    U* q = reinterpret_cast<U*>(p);
    fence_before(o);
    const U old = Min ? atomicMin(q, static_cast<U>(v)) : atomicMax(q, static_cast<U>(v));
    fence_after(o);
    return static_cast<T>(old);
  }
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
