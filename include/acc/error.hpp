//! @file Exceptions thrown by acc: one base, one subclass per kind of mistake.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/config.hpp>

#include <source_location>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace acc {

/// Base of every exception acc throws. Catch this to handle any acc failure.
class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A CUDA call failed. The message names the CUDA error, the acc source line that made the
/// call, and the user's construct and call site.
/// e.g. "acc::parallel_loop at heat.cpp:42: cudaLaunchKernel failed: ... [acc/backend/cuda/loop.hpp:97]"
class device_error : public error {
public:
  using error::error;
};

/// A clause or argument that can never work: vector_length(0), a negative num_gangs, a
/// vector_length above the device's limit, a device number that does not exist.
class bad_clause : public error {
public:
  using error::error;
};

/// Data that must be present on the device is not (a `present` clause, `default_present`,
/// `update` of data never entered). OpenACC 3.3 §2.7.5.
class not_present_error : public error {
public:
  using error::error;
};

namespace detail {

/// The construct a failure belongs to and where the user wrote it; carried down to the
/// backends so that every message can point at the user's line, not only at ours.
struct call_site {
  const char* construct = "acc";
  std::source_location where = std::source_location::current();
};

/// "acc::parallel_loop at file.cpp:42" (the user's file name without its directories).
ACC_DETAIL_RUNTIME_FN std::string describe(const call_site& site);

/// The exception classes above, as a value: the message is built and the exception thrown out
/// of line (throw_error), so that a construct's error paths cost each translation unit one
/// call, not an instantiation of the string concatenation and the throw (bench/compile).
enum class error_kind { error, device_error, bad_clause, not_present_error };

template <class Error>
inline constexpr error_kind error_kind_of = error_kind::error;
template <>
inline constexpr error_kind error_kind_of<device_error> = error_kind::device_error;
template <>
inline constexpr error_kind error_kind_of<bad_clause> = error_kind::bad_clause;
template <>
inline constexpr error_kind error_kind_of<not_present_error> = error_kind::not_present_error;

/// Throws the exception of `kind` with "<describe(site)>: <what>".
[[noreturn]] ACC_DETAIL_RUNTIME_FN void throw_error(error_kind kind, const call_site& site, const std::string& what);

template <class Error = error>
[[noreturn]] void fail(const call_site& site, const std::string& what) {
  static_assert(std::is_same_v<Error, error> || error_kind_of<Error> != error_kind::error,
                "acc::detail::fail: an exception class without an error_kind");
  throw_error(error_kind_of<Error>, site, what);
}

/// How a message names an array: 'label', or "the array" when it has none.
inline std::string source_name(const char* label) {
  return *label ? "'" + std::string(label) + "'" : std::string("the array");
}

}  // namespace detail
}  // namespace acc

#include <acc/detail/header_close.hpp>
