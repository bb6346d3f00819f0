//! @file Host memcpy spread over several threads: the host half of a staged transfer between
//! pageable memory and pinned staging buffers (backend/cuda/memory.hpp), which one thread
//! cannot feed at PCIe 5 rates.
#pragma once

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

/// `helpers` threads that, with the caller, copy one range at a time in equal parts. Copies
/// from several host threads take turns (one job at a time), so a job never waits for helpers
/// busy with another. Between the chunks of one transfer a helper spins for `spin` (a staged
/// transfer hands the team a chunk every few tens of microseconds, less than a sleeping thread
/// takes to wake); after a transfer's last chunk only for `spin_after_last`, long enough for
/// the next array of the same construct, then it sleeps on a condition variable: a helper that
/// spins on after the transfer holds a core that the program's OpenMP team, starting its next
/// region, may be waiting for (libgomp's threads wait at a barrier spinning, without yielding,
/// so an OpenMP thread kept off its core can cost the region a scheduler slice, milliseconds).
/// Destroying the team stops and joins the helpers; the process-wide team (copy_team_of_process)
/// is never destroyed, so that no thread is joined during static destruction.
class copy_team {
public:
  /// A part smaller than this costs more to hand over than to copy.
  static constexpr std::size_t min_part = std::size_t(128) << 10;
  static constexpr std::chrono::microseconds spin{200};
  static constexpr std::chrono::microseconds spin_after_last{20};

  explicit copy_team(unsigned helpers) {
    threads_.reserve(helpers);
    for (unsigned i = 0; i < helpers; ++i) threads_.emplace_back([this, i] { serve(i + 1); });
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

  /// std::memcpy(dst, src, bytes), the ranges not overlapping; returns once all is copied.
  /// `more`: another chunk of the same transfer follows at once, so the helpers wait for it
  /// spinning.
  void copy(void* dst, const void* src, std::size_t bytes, bool more = false) {
    const std::size_t most = bytes / min_part;
    const std::size_t parts = std::min<std::size_t>(threads_.size() + 1, most == 0 ? 1 : most);
    if (parts <= 1) {
      std::memcpy(dst, src, bytes);
      return;
    }
    std::lock_guard turn(job_mutex_);
    {
      std::lock_guard lock(m_);  // so that a helper about to sleep cannot miss the job
      dst_ = static_cast<char*>(dst);
      src_ = static_cast<const char*>(src);
      bytes_ = bytes;
      parts_ = parts;
      left_.store(parts - 1);  // the helpers' parts; the caller copies part 0
      // The job's number, whether more follows and its part count in one word: a helper that
      // sits a job out reads only this, never the fields above, which the next job may be
      // rewriting.
      job_.store(((job_.load() >> job_shift) + 1) << job_shift | (more ? more_bit : 0) | parts,
                 std::memory_order_release);
    }
    go_.notify_all();
    copy_part(0);
    const auto until = std::chrono::steady_clock::now() + spin;
    while (left_.load(std::memory_order_acquire) != 0 && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
    if (left_.load(std::memory_order_acquire) != 0) {
      std::unique_lock lock(m_);
      done_.wait(lock, [&] { return left_.load(std::memory_order_acquire) == 0; });
    }
  }

private:
  // Part `k` of the current job: equal shares, cut at 64 bytes so parts do not split lines.
  void copy_part(std::size_t k) const noexcept {
    const std::size_t share = (bytes_ / parts_ + 63) / 64 * 64;
    const std::size_t b = std::min(bytes_, k * share), e = std::min(bytes_, b + share);
    if (k + 1 == parts_) std::memcpy(dst_ + b, src_ + b, bytes_ - b);
    else if (e > b) std::memcpy(dst_ + b, src_ + b, e - b);
  }

  void serve(std::size_t index) {
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
      if (index >= (seen & parts_mask)) continue;  // a small job: this helper sits it out
      // A helper with a part holds the job open (left_ > 0), so its fields stay as they are.
      copy_part(index);
      if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard lock(m_);  // the caller checks left_ under m_ before it sleeps
        done_.notify_one();
      }
    }
  }

  std::mutex job_mutex_;  // one job at a time
  std::mutex m_;          // orders sleeping against a new job or its end
  std::condition_variable go_, done_;
  // job number << job_shift | more_bit if more follows | parts
  static constexpr int job_shift = 9;
  static constexpr std::uint64_t more_bit = 1u << 8, parts_mask = 0xff;
  std::atomic<std::uint64_t> job_{0};
  std::atomic<std::size_t> left_{0};   // helpers' parts not yet copied
  std::atomic<bool> stop_{false};
  char* dst_ = nullptr;
  const char* src_ = nullptr;
  std::size_t bytes_ = 0, parts_ = 1;
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
