//! @file The CUDA side of the data environment: device allocations, transfers, pinned host ranges.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/runtime.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace acc::detail::cuda {

/// Present host ranges at least this large may be page-locked (cudaHostRegister) once they
/// have been transferred staging_policy::pin_after_transfers times (present_table-inl.hpp):
/// below 1 MiB the DMA setup dominates and registering gains nothing.
inline constexpr std::size_t pin_min_bytes = std::size_t(1) << 20;

/// cudaMemGetInfo of `device`; zeros if it cannot be read (only used for messages and tests).
ACC_DETAIL_CUDA_RUNTIME_FN void mem_info(int device, std::size_t* free, std::size_t* total) noexcept;

/// acc's own stream-ordered memory pool on `device` (current), made on first use. Its own,
/// not the device's default pool, so that keeping freed memory for reuse is acc's policy
/// (memory_policy in tuning.hpp) and does not change how the program's other allocations
/// behave.
ACC_DETAIL_CUDA_RUNTIME_FN cudaMemPool_t memory_pool(int device, const call_site& site);

/// Stream-ordered allocation from acc's pool: async constructs allocate and free on their
/// queue without a device-wide synchronisation (cudaMalloc/cudaFree would serialise every
/// queue). If the device is full, the pool's cached memory is given back and the allocation
/// tried once more before it fails.
ACC_DETAIL_CUDA_RUNTIME_FN void* pool_alloc(int device, std::size_t bytes, cudaStream_t stream, const std::string& what,
                                            const call_site& site);

/// pool_alloc on `queue`'s stream of the current `device`.
ACC_DETAIL_CUDA_RUNTIME_FN void* alloc(int device, std::size_t bytes, int queue, const std::string& what,
                                       const call_site& site);

/// Scratch memory of one construct, from acc's pool, ordered on its stream. release() frees it
/// with the error checked; the destructor frees it on an exception path.
class stream_buffer {
public:
  stream_buffer(std::size_t bytes, int device, cudaStream_t stream, const call_site& site)
      : p_(pool_alloc(device, bytes, stream, "scratch memory", site)), stream_(stream) {}
  stream_buffer(const stream_buffer&) = delete;
  stream_buffer& operator=(const stream_buffer&) = delete;
  ~stream_buffer() {
    if (p_) (void)cudaFreeAsync(p_, stream_);
  }
  void* get() const noexcept { return p_; }
  void release(const call_site& site) {
    void* p = p_;
    p_ = nullptr;
    ACC_DETAIL_CUDA_CHECK(cudaFreeAsync(p, stream_), site);
  }

private:
  void* p_ = nullptr;
  cudaStream_t stream_;
};

/// Frees once `queue` reaches this point (work queued before keeps its memory); synchronous
/// for queue_sync, so that freed memory is returned to the device before the caller goes on.
ACC_DETAIL_CUDA_RUNTIME_FN void release(int device, void* p, int queue) noexcept;

/// Host -> device on `queue`. Pageable ranges of staging_policy::min_bytes or more pass through
/// the device's pinned staging buffers (staged_to_device, runtime-inl.hpp); smaller ones, and memory that is
/// pinned already, go straight to cudaMemcpyAsync. From pageable memory the host range may be
/// reused when this returns, also on an async queue (only DMAs out of the staging buffers are
/// still queued); from pinned memory an async transfer reads it later, so the program may
/// change it only after waiting for the queue, as OpenACC's async clause requires anyway.
ACC_DETAIL_CUDA_RUNTIME_FN void to_device(int device, void* dst, const void* src, std::size_t bytes, int queue,
                                          host_memory host, const call_site& site);

/// Device -> host on `queue`. Into pageable memory (staged as to_device) this blocks until
/// the data is in the host range, also on an async queue (OpenACC allows an async transfer
/// to complete before it returns); into pinned memory it is queued like any async operation.
ACC_DETAIL_CUDA_RUNTIME_FN void to_host(int device, void* dst, const void* src, std::size_t bytes, int queue,
                                        host_memory host, const call_site& site);

/// Zero-fills `bytes` of device memory at `p` on `queue`; synchronous for queue_sync.
ACC_DETAIL_CUDA_RUNTIME_FN void fill_zero(int device, void* p, std::size_t bytes, int queue, const call_site& site);

/// acc::malloc: cudaMalloc on `device`, so that acc::free returns the memory to the device.
ACC_DETAIL_CUDA_RUNTIME_FN void* device_malloc(int device, std::size_t bytes, const call_site& site);

ACC_DETAIL_CUDA_RUNTIME_FN void device_free(int device, void* p) noexcept;

ACC_DETAIL_CUDA_RUNTIME_FN std::string device_name(int device);

/// "CUDA driver 13000" style: the driver's API version as cudaDriverGetVersion reports it.
ACC_DETAIL_CUDA_RUNTIME_FN std::string driver_version();

/// The device address on `device` of the __device__ variable (ACC_DECLARE) whose host shadow
/// is `symbol`.
ACC_DETAIL_CUDA_RUNTIME_FN void* symbol_address(int device, const void* symbol, const call_site& site);

/// Lets `device` read and write `peer`'s memory directly (NVLink or PCIe peer-to-peer) where
/// the hardware allows it; asked once per pair. Without it CUDA stages peer copies itself.
ACC_DETAIL_CUDA_RUNTIME_FN void enable_peer_access(int device, int peer) noexcept;

/// Device -> device on `queue` of `to_device`, after the work queued so far on `queue` of
/// `from_device` (which produced the data); synchronous for queue_sync.
ACC_DETAIL_CUDA_RUNTIME_FN void peer_copy(int to_device, void* dst, int from_device, const void* src, std::size_t bytes,
                                          int queue, const call_site& site);

ACC_DETAIL_CUDA_RUNTIME_FN bool pin(const void* host, std::size_t bytes) noexcept;

ACC_DETAIL_CUDA_RUNTIME_FN void unpin(const void* host) noexcept;

/// Page-locked, device-mapped host memory for the values a construct returns (a reduction's
/// result, a scan's total): the kernel that computes them stores them here, so no copy is
/// queued after it. One per host thread, as constructs that return a value wait for it before
/// the thread goes on; grown on demand, freed when the thread ends.
class result_slot {
public:
  result_slot() = default;
  result_slot(const result_slot&) = delete;
  result_slot& operator=(const result_slot&) = delete;
  ~result_slot() {
    if (host_) (void)cudaFreeHost(host_);
  }
  /// At least `bytes`, 16-byte aligned; host() and device() name the same memory.
  void reserve(std::size_t bytes, const call_site& site) {
    if (bytes <= size_) return;
    if (host_) (void)cudaFreeHost(host_);
    host_ = device_ = nullptr;
    size_ = 0;
    const std::size_t want = bytes < 256 ? 256 : bytes;
    ACC_DETAIL_CUDA_CHECK(cudaHostAlloc(&host_, want, cudaHostAllocMapped | cudaHostAllocPortable), site);
    size_ = want;
    ACC_DETAIL_CUDA_CHECK(cudaHostGetDevicePointer(&device_, host_, 0), site);
  }
  void* host() const noexcept { return host_; }
  void* device() const noexcept { return device_; }

private:
  void* host_ = nullptr;
  void* device_ = nullptr;
  std::size_t size_ = 0;
};

/// The calling thread's result_slot, with room for `bytes`.
ACC_DETAIL_CUDA_RUNTIME_FN result_slot& result_slot_of(std::size_t bytes, const call_site& site);

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
