//! @file What acc::array and acc::view do on the host (and in the host passes of nvcc): index
//! host memory, report bad indices by exception, record captures for compute constructs.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/body_error.hpp>

#include <cstddef>
#include <cstdint>
#include <source_location>
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

  /// acc::section(v, lo, len) of rows outside v: acc::bad_clause naming the line that made it.
  template <class V>
  [[noreturn]] static void rows_outside(const V& v, std::size_t lo, std::size_t len, bool rows,
                                        const std::source_location& where) {
    rows_error(v.label(), lo, len, v.extent(0), rows, where);
  }
  [[noreturn]] static void rows_error(const char* label, std::size_t lo, std::size_t len, std::size_t n, bool rows,
                                      const std::source_location& where) {
    // A negative int passed for lo or len arrives as a huge std::size_t: shown as it was written.
    constexpr std::size_t most = std::size_t(INT64_MAX);
    const auto text = [](std::size_t x) { return x > most ? std::to_string(std::int64_t(x)) : std::to_string(x); };
    fail<bad_clause>(call_site{"section", where},
                     "[" + text(lo) + ":" + text(len) + "] is outside " +
                         source_name(label) + ", whose extent is " +
                         std::to_string(n) + (rows ? " rows" : "") +
                         (lo > most || len > most ? " (a start and a length cannot be negative)" : ""));
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
