//! @file Errors acc finds inside a body (an index outside its array, g.shared past
//! shared_bytes): where they are thrown the construct is unknown, so the host executor that
//! catches them rethrows them with the construct and its call site.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/error.hpp>

#include <cstring>
#include <string>

namespace acc::detail {

/// Error (acc::error or acc::bad_clause) whose message lacks the call site: "acc: <what>"
/// when it reaches the user directly (host code outside any construct), "acc::<construct> at
/// <file>:<line>: <what>" once a construct's executor has caught it (host/executor.hpp).
template <class Error>
class body_error : public Error {
public:
  explicit body_error(const std::string& what) : Error(prefix + what) {}
  /// The message without "acc: ", for the construct to put its site before.
  const char* detail() const noexcept { return this->what() + std::strlen(prefix); }

private:
  static constexpr const char* prefix = "acc: ";
};

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
