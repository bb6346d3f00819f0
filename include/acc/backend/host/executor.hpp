//! @file How every host construct runs its work: contiguous parts of the iterations, one per
//! OpenMP thread (the calling thread alone without OpenMP), each taken in chunks, and the
//! first exception any thread throws carried out of the OpenMP region to the caller.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/body_error.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>
#include <acc/extent.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>

#if defined(ACC_DETAIL_OPENMP)
#  include <omp.h>
#endif

namespace acc::detail::host {
inline namespace ACC_DETAIL_HOST_ABI {

// std::min and std::max without <algorithm>, and the executor's flag without <atomic>: every
// translation unit that nvcc compiles parses the host backend (its fallback), and those two
// headers cost it more than this whole file (bench/compile).
template <class T>
constexpr T smaller(T a, T b) noexcept {
  return b < a ? b : a;
}
template <class T>
constexpr T larger(T a, T b) noexcept {
  return a < b ? b : a;
}

/// Threads for a construct: gangs become threads (OpenACC's multicore mapping), capped by
/// what OpenMP would use anyway; num_gangs(1) therefore runs on the calling thread.
inline int thread_count([[maybe_unused]] int num_gangs) {
#if defined(ACC_DETAIL_OPENMP)
  int n = omp_get_max_threads();
  return num_gangs > 0 ? smaller(num_gangs, n) : n;
#else
  return 1;
#endif
}

/// Parts for a construct of `work` units (iterations, tiles): thread_count(num_gangs), but no
/// more parts than units.
inline int parts_for(int num_gangs, std::uint64_t work) {
  const int threads = thread_count(num_gangs);  // at least 1
  return static_cast<std::uint64_t>(threads) < work ? threads : static_cast<int>(work);
}

/// Part p of `parts` nearly equal contiguous parts of [0, n): [*t0, *t1). Earlier parts hold
/// earlier iterations, so folding parts in order keeps a reduction's order.
inline void part_of(std::uint64_t p, std::uint64_t parts, std::uint64_t n, std::uint64_t* t0, std::uint64_t* t1) {
  const std::uint64_t base = n / parts, extra = n % parts;
  *t0 = p * base + smaller(p, extra);
  *t1 = *t0 + base + (p < extra);
}

/// Chunks per part: a thread looks whether another one has failed once per chunk, so after
/// an exception the other threads stop within about 1/32 of their work.
inline constexpr std::uint64_t chunks_per_part = 32;
/// The shortest chunk of loop iterations: long enough that a chunk's loop vectorises and runs
/// as the user's own loop would.
inline constexpr std::uint64_t loop_chunk_min = 256;
/// Gangs and tiles, each much more work than an iteration, are looked at one by one.
inline constexpr std::uint64_t gang_chunk_min = 1;

/// One part's result: a struct, so that a std::vector of bool results has a byte per part and
/// parts may write theirs at once.
template <class T>
struct part_value {
  T value;
};

/// Calls f with the indices of flat iterations [t0, t1) of s, in order: rank 1 as the loop
/// `for (i = lo; i < hi; ++i)`; collapsed spaces as the nest one would write by hand: a partial
/// first row, then whole rows as plain nested loops whose innermost loop has loop-invariant
/// bounds (contiguous, so the compiler vectorises it), then a partial last row. A short
/// innermost dimension (miniWeather's 4 variables) then costs no bookkeeping per row.
template <class Index, std::size_t Rank, class F>
void for_each_flat(const index_space<Index, Rank>& s, std::uint64_t t0, std::uint64_t t1, F&& f) {
  if (t0 >= t1) return;
  if constexpr (Rank == 1) {
    for (Index i = index_at(s.lo[0], t0), end = index_at(s.lo[0], t1); i < end; ++i) f(i);
  } else {
    // A row: the innermost loop for fixed outer indices; rows are numbered in order.
    const std::uint64_t n = s.count[Rank - 1];
    const Index first = s.lo[Rank - 1], last = index_at(first, n);
    // Calls f for the points [k0, k1) of row r.
    const auto part_row = [&](std::uint64_t r, std::uint64_t k0, std::uint64_t k1) {
      if constexpr (Rank == 2) {
        const Index i = index_at(s.lo[0], r);
        for (Index k = index_at(first, k0), end = index_at(first, k1); k < end; ++k) f(i, k);
      } else {
        const Index i = index_at(s.lo[0], r / s.count[1]), j = index_at(s.lo[1], r % s.count[1]);
        for (Index k = index_at(first, k0), end = index_at(first, k1); k < end; ++k) f(i, j, k);
      }
    };
    std::uint64_t r = t0 / n;
    const std::uint64_t k0 = t0 % n, r_end = t1 / n, k_end = t1 % n;
    if (k0 != 0) {  // the partial first row
      part_row(r, k0, r == r_end ? k_end : n);
      if (r == r_end) return;
      ++r;
    }
    // Whole rows [r, r_end).
    if constexpr (Rank == 2) {
      for (Index i = index_at(s.lo[0], r), i_end = index_at(s.lo[0], r_end); i < i_end; ++i)
        for (Index k = first; k < last; ++k) f(i, k);
    } else {
      const std::uint64_t nj = s.count[1];
      while (r < r_end) {
        const std::uint64_t j0 = r % nj, j1 = smaller<std::uint64_t>(nj, j0 + (r_end - r));
        const Index i = index_at(s.lo[0], r / nj);
        for (Index j = index_at(s.lo[1], j0), j_end = index_at(s.lo[1], j1); j < j_end; ++j)
          for (Index k = first; k < last; ++k) f(i, j, k);
        r += j1 - j0;
      }
    }
    if (k_end != 0) part_row(r_end, 0, k_end);  // the partial last row
  }
}

/// A construct's parts and what its threads share: whether one has failed, and the first
/// exception. An exception may not leave an OpenMP region, so each part runs inside a catch;
/// the first exception caught is kept (the others are dropped), every thread stops at its
/// next chunk, and rethrow() raises it on the calling thread after the region.
/// Every thread reads `failed_` at each chunk, and the executor lives on the calling thread's
/// stack: on cache lines of its own, so that what that thread writes during the region next to
/// it does not take the line from the others.
class alignas(128) executor {
public:
  /// `parts` parts (at least 1), e.g. min(thread_count(num_gangs), iterations).
  explicit executor(int parts) noexcept : parts_(parts < 1 ? 1 : parts) {}
  executor(const executor&) = delete;
  executor& operator=(const executor&) = delete;

  /// Parts are numbered from 0 as std::size_t, the index type of their per-part storage.
  std::size_t parts() const noexcept { return static_cast<std::size_t>(parts_); }
  bool failed() const noexcept { return __atomic_load_n(&failed_, __ATOMIC_RELAXED); }

  /// Calls f(p) for every part p, part p on thread p (OpenMP may give fewer threads than
  /// asked for; a thread then takes several parts, in order). After an exception the parts
  /// not yet started are skipped.
  template <class F>
  void run_parts(const F& f) {
#if defined(ACC_DETAIL_OPENMP)
    if (parts_ > 1) {
#  pragma omp parallel num_threads(parts_)
      {
        const auto nt = static_cast<std::size_t>(omp_get_num_threads());
        for (auto p = static_cast<std::size_t>(omp_get_thread_num()); p < parts() && !failed(); p += nt) run_part(f, p);
      }
      return;
    }
#endif
    for (std::size_t p = 0; p < parts() && !failed(); ++p) run_part(f, p);
  }

  /// Calls g(t0, t1) for consecutive chunks of [b, e), at least `min_chunk` long but the
  /// last, in order, until done or until some thread has failed: a construct's one cost
  /// beyond the user's loop.
  template <class G>
  void chunks(std::uint64_t b, std::uint64_t e, const G& g, std::uint64_t min_chunk = loop_chunk_min) const {
    const std::uint64_t step = larger<std::uint64_t>(min_chunk, (e - b + chunks_per_part - 1) / chunks_per_part);
    for (std::uint64_t t = b; t < e && !failed();) {
      const std::uint64_t next = e - t > step ? t + step : e;
      g(t, next);
      t = next;
    }
  }

  /// Calls g(t0, t1) for the chunks of part p of [0, n).
  template <class G>
  void part_chunks(std::size_t p, std::uint64_t n, const G& g, std::uint64_t min_chunk = loop_chunk_min) const {
    std::uint64_t t0, t1;
    part_of(p, parts(), n, &t0, &t1);
    chunks(t0, t1, g, min_chunk);
  }

  /// After the parts, on the calling thread: rethrows the first exception; acc's reports
  /// from inside a body (body_error) get the construct and its call site.
  void rethrow(const call_site& site) const {
    if (!error_) return;
    try {
      std::rethrow_exception(error_);
    } catch (const body_error<bad_clause>& e) {
      fail<bad_clause>(site, e.detail());
    } catch (const body_error<error>& e) {
      fail<error>(site, e.detail());
    }
  }

private:
  template <class F>
  void run_part(const F& f, std::size_t p) {
    try {
      f(p);
    } catch (...) {
      // The first to fail keeps its exception; the region's end makes it visible to rethrow().
      if (!__atomic_exchange_n(&failed_, true, __ATOMIC_ACQ_REL)) error_ = std::current_exception();
    }
  }

  int parts_;
  bool failed_ = false;  // set once, by the first part that throws (GCC/Clang atomic builtins)
  std::exception_ptr error_;
};

#if defined(ACC_DETAIL_OPENMP)
/// The host half of a staged transfer (chunked_copy, runtime_state.hpp) on the program's own
/// OpenMP threads: the cores its host loops use, and right after one of them awake at its
/// barrier, where a separate copy team would have to wait for a core (libgomp's threads spin
/// there for milliseconds). One region for the whole job: pieces are handed out in order as
/// threads come, so one that is slow to start does not hold the copy, and the calling thread
/// hands each chunk on as soon as its pieces are in, between its own pieces, so the DMA of one
/// chunk overlaps the copy of the next without a region per chunk. Not inside an OpenMP region
/// (a nested one would have one thread), nor with fewer than 4 threads (OMP_NUM_THREADS=1
/// beside MPI ranks, say), where the copy team's idle cores do better, nor while another host
/// thread's transfer has the OpenMP threads (two teams would share the cores).
inline bool openmp_copy(const chunked_copy& job) noexcept {
  static bool busy = false;  // GCC/Clang atomic builtins, as the executor's flag
  if (job.bytes == 0) return true;
  const std::size_t chunks = job.chunks();
  if (job.chunk == 0 || chunks > chunked_copy::max_chunks || omp_in_parallel() || omp_get_max_threads() < 4)
    return false;
  if (__atomic_exchange_n(&busy, true, __ATOMIC_ACQUIRE)) return false;
  const std::size_t piece = larger<std::size_t>(job.piece, 1);
  const std::size_t per_chunk = (job.chunk + piece - 1) / piece;
  const auto chunk_bytes = [&](std::size_t c) { return smaller(job.chunk, job.bytes - c * job.chunk); };
  const auto pieces_of = [&](std::size_t c) { return (chunk_bytes(c) + piece - 1) / piece; };
  const std::uint64_t pieces = (chunks - 1) * per_chunk + pieces_of(chunks - 1);
  std::uint64_t next = 0;
  std::uint64_t done[chunked_copy::max_chunks] = {};
#  pragma omp parallel
  {
    const bool caller = omp_get_thread_num() == 0;
    std::size_t handed = 0;
    // The calling thread hands on, in order, every chunk whose pieces are all in; with `wait`,
    // until all are handed on.
    const auto hand_on = [&](bool wait) {
      while (handed < chunks) {
        if (__atomic_load_n(&done[handed], __ATOMIC_ACQUIRE) != pieces_of(handed)) {
          if (!wait) return;
          continue;
        }
        if (job.ready) job.ready(job.context, handed);
        ++handed;
      }
    };
    for (;;) {
      const std::uint64_t k = __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
      if (k >= pieces) break;
      const std::size_t c = k / per_chunk, at = (k % per_chunk) * piece;
      job.copy(job.chunk_dst[c] + at, job.src + c * job.chunk + at, smaller(piece, chunk_bytes(c) - at));
      __atomic_fetch_add(&done[c], 1, __ATOMIC_RELEASE);
      if (caller) hand_on(false);
    }
    if (caller) hand_on(true);
  }
  __atomic_store_n(&busy, false, __ATOMIC_RELEASE);
  return true;
}

inline const bool openmp_copy_registered = (register_openmp_copy(&openmp_copy), true);
#endif

}  // inline namespace ACC_DETAIL_HOST_ABI
}  // namespace acc::detail::host

#include <acc/detail/header_close.hpp>
