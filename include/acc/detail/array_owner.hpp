//! @file The shared host storage behind acc::array handles (defined in detail/runtime-inl.hpp).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace acc::detail {

/// Host storage of an acc::array, shared by its copies (they are handles, as captures must be
/// cheap). The last owner's release also drops the storage's present entries.
struct array_owner {
  long refs = 1;  // changed only by the functions below, atomically
  std::string label;
  void* storage = nullptr;
  std::size_t bytes = 0;
  std::size_t align = 0;
};

/// Page-aligned when a page or more, so that pinning one array's pages never collides with
/// another's (cudaHostRegister works on whole pages).
ACC_DETAIL_RUNTIME_FN array_owner* make_array_owner(std::size_t bytes, std::string_view label);
ACC_DETAIL_RUNTIME_FN void retain_array_owner(array_owner* owner) noexcept;
ACC_DETAIL_RUNTIME_FN void release_array_owner(array_owner* owner) noexcept;

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
