//! @file Host memcpy spread over several threads: the host half of a staged transfer between
//! pageable memory and pinned staging buffers (backend/cuda/memory.hpp), which one thread
//! cannot feed at PCIe 5 rates.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/runtime_state.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace acc::detail {

/// `helpers` threads that, with the caller, copy one range at a time. The range is cut into
/// pieces that whoever is free takes next, the caller included, so a copy never waits for a
/// helper that is still waking up or that the scheduler keeps off its core: the others take
/// its share (a fixed share per thread made a chunk as slow as its slowest helper, and a
/// helper that waits for a core can wait milliseconds; bench/results/h100-adaptive.txt).
/// Copies from several host threads take turns (one job at a time), so a job never waits for
/// helpers busy with another. Between the chunks of one transfer a helper spins for `spin` (a
/// staged transfer hands the team a chunk every few tens of microseconds, less than a sleeping
/// thread takes to wake); after a transfer's last chunk only for `spin_after_last`, long enough
/// for the next array of the same construct, then it sleeps on a condition variable: a helper
/// that spins on after the transfer holds a core that the program's OpenMP team, starting its
/// next region, may be waiting for (libgomp's threads wait at a barrier spinning, without
/// yielding, so an OpenMP thread kept off its core can cost the region a scheduler slice).
/// Destroying the team stops and joins the helpers; the process-wide team (copy_team_of_process)
/// is never destroyed, so that no thread is joined during static destruction.
class copy_team {
public:
  /// A piece smaller than this costs more to hand over than to copy.
  static constexpr std::size_t min_part = std::size_t(128) << 10;
  static constexpr std::chrono::microseconds spin{200};
  static constexpr std::chrono::microseconds spin_after_last{20};

  explicit copy_team(unsigned helpers) {
    threads_.reserve(helpers);
    for (unsigned i = 0; i < helpers; ++i) threads_.emplace_back([this] { serve(); });
  }
  ~copy_team() {
    {
      std::lock_guard lock(m_);
      stop_.store(true);
    }
    go_.notify_all();
    for (auto& t : threads_) t.join();
  }
  copy_team(const copy_team&) = delete;
  copy_team& operator=(const copy_team&) = delete;

  unsigned helpers() const noexcept { return static_cast<unsigned>(threads_.size()); }

  /// A piece copied by std::memcpy (the other piece_copy_fn: stream_copy).
  static void plain_copy(void* dst, const void* src, std::size_t bytes) noexcept { std::memcpy(dst, src, bytes); }

  /// std::memcpy(dst, src, bytes), the ranges not overlapping, each piece by `copy_piece`;
  /// returns once all is copied. `more`: another chunk of the same transfer follows at once,
  /// so the helpers wait for it spinning.
  void copy(void* dst, const void* src, std::size_t bytes, bool more = false, piece_copy_fn copy_piece = plain_copy) {
    if (threads_.empty() || bytes < 2 * min_part) {
      copy_piece(dst, src, bytes);
      return;
    }
    // At least min_part a piece, and at most max_pieces of them; cut at 64 bytes so that
    // pieces do not share cache lines.
    const std::size_t piece = std::max(min_part, (bytes / max_pieces + 63) / 64 * 64);
    const std::uint64_t pieces = (bytes + piece - 1) / piece;
    std::lock_guard turn(job_mutex_);
    std::uint64_t job;
    {
      std::lock_guard lock(m_);  // so that a helper about to sleep cannot miss the job
      dst_ = static_cast<char*>(dst);
      src_ = static_cast<const char*>(src);
      bytes_ = bytes;
      piece_ = piece;
      copy_piece_ = copy_piece;
      copied_.store(0, std::memory_order_relaxed);
      job = (job_.load(std::memory_order_relaxed) >> job_shift) + 1;
      // Pieces are taken by incrementing the low half of `next_`; the high half names the job,
      // so a helper that comes late, after this job ended, takes nothing from the next one.
      next_.store((job & 0xffffffffu) << 32, std::memory_order_release);
      job_.store(job << job_shift | (more ? more_bit : 0) | pieces, std::memory_order_release);
    }
    go_.notify_all();
    take_pieces(job_.load(std::memory_order_relaxed));
    const auto until = std::chrono::steady_clock::now() + spin;
    while (copied_.load(std::memory_order_acquire) != pieces && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    if (copied_.load(std::memory_order_acquire) != pieces) {
      std::unique_lock lock(m_);
      done_.wait(lock, [&] { return copied_.load(std::memory_order_acquire) == pieces; });
    }
  }

private:
  static constexpr std::uint64_t max_pieces = 64;

  /// Copies pieces of job `word` (job_'s value) until none is left. A piece taken holds the
  /// job open (the caller waits for every piece to be copied), so its fields stay as they are.
  void take_pieces(std::uint64_t word) noexcept {
    const std::uint64_t tag = ((word >> job_shift) & 0xffffffffu) << 32, pieces = word & pieces_mask;
    std::uint64_t t = next_.load(std::memory_order_acquire);
    for (;;) {
      if ((t & ~std::uint64_t(0xffffffffu)) != tag || (t & 0xffffffffu) >= pieces) return;
      if (!next_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      // t's low half numbers the piece; as a uint32_t it widens to size_t on any host.
      const std::size_t b = static_cast<std::uint32_t>(t) * piece_, e = std::min(bytes_, b + piece_);
      copy_piece_(dst_ + b, src_ + b, e - b);
      if (copied_.fetch_add(1, std::memory_order_acq_rel) + 1 == pieces) {
        std::lock_guard lock(m_);  // the caller checks copied_ under m_ before it sleeps
        done_.notify_one();
      }
      t = next_.load(std::memory_order_acquire);
    }
  }

  void serve() {
    std::uint64_t seen = 0;
    for (;;) {
      const auto until = std::chrono::steady_clock::now() + (seen & more_bit ? spin : spin_after_last);
      while (job_.load(std::memory_order_acquire) == seen && !stop_.load() && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
      if (job_.load(std::memory_order_acquire) == seen && !stop_.load()) {
        std::unique_lock lock(m_);
        go_.wait(lock, [&] { return job_.load(std::memory_order_acquire) != seen || stop_.load(); });
      }
      if (stop_.load()) return;
      seen = job_.load(std::memory_order_acquire);
      take_pieces(seen);
    }
  }

  std::mutex job_mutex_;  // one job at a time
  std::mutex m_;          // orders sleeping against a new job or its end
  std::condition_variable go_, done_;
  // job number << job_shift | more_bit if more follows | pieces
  static constexpr int job_shift = 9;
  static constexpr std::uint64_t more_bit = 1u << 8, pieces_mask = 0xff;
  static_assert(max_pieces <= pieces_mask);
  std::atomic<std::uint64_t> job_{0};
  std::atomic<std::uint64_t> next_{0};    // the job's low 32 bits << 32 | the next piece to take
  std::atomic<std::uint64_t> copied_{0};  // pieces of the job copied
  std::atomic<bool> stop_{false};
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  std::size_t bytes_ = 0, piece_ = min_part;
  piece_copy_fn copy_piece_ = plain_copy;
  std::vector<std::thread> threads_;
};

/// Helpers for the process's copy team: ACC_COPY_THREADS - 1 if that is set (1 copies on the
/// calling thread alone), else half the hardware threads less one, at most 7. Copying
/// pageable to pinned memory reads and writes each byte once, so a few cores saturate it;
/// more would take cores from the program's own host threads.
inline unsigned copy_helpers_from_environment() noexcept {
  if (const char* v = std::getenv("ACC_COPY_THREADS"); v && *v) {
    const long n = std::strtol(v, nullptr, 10);
    return n <= 1 ? 0u : static_cast<unsigned>(std::min(n, 128L) - 1);
  }
  const unsigned hw = std::thread::hardware_concurrency();
  return hw < 4 ? 0u : std::min(hw / 2 - 1, 7u);
}

/// The process's copy team, made on first use and never destroyed.
inline copy_team& copy_team_of_process() {
  static copy_team* team = new copy_team(copy_helpers_from_environment());
  return *team;
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
