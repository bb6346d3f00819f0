//! @file Picks where a construct runs (device type, device number, if_) and calls that backend.
#pragma once

#include <acc/backend/host/loop.hpp>
#include <acc/backend/host/loop_reduction.hpp>
#include <acc/detail/capture.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/extent.hpp>

#if defined(ACC_DETAIL_CUDA)
#  include <acc/backend/cuda/loop.hpp>
#  include <acc/backend/cuda/loop_reduction.hpp>
#endif

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>

namespace acc::detail {

struct placement {
  target where;
  int device;  // for nvidia; 0 on the host
};

/// if_(false) and the host device type run on the host; otherwise the device named by
/// device_num, else the thread's current one, which must exist.
inline placement place(const launch_spec& s, const call_site& site) {
  if (!s.if_ || current_target() == target::host) return {target::host, 0};
  const int count = nvidia_device_count();
  const int device = s.device_num >= 0 ? s.device_num : current_nvidia_num();
  if (device >= count)
    fail<bad_clause>(site, (s.device_num >= 0 ? "device_num(" + std::to_string(device) + ")"
                                              : "device " + std::to_string(device) + " (ACC_DEVICE_NUM)") +
                               " does not exist; there are " + std::to_string(count) + " NVIDIA devices");
  return {target::nvidia, device};
}

/// The iteration count of a space, or bad_clause if it does not fit in 64 bits.
template <class Index, std::size_t Rank>
std::uint64_t checked_size(const index_space<Index, Rank>& s, const call_site& site) {
  std::uint64_t n = 1;
  for (auto c : s.count) {
    if (c != 0 && n > UINT64_MAX / c) fail<bad_clause>(site, "the collapsed iteration space exceeds 2^64 iterations");
    n *= c;
  }
  return n;
}

/// What every loop-shaped construct settles before it runs: valid clauses, its iteration space
/// and count, and where it runs.
template <class Extent>
struct construct_plan {
  decltype(to_space(std::declval<const Extent&>())) space;
  std::uint64_t total;
  placement where;
};

template <class Extent>
construct_plan<Extent> plan_construct(const Extent& extent, const launch_spec& spec, const call_site& site) {
  check_spec(spec, site);
  const auto space = to_space(extent);
  const std::uint64_t total = checked_size(space, site);
  return {space, total, place(spec, site)};
}

template <class Extent, class Body>
void run_parallel_loop(const Extent& extent, const launch_spec& spec, const Body& body, const call_site& site) {
  const auto [space, total, p] = plan_construct(extent, spec, site);
#if defined(ACC_DETAIL_CUDA)
  if (p.where == target::nvidia) {
    // The construct's own copy of the body, with the arrays it captured on the device
    // (implicit data, default_present: detail/capture.hpp); copied out by finish().
    mapped_body<Body> mapped(body, p.device, spec, total > 0, site);
    if (total > 0) cuda::run_loop(space, total, spec, p.device, mapped.get(), site);
    return mapped.finish();
  }
#endif
  if (spec.default_present && spec.if_) check_present(body, spec, site);
  if (total == 0) return;
  // A translation unit that nvcc did not compile has no kernels: it runs on the host even when
  // the program's current device is a GPU, as OpenACC's host fallback.
  host::run_loop(space, spec.num_gangs, body);
}

/// parallel_loop with reduction clauses: as run_parallel_loop, and each variable ends as
/// op(its value, every private copy).
template <class Extent, class Body, class... R>
void run_parallel_loop_reductions(const Extent& extent, const launch_spec& spec, const Body& body,
                                  const std::tuple<R...>& reds, const call_site& site) {
  const auto [space, total, p] = plan_construct(extent, spec, site);
#if defined(ACC_DETAIL_CUDA)
  if (p.where == target::nvidia) {
    mapped_body<Body> mapped(body, p.device, spec, total > 0, site);
    if (total > 0) cuda::run_loop_reductions(space, total, spec, p.device, mapped.get(), reds, site);
    return mapped.finish();
  }
#endif
  if (spec.default_present && spec.if_) check_present(body, spec, site);
  host::run_loop_reductions(space, total, spec.num_gangs, body, reds);
}

}  // namespace acc::detail
