//! @file Single-pass reductions on the GPU: every block writes its partial values, and the last
//! block to finish (a ticket counter in device memory) combines them in block order and writes
//! the results. One launch instead of a block kernel and a combining kernel; the order of the
//! combine is fixed by the grid, so results are the same from run to run (no floating-point
//! atomics).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/per_device.hpp>
#include <acc/backend/cuda/runtime.hpp>

#include <cuda_runtime.h>

#include <cstddef>

namespace acc::detail::cuda {

/// Whether reductions take the single pass (true) or the two-kernel form (block partials in
/// pool scratch, then one block combining them). Only bench/stream changes it, to time both
/// forms in one run, between constructs; the library's code reads it once per reduction.
inline bool single_pass_reductions = true;

/// Device memory that single-pass reductions of one host thread on one device reuse: a ticket
/// counter (zero between reductions: the last block resets it) followed by the partials.
/// Per thread, because every reduction waits for its kernel before it returns, so a thread
/// never has two in flight and its counter is never shared; reusing the memory also saves
/// the pool allocation and free that every call would otherwise queue.
class single_pass_scratch {
public:
  static constexpr std::size_t partials_offset = 256;

  single_pass_scratch() = default;
  single_pass_scratch(const single_pass_scratch&) = delete;
  single_pass_scratch& operator=(const single_pass_scratch&) = delete;
  ~single_pass_scratch() {
    if (base_ && !busy_) (void)cudaFree(base_);
  }

  /// Room for `partial_bytes` after the counter, on the current device, for a kernel queued
  /// next on `stream`. A reduction that did not reach done() (an exception between launch and
  /// wait) may have left its kernel running or its counter non-zero: that memory is
  /// abandoned, never reused.
  void* acquire(std::size_t partial_bytes, cudaStream_t stream, const call_site& site) {
    if (busy_) base_ = nullptr, size_ = 0, busy_ = false;
    const std::size_t want = partials_offset + partial_bytes;
    if (want > size_) {
      if (base_) (void)cudaFree(base_);
      base_ = nullptr, size_ = 0;
      const std::size_t bytes = want < 4096 ? 4096 : want + want / 2;
      ACC_DETAIL_CUDA_CHECK(cudaMalloc(&base_, bytes), site);
      // On the kernel's own stream: cudaMemset would go to the legacy default stream, which
      // acc's non-blocking queues do not wait for. The size is set once the counter is zero.
      ACC_DETAIL_CUDA_CHECK(cudaMemsetAsync(base_, 0, partials_offset, stream), site);
      size_ = bytes;
    }
    busy_ = true;
    return base_;
  }
  /// The kernel that used the memory has finished: its counter is zero again.
  void done() noexcept { busy_ = false; }

  unsigned* ticket() const noexcept { return static_cast<unsigned*>(base_); }
  char* partials() const noexcept { return static_cast<char*>(base_) + partials_offset; }

private:
  void* base_ = nullptr;
  std::size_t size_ = 0;
  bool busy_ = false;
};

/// The calling thread's scratch on `device`. A reduction waits for its value, which a graph
/// being recorded cannot do: refused before anything is queued, as the two-kernel form's
/// scratch allocation is.
inline single_pass_scratch& single_pass_scratch_of(int device, const call_site& site) {
  if (capturing.active) fail_in_capture(site, "a reduction, which waits for its value,");
  if (device < 0 || device >= max_devices) throw bad_clause("acc: device numbers above 63 are not supported");
  thread_local single_pass_scratch scratch[max_devices];
  return scratch[device];
}

/// Called by every thread of a block after thread 0 stored the block's partials; true in
/// every thread of the one block that arrives last, which may then read all blocks' partials
/// (and which resets the ticket). The built-in atomics and fences rather than
/// cuda::atomic_ref for the reason atomic.hpp gives; the fences give the same order: thread
/// 0's stores before its ticket (release), the last block's reads after it (acquire).
__device__ inline bool last_block_arrived(unsigned* ticket) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last) __threadfence();
  return last;
}

/// The last block's thread 0, once done with the partials: the next reduction of this thread
/// (a later kernel, so ordered after this one) finds the ticket at zero.
__device__ inline void reset_ticket(unsigned* ticket) {
  if (threadIdx.x == 0) *ticket = 0;
}

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
