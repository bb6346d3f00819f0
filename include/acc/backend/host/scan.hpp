//! @file Host backend of the scans: a sequential pass, or with OpenMP a two-pass scan over one
//! contiguous chunk per thread (fold each chunk, scan the chunk sums in order, rescan each chunk
//! from its prefix). Deterministic for a fixed thread count; order-preserving for any
//! associative operator.
#pragma once

#include <acc/backend/host/loop.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/reduce_op.hpp>
#include <acc/detail/task.hpp>
#include <acc/extent.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

/// Below this many elements a scan runs on the calling thread: the second pass and the
/// thread start cost more than they save.
inline constexpr std::uint64_t scan_parallel_min = 1u << 15;

/// Threads for a scan of `n` elements (1: sequential).
inline int scan_threads([[maybe_unused]] std::uint64_t n) {
#if defined(ACC_DETAIL_OPENMP)
  if (n < scan_parallel_min) return 1;
  return static_cast<int>(std::min<std::uint64_t>(thread_count(0), n));
#else
  return 1;
#endif
}

/// Chunk p of `threads` nearly equal chunks of [0, n): [*t0, *t1).
inline void chunk_of(int p, int threads, std::uint64_t n, std::uint64_t* t0, std::uint64_t* t1) {
  const std::uint64_t base = n / threads, extra = n % threads;
  *t0 = p * base + std::min<std::uint64_t>(p, extra);
  *t1 = *t0 + base + (std::uint64_t(p) < extra);
}

/// out[i] = op(init, in[0], ..., in[i - 1]) (Exclusive) or op(in[0], ..., in[i]) (inclusive),
/// in V, the output's element type. out may be in (in place): each element is read before it
/// is written.
template <bool Exclusive, class T, class V, class Op>
void scan(const T* in, std::uint64_t n, V* out, const V& init, const Op& op) {
  if (n == 0) return;
  const int threads = scan_threads(n);
  if (threads <= 1) {
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
    return;
  }
#if defined(ACC_DETAIL_OPENMP)
  // Chunk sums start from their first element, so the operator needs no identity.
  std::vector<V> sums(threads, init);
#  pragma omp parallel num_threads(threads)
  {
    // OpenMP may give fewer threads than asked for: chunk by the threads there are.
    const int p = omp_get_thread_num(), nt = omp_get_num_threads();
    std::uint64_t t0, t1;
    chunk_of(p, nt, n, &t0, &t1);
    V acc = static_cast<V>(in[t0]);
    for (std::uint64_t i = t0 + 1; i < t1; ++i) acc = op(acc, static_cast<V>(in[i]));
    sums[p] = acc;
#  pragma omp barrier
    // Every thread folds the sums before its chunk itself: no serial step between the passes.
    bool have = Exclusive;
    V prefix = init;
    for (int q = 0; q < p; ++q) {
      prefix = have ? op(prefix, sums[q]) : sums[q];
      have = true;
    }
    if constexpr (Exclusive) {
      for (std::uint64_t i = t0; i < t1; ++i) {
        const V x = static_cast<V>(in[i]);
        out[i] = prefix;
        prefix = op(prefix, x);
      }
    } else {
      std::uint64_t i = t0;
      if (!have) out[i] = prefix = static_cast<V>(in[i]), ++i;
      for (; i < t1; ++i) out[i] = prefix = op(prefix, static_cast<V>(in[i]));
    }
  }
#endif
}

/// parallel_scan (Kokkos semantics): body(i, partial, final). Sequentially one final call per
/// iteration with partial = the exclusive prefix; with threads, a pass of non-final calls
/// per chunk gives the chunk sums, then each chunk makes its final calls from its prefix.
/// Returns the total.
/// parallel_scan on the host; returns the total.
template <class Index, class Op, class T, class Body>
T run(backend, const parallel_scan_task<index_space<Index, 1>, Op, T>& task, const Body& body, const launch_context&) {
  const index_space<Index, 1>& s = task.space;
  const std::uint64_t total = task.total;
  const Op& op = task.op;
  const T id = task.identity;
  const int threads = scan_threads(total);
  if (threads <= 1) {
    T partial = id;
    for (std::uint64_t t = 0; t < total; ++t) body(index_at(s.lo[0], t), partial, true);
    return partial;
  }
  std::vector<T> sums(threads, id);
  int used = threads;
#if defined(ACC_DETAIL_OPENMP)
#  pragma omp parallel num_threads(threads)
  {
    const int p = omp_get_thread_num(), nt = omp_get_num_threads();
    if (p == 0) used = nt;
    std::uint64_t t0, t1;
    chunk_of(p, nt, total, &t0, &t1);
    T partial = id;
    for (std::uint64_t t = t0; t < t1; ++t) body(index_at(s.lo[0], t), partial, false);
    sums[p] = partial;
#  pragma omp barrier
    partial = id;
    for (int q = 0; q < p; ++q) partial = op(partial, sums[q]);
    for (std::uint64_t t = t0; t < t1; ++t) body(index_at(s.lo[0], t), partial, true);
  }
#endif
  T result = id;
  for (int q = 0; q < used; ++q) result = op(result, sums[q]);
  return result;
}

/// inclusive_scan / exclusive_scan on the host; with default_present the data must be in the
/// current device's table, as on a GPU, so programs fail the same way everywhere.
template <bool Exclusive, class T, class V, class Op>
void run(backend, const scan_task<Exclusive, T, V, Op>& task, const no_body&, const launch_context& ctx) {
  if (ctx.spec.default_present && ctx.spec.if_) {
    const int device = current_device();
    const char* hint = "the scan has acc::default_present; enter it with acc::data or acc::enter_data";
    if (!present_address(device, task.in_span)) fail_absent(task.in_span, device, hint, ctx.site);
    if (!present_address(device, task.out_span)) fail_absent(task.out_span, device, hint, ctx.site);
  }
  scan<Exclusive>(task.in, task.n, task.out, task.init, task.op);
}

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host
