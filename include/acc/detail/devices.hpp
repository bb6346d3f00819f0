//! @file acc::devices on parallel_loop: which devices a loop is split across, and the split
//! (one contiguous part of the outermost loop per device, each a construct of its own).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/dispatch.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/detail/task.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

#include <cstdint>
#include <string>

namespace acc::detail {

/// Where part k of `parts` begins in a loop of n iterations; part k ends where k + 1 begins.
/// Written so that n * k cannot overflow.
constexpr std::uint64_t part_begin(std::uint64_t n, int k, int parts) noexcept {
  const auto p = static_cast<std::uint64_t>(parts), kk = static_cast<std::uint64_t>(k);
  return n / p * kk + n % p * kk / p;
}

/// The devices a loop's parts go to, in order: none when constructs run on the host (if_(false)
/// or the host device type), where the loop runs whole.
struct device_list {
  int count = 0;
  int ids[devices_t::max_count] = {};
};

/// The NVIDIA devices a devices_t names now; acc::bad_clause for one that does not exist, and
/// on every backend for one named twice, so that the mistake shows without a GPU too.
inline device_list resolve_devices(const devices_t& d, bool on, const call_site& site) {
  for (int k = 0; k < d.count; ++k)
    for (int m = 0; m < k; ++m)
      if (d.ids[m] == d.ids[k])
        fail<bad_clause>(site, "devices(...): device " + std::to_string(d.ids[k]) +
                                   " is named twice; each device holds one part of the loop and of its data");
  device_list list;
  if (!on || current_target() == target::host) return list;
  const int available = nvidia_device_count();
  if (d.count < 0) {
    list.count = available < devices_t::max_count ? available : devices_t::max_count;
    for (int k = 0; k < list.count; ++k) list.ids[k] = k;
    return list;
  }
  for (int k = 0; k < d.count; ++k) {
    if (d.ids[k] < 0 || d.ids[k] >= available)
      fail<bad_clause>(site, "devices(...): device " + std::to_string(d.ids[k]) + " does not exist; there are " +
                                 std::to_string(available) + " NVIDIA devices");
    list.ids[list.count++] = d.ids[k];
  }
  return list;
}

/// The devices_t among a construct's clauses (the clause table lets it occur once).
template <class... C>
constexpr devices_t devices_clause_of(const C&... c) {
  devices_t d{0, {}};
  const auto take = [&](const auto& x) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(x)>, devices_t>) d = x;
  };
  (take(c), ...);
  return d;
}
template <class... C>
inline constexpr bool has_devices_v = (std::is_same_v<std::remove_cvref_t<C>, devices_t> || ...);

/// A parallel_loop with acc::devices. One device (or the host): the loop as it would run
/// without the clause, on that device. Several: part k of the outermost loop on device k, all
/// queued before any is waited for, so the devices run together; each part maps the captured
/// arrays to whatever part of them is present on its device (launch_spec::parts).
template <class Space, class Body>
void run_on_devices(const devices_t& d, const Space& space, std::uint64_t total, launch_spec spec, const Body& body,
                    const call_site& site, nvtx_site* nvtx) {
  const nvtx_range range(nvtx, site);  // one range around the parts
  const device_list list = resolve_devices(d, spec.if_, site);
  if (list.count <= 1 || space.count[0] < 2) {
    if (list.count >= 1) {
      spec.device_num = list.ids[0];
      spec.parts = launch_spec::presence::in_parts_or_copied;  // data entered by parts, as for several devices
    }
    dispatch(loop_task<Space>{{}, space, total}, spec, body, site);
    return;
  }
  const int queue = spec.queue == queue_sync ? queue_noval : spec.queue;
  const std::uint64_t n0 = space.count[0], inner = total / n0;
  spec.parts = launch_spec::presence::in_parts;
  for (int k = 0; k < list.count; ++k) {
    const std::uint64_t b = part_begin(n0, k, list.count), e = part_begin(n0, k + 1, list.count);
    if (b == e) continue;
    Space part = space;
    part.lo[0] = index_at(space.lo[0], b);
    part.count[0] = e - b;
    launch_spec s = spec;
    s.device_num = list.ids[k];
    s.queue = queue;
    dispatch(loop_task<Space>{{}, part, inner * (e - b)}, s, body, site);
  }
  if (spec.queue == queue_sync)
    for (int k = 0; k < list.count; ++k) cuda_ops().wait(list.ids[k], queue, site);
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
