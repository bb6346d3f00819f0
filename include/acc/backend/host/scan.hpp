//! @file Host backend of the scans: a sequential pass, or with OpenMP a two-pass scan over the
//! executor's parts, one contiguous part per thread (fold each part, scan the part sums in
//! order, rescan each part from its prefix). Deterministic for a fixed thread count; order-preserving for any
//! associative operator.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/host/backend.hpp>
#include <acc/backend/host/executor.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// Below this many elements a scan runs on the calling thread: the second pass and the
/// thread start cost more than they save.
inline constexpr std::uint64_t scan_parallel_min = 1u << 15;

/// Parts for a scan of `n` elements (1: sequential).
inline int scan_parts([[maybe_unused]] std::uint64_t n) {
#if defined(ACC_DETAIL_OPENMP)
  if (n < scan_parallel_min) return 1;
  return parts_for(0, n);
#else
  return 1;
#endif
}

/// out[i] = op(init, in[0], ..., in[i - 1]) (Exclusive) or op(in[0], ..., in[i]) (inclusive),
/// in V, the output's element type. out may be in (in place): each element is read before it
/// is written. With several parts, two passes of the executor: each part folds its elements,
/// then scans them from the fold of the parts before it.
template <bool Exclusive, class T, class V, class Op>
void scan(const T* in, std::uint64_t n, V* out, const V& init, const Op& op, const call_site& site) {
  if (n == 0) return;
  executor ex(scan_parts(n));
  if (ex.parts() == 1) {
    ex.run_parts([&](std::size_t) {
      if constexpr (Exclusive) {
        V acc = init;
        for (std::uint64_t i = 0; i < n; ++i) {
          const V x = static_cast<V>(in[i]);
          out[i] = acc;
          acc = op(acc, x);
        }
      } else {
        V acc = static_cast<V>(in[0]);
        out[0] = acc;
        for (std::uint64_t i = 1; i < n; ++i) out[i] = acc = op(acc, static_cast<V>(in[i]));
      }
    });
    ex.rethrow(site);
    return;
  }
  // Part sums start from their first element, so the operator needs no identity.
  std::vector<part_value<V>> sums(ex.parts(), part_value<V>{init});
  ex.run_parts([&](std::size_t p) {
    bool have = false;
    V acc = init;
    ex.part_chunks(p, n, [&](std::uint64_t t0, std::uint64_t t1) {
      std::uint64_t i = t0;
      if (!have) acc = static_cast<V>(in[i]), ++i, have = true;
      for (; i < t1; ++i) acc = op(acc, static_cast<V>(in[i]));
    });
    sums[p].value = acc;
  });
  ex.rethrow(site);
  ex.run_parts([&](std::size_t p) {
    // Every part folds the sums before it itself: no serial step between the passes.
    bool have = Exclusive;
    V prefix = init;
    for (std::size_t q = 0; q < p; ++q) {
      prefix = have ? op(prefix, sums[q].value) : sums[q].value;
      have = true;
    }
    ex.part_chunks(p, n, [&](std::uint64_t t0, std::uint64_t t1) {
      if constexpr (Exclusive) {
        for (std::uint64_t i = t0; i < t1; ++i) {
          const V x = static_cast<V>(in[i]);
          out[i] = prefix;
          prefix = op(prefix, x);
        }
      } else {
        std::uint64_t i = t0;
        if (!have) out[i] = prefix = static_cast<V>(in[i]), ++i, have = true;
        for (; i < t1; ++i) out[i] = prefix = op(prefix, static_cast<V>(in[i]));
      }
    });
  });
  ex.rethrow(site);
}

/// parallel_scan (Kokkos semantics): body(i, partial, final); returns the total. On one part
/// one final call per iteration with partial = the exclusive prefix; on several, a pass of
/// non-final calls per part gives the part sums, then each part makes its final calls from
/// its prefix.
template <class Index, class Op, class T, class Body>
T run(backend, const parallel_scan_task<index_space<Index, 1>, Op, T>& task, const Body& body,
      const launch_context& ctx) {
  const index_space<Index, 1>& s = task.space;
  const std::uint64_t total = task.total;
  const Op& op = task.op;
  const T id = task.identity;
  executor ex(scan_parts(total));
  if (ex.parts() == 1) {
    T partial = id;
    ex.run_parts([&](std::size_t) {
      ex.chunks(0, total, [&](std::uint64_t t0, std::uint64_t t1) {
        for (std::uint64_t t = t0; t < t1; ++t) body(index_at(s.lo[0], t), partial, true);
      });
    });
    ex.rethrow(ctx.site);
    return partial;
  }
  std::vector<part_value<T>> sums(ex.parts(), part_value<T>{id});
  ex.run_parts([&](std::size_t p) {
    T partial = id;
    ex.part_chunks(p, total, [&](std::uint64_t t0, std::uint64_t t1) {
      for (std::uint64_t t = t0; t < t1; ++t) body(index_at(s.lo[0], t), partial, false);
    });
    sums[p].value = partial;
  });
  ex.rethrow(ctx.site);
  ex.run_parts([&](std::size_t p) {
    T partial = id;
    for (std::size_t q = 0; q < p; ++q) partial = op(partial, sums[q].value);
    ex.part_chunks(p, total, [&](std::uint64_t t0, std::uint64_t t1) {
      for (std::uint64_t t = t0; t < t1; ++t) body(index_at(s.lo[0], t), partial, true);
    });
  });
  ex.rethrow(ctx.site);
  T result = id;
  for (const part_value<T>& v : sums) result = op(result, v.value);
  return result;
}

/// inclusive_scan / exclusive_scan on the host; with default_present the data must be in the
/// current device's table, as on a GPU, so programs fail the same way everywhere. A GPU current
/// here (a unit compiled without nvcc, detail/dispatch-inl.hpp): the input's and output's GPU
/// copies, where present, are what the scan reads and writes, through the host's.
template <bool Exclusive, class T, class V, class Op>
void run(backend, const scan_task<Exclusive, T, V, Op>& task, const no_body&, const launch_context& ctx) {
  const int device = ctx.spec.if_ ? current_device() : -1;
  if (ctx.spec.default_present && ctx.spec.if_) {
    const char* hint = "the scan has acc::default_present; enter it with acc::data or acc::enter_data";
    if (!present_address(device, task.in_span)) fail_absent(task.in_span, device, hint, ctx.site);
    if (!present_address(device, task.out_span)) fail_absent(task.out_span, device, hint, ctx.site);
  }
  host_coherence coherent(device, ctx.spec.queue, ctx.site);
  if (device >= 0) {
    host_span in = task.in_span;  // read only, whatever its pointer's constness
    in.read_only = true;
    coherent.take(in);
    coherent.take(task.out_span, /*fetch=*/false);
  }
  scan<Exclusive>(task.in, task.n, task.out, task.init, task.op, ctx.site);
  coherent.finish();
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
