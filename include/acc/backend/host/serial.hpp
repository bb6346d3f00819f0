//! @file Host backend of acc::serial: the body once, on the calling thread.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/host/backend.hpp>
#include <acc/backend/host/executor.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/task.hpp>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// serial on the host: one part, so an exception from the body reaches the caller as from
/// every other host construct (acc's own reports naming the call site).
template <class Body>
void run(backend, const serial_task&, const Body& body, const launch_context& ctx) {
  executor ex(1);
  ex.run_parts([&](std::size_t) { body(); });
  ex.rethrow(ctx.site);
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
