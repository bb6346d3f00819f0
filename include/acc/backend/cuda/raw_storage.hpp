//! @file Uninitialised room for values in shared memory: a __shared__ variable may not have a
//! constructor, and the block primitives hold values of any trivially copyable type (some with
//! default member initialisers), so their scratch is bytes, read and written as T.
#pragma once

#include <acc/detail/header_open.hpp>

#include <type_traits>

namespace acc::detail::cuda {

/// Room for N values of T, constructed by nothing; the block primitives' scratch.
template <class T, int N>
struct raw_storage {
  static_assert(std::is_trivially_copyable_v<T>, "acc: values held in scratch memory must be trivially copyable");
  alignas(T) unsigned char bytes[sizeof(T) * N];

  __device__ T* data() { return reinterpret_cast<T*>(bytes); }
  __device__ T& operator[](int i) { return data()[i]; }
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
