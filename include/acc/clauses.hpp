//! @file Clause objects of the compute constructs (OpenACC 3.3 §2.5.x): plain values.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/reduce_op.hpp>
#include <acc/detail/runtime_state.hpp>

#include <cstddef>
#include <source_location>
#include <type_traits>

namespace acc {

/// OpenACC's acc_async_noval: the queue `async` names when given no number, the calling
/// thread's default async queue (acc::get_default_async; queue 0 until set_default_async).
inline constexpr int async_noval = detail::queue_noval;
/// OpenACC's acc_async_sync: `async(acc::async_sync)` is the same as no async clause.
inline constexpr int async_sync = detail::queue_sync;
/// OpenACC's acc_async_default: acc::set_default_async(acc::async_default) restores the
/// initial default async queue.
inline constexpr int async_default = detail::queue_default;

// Each clause made by a factory remembers where it was written: constructs that return a
// value (parallel_reduce, parallel_scan) take any number of clauses, so no defaulted
// std::source_location can follow them, and name the user's line from their first clause.
struct num_gangs_t { int value; std::source_location where; };
struct num_workers_t { int value; std::source_location where; };
struct vector_length_t { int value; std::source_location where; };
struct async_t { int queue; std::source_location where; };
struct if_t { bool value; std::source_location where; };
struct device_num_t { int value; std::source_location where; };
struct default_present_t {};
/// The devices a parallel_loop's iterations are split across; count -1: every device.
struct devices_t {
  static constexpr int max_count = 16;
  int count;
  int ids[max_count];
};
struct adaptive_t {};
struct tuned_t {};
struct shared_bytes_t { std::size_t value; std::source_location where; };
template <class Op, class T>
struct reduction_t {
  using value_type = T;
  Op op;
  T* var;
  std::source_location where;
};

/// Number of gangs (CUDA blocks). OpenACC 3.3 §2.5.10.
constexpr num_gangs_t num_gangs(int n, std::source_location w = std::source_location::current()) noexcept {
  return {n, w};
}
/// Workers per gang (threadIdx.y). OpenACC 3.3 §2.5.11.
constexpr num_workers_t num_workers(int n, std::source_location w = std::source_location::current()) noexcept {
  return {n, w};
}
/// Vector lanes per worker (threadIdx.x); need not be a multiple of 32. OpenACC 3.3 §2.5.12.
constexpr vector_length_t vector_length(int n, std::source_location w = std::source_location::current()) noexcept {
  return {n, w};
}
/// Runs the construct on queue q without waiting for it; acc::wait(q) waits. Queues are
/// ordered within themselves and independent of one another. OpenACC 3.3 §2.16.1.
constexpr async_t async(int q = async_noval, std::source_location w = std::source_location::current()) noexcept {
  return {q, w};
}
/// if_(false) runs the construct on the host. OpenACC 3.3 §2.5.6.
constexpr if_t if_(bool on_device, std::source_location w = std::source_location::current()) noexcept {
  return {on_device, w};
}
/// Runs the construct on device n of the current device type.
constexpr device_num_t device_num(int n, std::source_location w = std::source_location::current()) noexcept {
  return {n, w};
}
/// Splits a parallel_loop's iterations across these devices of the current device type, one
/// contiguous part of the outermost loop each, in the order given (acc::device_part says which
/// part is whose). Every array the body captures must be present on each device, wholly or
/// the part that device reads (its iterations and their halo): explicit per-device data, e.g.
/// acc::enter_data(acc::copyin(acc::section(a, lo - 1, n + 2)), acc::device_num(d)).
/// Without async the call returns when every part is done. With one device, or when constructs
/// run on the host, the loop runs whole where a plain parallel_loop would (device 0 of the list).
/// e.g. acc::parallel_loop(n, acc::devices(0, 1), ACC_LAMBDA(int i) { y[i] += a * x[i]; });
template <class... I>
constexpr devices_t devices(I... ids) noexcept {
  static_assert(sizeof...(I) >= 1 && sizeof...(I) <= devices_t::max_count,
                "acc::devices: give 1 to 16 device numbers, e.g. acc::devices(0, 1); for every device write "
                "acc::all_devices");
  static_assert((std::is_integral_v<I> && ...), "acc::devices: device numbers are integers: acc::devices(0, 1)");
  return {int(sizeof...(I)), {int(ids)...}};
}
/// acc::devices over every device of the current type (acc::get_num_devices).
inline constexpr devices_t all_devices{-1, {}};
/// Bytes of gang-shared memory (team memory) for acc::parallel, handed out by gang_t::shared;
/// above 48 KiB where the device allows it.
constexpr shared_bytes_t shared_bytes(std::size_t n, std::source_location w = std::source_location::current()) noexcept {
  return {n, w};
}
/// reduction(op, var) on acc::parallel_loop (OpenACC 3.3 §2.9.11 `reduction(op:var)`) and
/// acc::parallel (§2.5.15): the body receives a private T& per reduction clause, in clause
/// order, starting at op's identity; at the end var = op(var, every private value). A loop has
/// a private copy per thread, a region one per gang (acc/region.hpp). op as for
/// acc::parallel_reduce, and it must have an identity; var must not be const.
/// e.g. acc::parallel_loop(n, acc::reduction(acc::plus, sum), ACC_LAMBDA(int i, double& s) { s += x[i]; });
template <class Op, class T>
constexpr reduction_t<Op, T> reduction(Op op, T& var, std::source_location w = std::source_location::current()) noexcept {
  static_assert(!std::is_const_v<T>,
                "acc::reduction: the reduction variable is const, so the result cannot be stored in it; reduce "
                "into a non-const variable");
  // Each private copy starts from op's identity: no initial value stands in for it here.
  constexpr bool op_checked = std::is_const_v<T> || detail::check_op_reduction<Op, T, false>();
  static_cast<void>(op_checked);
  return {op, &var, w};
}
/// Every array the construct captures must already be present (OpenACC `default(present)`);
/// otherwise acc::not_present_error.
inline constexpr default_present_t default_present{};

/// Lets acc choose, per call site and size class (iterations rounded down to a power of two),
/// between the host and the GPU from measured times, data movement included (Sato et al.,
/// SPRAT): the first runs of a size class are timed on both, later classes are predicted from a
/// fitted time-against-size model, and a choice changes only when the other side is predicted
/// faster by more than a margin (hysteresis). ACC_DEVICE_TYPE=auto applies it to every
/// construct that accepts it. Without a GPU the construct runs on the host.
/// - Data present on the GPU stays coherent: a host run copies the construct's captured present
///   arrays to the host first (update_self) and back after (update_device, unless const).
/// - An async construct waits for its queue while it is being timed (its first runs per size
///   class), and runs on the host synchronously.
/// e.g. acc::parallel_loop(n, acc::adaptive, ACC_LAMBDA(int i) { y[i] += a * x[i]; });
inline constexpr adaptive_t adaptive{};

/// Lets acc search the launch configuration that the clauses leave open (vector_length, then
/// gangs per iteration) per call site, GPU and size class over the construct's first calls, and
/// keep the fastest, never slower than the default one. With ACC_TUNE_CACHE=<file> the choices
/// persist across runs (a stale or corrupt file is ignored with a warning). No effect on the host.
/// - Results do not depend on the configuration: only iteration-independent constructs take it
///   (parallel_loop, parallel_reduce).
/// e.g. acc::parallel_loop(n, acc::tuned, ACC_LAMBDA(int i) { y[i] += a * x[i]; });
inline constexpr tuned_t tuned{};

}  // namespace acc

#include <acc/detail/header_close.hpp>
