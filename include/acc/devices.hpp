//! @file Several devices in one process: update_peer between device copies, and the parts
//! that acc::devices (a parallel_loop clause, acc/clauses.hpp) gives each device.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/data.hpp>
#include <acc/detail/devices.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>
#include <acc/runtime.hpp>

#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

namespace acc {
namespace detail {

inline void update_peer(const host_span& s, int from, int to, int queue, const call_site& site) {
  check_data_queue(queue, site);
  if (from < 0 || to < 0)
    fail<bad_clause>(site, "device " + std::to_string(from < 0 ? from : to) + " is negative");
  // With no GPU (or the host device type) every device is the host: the data is one copy.
  const int device_from = data_device(from, site), device_to = data_device(to, site);
  peer_action(device_from, device_to, s, queue, site);
}

}  // namespace detail

/// Copies the device copy of present data on `from_device` to its device copy on `to_device`
/// (Xu et al.'s `update peer`; both hold it, wholly or as a section): GPU to GPU directly where
/// the GPUs allow peer access (NVLink, PCIe), staged through the host by CUDA otherwise.
/// - Synchronous unless acc::async(q): then queued on queue q of to_device, after the work
///   queued so far on queue q of from_device, and complete after acc::wait(q) on to_device.
/// - acc::not_present_error when either device lacks the data. With no GPU both are the host.
/// e.g. acc::update_peer(acc::section(t, rows, 1), 0, 1);  // device 0's last row to device 1
template <class X>
void update_peer(const X& x, int from_device, int to_device,
                 std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::update_peer: takes an acc::array, acc::view or acc::section (acc::section(p, n) for a pointer) "
                "or an ACC_DECLARE variable");
  const detail::call_site site{"update_peer", where};
  detail::update_peer(detail::item_span(x, site), from_device, to_device, detail::queue_sync, site);
}
/// update_peer queued on q (see above).
template <class X>
void update_peer(const X& x, int from_device, int to_device, async_t q,
                 std::source_location where = std::source_location::current()) {
  static_assert(detail::is_update_item_v<X>,
                "acc::update_peer: takes an acc::array, acc::view or acc::section (acc::section(p, n) for a pointer) "
                "or an ACC_DECLARE variable");
  const detail::call_site site{"update_peer", where};
  detail::update_peer(detail::item_span(x, site), from_device, to_device, q.queue, site);
}

/// The device numbers that a parallel_loop with clause `d` splits its iterations across now,
/// in order: one per part. When constructs run on the host, one part (device 0: the host).
/// e.g. for (int d : acc::devices_of(acc::all_devices)) acc::enter_data(..., acc::device_num(d));
ACC_DETAIL_RUNTIME_FN std::vector<int> devices_of(const devices_t& d,
                                                  std::source_location where = std::source_location::current());

/// The iterations of [r.lo, r.hi) that a devices-split parallel_loop runs on its part k of
/// `parts` (the outermost loop of a collapse is split the same way): what that device needs
/// present, plus the halo its iterations read.
/// e.g. auto mine = acc::device_part(acc::range(1, n - 1), k, int(devs.size()));
template <class I>
constexpr range_t<I> device_part(range_t<I> r, int k, int parts) noexcept {
  if (r.negative_unsigned) return r;  // the construct that runs it reports it
  if (!(r.lo < r.hi) || parts < 1) return {r.lo, r.lo};
  const std::uint64_t n = detail::trip_count(r.lo, r.hi);
  return {detail::index_at(r.lo, detail::part_begin(n, k, parts)), detail::index_at(r.lo, detail::part_begin(n, k + 1, parts))};
}
/// device_part of the loop [0, n).
template <class I>
  requires std::is_integral_v<I>
constexpr range_t<I> device_part(I n, int k, int parts) noexcept {
  return device_part(range_t<I>{I(0), n}, k, parts);
}

}  // namespace acc

#include <acc/detail/header_close.hpp>
