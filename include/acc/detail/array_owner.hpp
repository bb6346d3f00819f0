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
  array_owner* next_freed = nullptr;  // capture_scope::freed's list
};

/// Page-aligned when a page or more, so that pinning one array's pages never collides with
/// another's (cudaHostRegister works on whole pages).
ACC_DETAIL_RUNTIME_FN array_owner* make_array_owner(std::size_t bytes, std::string_view label);
/// What a copy of an array holding `owner` holds: the owner, counted once more; or, while this
/// thread copies a compute construct's body (its capture scope is open), the owner borrowed,
/// counting nothing. The construct's copy lives only while the construct's call runs, whose
/// arguments hold the user's handles, so it needs no count of its own; a copy made from a
/// borrowed handle outside a capture scope (a gang's copy of the body, say) owns again. Each
/// count is an atomic read-modify-write, and the construct's copy of a closure copies each
/// array twice (nvcc's wrapper of an extended lambda holds the captures twice) and destroys
/// it twice: most of what a captured array cost a launch (bench/results/h100-launch.txt).
ACC_DETAIL_RUNTIME_FN array_owner* copy_array_owner(array_owner* owner) noexcept;
/// Drops a copy's count (nothing for a borrowed owner); the last count frees the storage, or,
/// inside a construct's copy of its body, leaves it to the capture scope's end: a body whose
/// copy constructor copied an array it made itself has borrowed the storage it would free.
ACC_DETAIL_RUNTIME_FN void release_array_owner(array_owner* owner) noexcept;

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
