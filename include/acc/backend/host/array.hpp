//! @file What acc::array and acc::view do on the host (and in the host passes of nvcc): index
//! host memory, report bad indices by exception, record captures for compute constructs.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/body_error.hpp>

#include <cstddef>
#include <string>

namespace acc::detail::host {

/// The host side of array and view; detail/array_ops.hpp picks it or cuda::array_ops.
struct array_ops {
  /// Copies made here are the host's: they own references, keep labels and tell a compute
  /// construct which data its body captured.
  static constexpr bool is_host = true;

  template <class Ref, class T>
  static Ref load(T* host, T*, std::size_t k) noexcept {
    return host[k];
  }

  /// Inside a construct the executor adds the construct and its call site to the report.
  [[noreturn]] static void index_error(const char* label, const char*, std::size_t dim, long long index,
                                       std::size_t extent) {
    throw body_error<error>("index " + std::to_string(index) + " is outside extent " + std::to_string(extent) +
                " of dimension " + std::to_string(dim) + " of " +
                (label ? "'" + std::string(label) + "'" : std::string("an unlabelled array")));
  }
};

}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
