//! @file Async queues: waiting and testing (OpenACC 3.3 §2.16, §3.2.11-3.2.14).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>
#include <acc/runtime.hpp>

#include <source_location>
#include <string>

namespace acc {
namespace detail {

inline void check_queue(int q, const call_site& site) {
  if (q < 0 && q != queue_noval && q != queue_sync)
    fail<bad_clause>(site, std::to_string(q) + " is not a queue; use a number >= 0 or acc::async_noval");
}

}  // namespace detail

/// Blocks until everything queued on q is done (`acc_wait`). A queue never used is done.
inline void wait(int q, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"wait", where};
  detail::check_queue(q, site);
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().wait(d, q, site);
}

namespace detail {
/// A variadic function's first queue and the caller's location: no defaulted
/// std::source_location can follow a pack, but the conversion from int that makes this
/// argument runs at the caller's line.
struct queue_here {
  int queue;
  std::source_location where;
  queue_here(int q, std::source_location w = std::source_location::current()) noexcept : queue(q), where(w) {}
};
}  // namespace detail

/// Blocks until each of the queues is done (`#pragma acc wait(q1, q2, ...)`).
template <class... Queues>
void wait(detail::queue_here q1, int q2, Queues... more) {
  for (int q : {q1.queue, q2, static_cast<int>(more)...}) wait(q, q1.where);
}

/// Blocks until every queue of the current device is done: `#pragma acc wait` with no
/// argument (OpenACC 3.3 §2.16.3), the same as acc::wait_all().
/// e.g. acc::parallel_loop(n, acc::async(1), ...); acc::parallel_loop(n, acc::async(2), ...); acc::wait();
inline void wait(std::source_location where = std::source_location::current()) {
  const detail::call_site site{"wait", where};
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().wait_all(d, site);
}

/// Blocks until every queue of the current device is done (`acc_wait_all`).
inline void wait_all(std::source_location where = std::source_location::current()) {
  const detail::call_site site{"wait_all", where};
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().wait_all(d, site);
}

/// Queue q goes on with work queued on it from now on only after everything every other queue
/// of the current device holds now is done; the host does not block (`acc_wait_all_async`,
/// `#pragma acc wait async(q)`).
inline void wait_all_async(int q, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"wait_all_async", where};
  detail::check_queue(q, site);
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().wait_all_async(d, q, site);
}

/// Blocks until one of the `count` queues listed is done and returns its index
/// (`acc_wait_any`); entries equal to acc::async_sync are skipped, and when every entry is,
/// it returns -1 at once. With several done, the lowest index wins. On the host device
/// constructs are complete when they return: the first entry that is not async_sync.
inline int wait_any(int count, const int* queues, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"wait_any", where};
  for (int i = 0; i < count; ++i)
    if (queues[i] != async_sync) detail::check_queue(queues[i], site);
  const int d = detail::current_device();
  for (;;) {
    bool any = false;
    for (int i = 0; i < count; ++i) {
      if (queues[i] == async_sync) continue;
      any = true;
      if (d < 0 || detail::cuda_ops().test(d, queues[i], site)) return i;
    }
    if (!any) return -1;
    detail::yield_thread();
  }
}

/// Whether everything queued on q is done, without blocking (`acc_async_test`).
inline bool async_test(int q, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"async_test", where};
  detail::check_queue(q, site);
  if (int d = detail::current_device(); d >= 0) return detail::cuda_ops().test(d, q, site);
  return true;
}

/// Work queued on `waiting` from now on starts only after what is queued on `waited` now is
/// done; the host does not block (`acc_wait_async(waited, waiting)`).
inline void wait_async(int waited, int waiting, std::source_location where = std::source_location::current()) {
  const detail::call_site site{"wait_async", where};
  detail::check_queue(waited, site);
  detail::check_queue(waiting, site);
  if (int d = detail::current_device(); d >= 0) detail::cuda_ops().wait_async(d, waited, waiting, site);
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
