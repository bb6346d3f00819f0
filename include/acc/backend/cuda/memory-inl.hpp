//! @file The CUDA side of the runtime, continued: device memory and transfers, staged through pinned
//! buffers or direct (backend/cuda/memory.hpp). Compiled with backend/cuda/runtime-inl.hpp, which
//! includes this file at its end; on its own this file includes that one first.
#pragma once

#include <acc/backend/cuda/runtime-inl.hpp>

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/per_device.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/copy_team.hpp>
#include <acc/detail/stream_copy.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <string>

namespace acc::detail::cuda {

ACC_DETAIL_CUDA_RUNTIME_FN void mem_info(int device, std::size_t* free, std::size_t* total) noexcept {
  *free = *total = 0;
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && (current == device || cudaSetDevice(device) == cudaSuccess) &&
      cudaMemGetInfo(free, total) == cudaSuccess)
    return;
  (void)cudaGetLastError();
}

/// An allocation's size rounded up to whole 4-byte words. Atomics on 1- and 2-byte elements are
/// compare-and-swap loops on the aligned 4-byte word that holds the element; the word of the last
/// element must lie inside the allocation (compute-sanitizer memcheck reports a word that
/// straddles its end, though the allocator's granularity makes it readable).
constexpr std::size_t atomic_word_padded(std::size_t bytes) noexcept { return (bytes + 3) & ~std::size_t(3); }

ACC_DETAIL_CUDA_RUNTIME_FN cudaMemPool_t memory_pool(int device, const call_site& site) {
  static per_device<cudaMemPool_t> pools;
  return pools.get(device, [&] {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool = nullptr;
    ACC_DETAIL_CUDA_CHECK(cudaMemPoolCreate(&pool, &props), site);
    unsigned long long keep = memory_policy::kept_bytes;  // cuuint64_t
    ACC_DETAIL_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), site);
    return pool;
  });
}

ACC_DETAIL_CUDA_RUNTIME_FN void* pool_alloc(int device, std::size_t bytes, cudaStream_t stream, const std::string& what,
                                            const call_site& site) {
  cudaMemPool_t pool = memory_pool(device, site);
  void* p = nullptr;
  const std::size_t padded = atomic_word_padded(bytes);
  cudaError_t e = cudaMallocFromPoolAsync(&p, padded, pool, stream);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
    ACC_DETAIL_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0), site);
    e = cudaMallocFromPoolAsync(&p, padded, pool, stream);
  }
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    std::size_t free = 0, total = 0;
    mem_info(device, &free, &total);
    fail<device_error>(site, "cannot allocate " + std::to_string(bytes) + " bytes for " + what + " on device " +
                                 std::to_string(device) + ": " + std::to_string(free) + " of " +
                                 std::to_string(total) + " bytes are free");
  }
  ACC_DETAIL_CUDA_CHECK(e, site);
  return p;
}

ACC_DETAIL_CUDA_RUNTIME_FN void* alloc(int device, std::size_t bytes, int queue, const std::string& what,
                                       const call_site& site) {
  if (capturing.active) fail_in_capture(site, "allocating device memory for " + what);
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, queue, site);
  void* p = pool_alloc(device, bytes, stream, what, site);
  // A synchronous data action returns with memory any queue may use.
  if (queue == queue_sync) ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
  return p;
}

ACC_DETAIL_CUDA_RUNTIME_FN void release(int device, void* p, int queue) noexcept {
  if (!p) return;
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || (current != device && cudaSetDevice(device) != cudaSuccess)) {
    (void)cudaGetLastError();
    return;
  }
  cudaStream_t stream = cudaStreamPerThread;
  if (queue != queue_sync) {
    try {
      if (cudaStream_t s = existing_queue(device, queue)) stream = s;
    } catch (...) {  // a failed mutex lock: free in order with the calling thread instead
    }
  }
  if (cudaFreeAsync(p, stream) != cudaSuccess || (queue == queue_sync && cudaStreamSynchronize(stream) != cudaSuccess))
    (void)cudaGetLastError();
}

inline void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, int device, int queue,
                 const call_site& site) {
  if (capturing.active) fail_in_capture(site, "a transfer of " + std::to_string(bytes) + " bytes");
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, queue, site);
  ACC_DETAIL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream), site);
  if (queue == queue_sync) ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
}

/// Pinned host buffers that transfers from and to pageable memory pass through, one set per
/// device, made on first use and kept for the life of the process (as queues' streams are).
/// `free[i]` is recorded after the last DMA that used buffer i, on whichever queue ran it;
/// the host waits for it before it writes the buffer again or gives it to another DMA. The
/// mutex gives the whole set to one transfer at a time: a transfer's chunks alternate between
/// the buffers, so sharing a buffer between concurrent transfers would only serialise them.
struct staging_pool {
  std::mutex mutex;
  char* buffer[staging_policy::buffers] = {};
  cudaEvent_t free[staging_policy::buffers] = {};
};

/// `device`'s (current) staging pool, or nullptr when its pinned memory cannot be had (the
/// transfers then go through CUDA's own staging, slower but correct). A failed attempt is
/// not repeated.
inline staging_pool* staging_pool_of(int device, const call_site& site) {
  static per_device<staging_pool*> pools;
  return pools.get(device, [&]() -> staging_pool* {
    (void)site;
    auto* p = new staging_pool;
    bool ok = true;
    for (int i = 0; i < staging_policy::buffers && ok; ++i) {
      void* b = nullptr;
      ok = cudaHostAlloc(&b, staging_policy::buffer_bytes, cudaHostAllocPortable) == cudaSuccess &&
           cudaEventCreateWithFlags(&p->free[i], cudaEventDisableTiming) == cudaSuccess;
      p->buffer[i] = static_cast<char*>(b);
    }
    if (ok) return p;
    (void)cudaGetLastError();
    for (int i = 0; i < staging_policy::buffers; ++i) {
      if (p->buffer[i]) (void)cudaFreeHost(p->buffer[i]);
      if (p->free[i]) (void)cudaEventDestroy(p->free[i]);
    }
    delete p;
    (void)cudaGetLastError();
    return nullptr;
  });
}

/// Whether `host` is ordinary pageable memory that a transfer of `bytes` should stage: not
/// small (CUDA's own staging is as fast there), and not memory CUDA already knows
/// (cudaMallocHost, cudaHostRegister by the program or by the present table, managed).
inline bool stage_transfer(const void* host, std::size_t bytes) noexcept {
  if (bytes < staging_policy::min_bytes) return false;
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeUnregistered;
}

/// The chunk a staged transfer of `bytes` moves at a time: about an eighth of it, so that the
/// host copy of the first chunk and the DMA of the last, which nothing overlaps, stay small;
/// at least staging_policy::min_chunk, as each chunk costs a hand-over to the copy team and a
/// DMA setup.
inline std::size_t staging_chunk(std::size_t bytes) noexcept {
  const std::size_t eighth = (bytes / 8 + 4095) / 4096 * 4096;
  return std::clamp(eighth, staging_policy::min_chunk, staging_policy::buffer_bytes);
}

/// The host half of a staged chunk: on the program's OpenMP threads where a translation unit
/// compiled with OpenMP registered them, else on the copy team. `more`: another chunk follows.
/// With `streaming` the stores pass the caches by (stream_copy; staging_policy says when): the
/// DMA that reads the buffer next is slower on lines still dirty in them.
inline void staging_copy(void* dst, const void* src, std::size_t bytes, bool more, bool streaming) {
  const piece_copy_fn piece = streaming ? &stream_copy : &copy_team::plain_copy;
  if (const openmp_copy_fn f = openmp_copy(); f && bytes >= 2 * copy_team::min_part) {
    char* const to[1] = {static_cast<char*>(dst)};
    chunked_copy job;
    job.chunk_dst = to;
    job.src = static_cast<const char*>(src);
    job.bytes = job.chunk = bytes;
    job.piece = staging_policy::piece;
    job.copy = piece;
    if (f(job)) return;
  }
  copy_team_of_process().copy(dst, src, bytes, more, piece);
}

/// A pipelined transfer's DMAs, queued by the OpenMP copy's calling thread as chunks complete
/// (chunked_copy::ready). The first error stops the rest; the caller reports it.
struct pipe_dmas {
  char* dst;
  char* const* slot;
  std::size_t bytes, chunk;
  cudaStream_t stream;
  cudaError_t error = cudaSuccess;

  static void queue(void* context, std::size_t k) noexcept {
    auto& d = *static_cast<pipe_dmas*>(context);
    if (d.error != cudaSuccess) return;
    const std::size_t off = k * d.chunk;
    d.error = cudaMemcpyAsync(d.dst + off, d.slot[k], std::min(d.chunk, d.bytes - off), cudaMemcpyHostToDevice,
                              d.stream);
  }
};

/// Pageable host -> device for a transfer of staging_policy::pipe_min_bytes or more that fits
/// the staging buffers, in one OpenMP region (openmp_copy): chunk k goes to buffer k % n, after
/// the chunks before it there, and its DMA is queued on `stream` as soon as its last piece is
/// in, while the threads copy the next chunks. Waits first for the buffers' earlier DMAs.
/// Returns false, having done nothing, where the OpenMP copy cannot run (no OpenMP, too few
/// threads, inside a region): then the chunk loop (staged_to_device) does it. Otherwise returns
/// as staged_to_device does.
inline bool staged_to_device_pipelined(staging_pool& p, char* dst, const char* src, std::size_t bytes,
                                       cudaStream_t stream, const call_site& site) {
  constexpr int n = staging_policy::buffers;
  static_assert(2 * staging_policy::pipe_max_chunk <= staging_policy::buffer_bytes &&
                    (n * staging_policy::buffer_bytes) / staging_policy::pipe_max_chunk <= chunked_copy::max_chunks,
                "a pipelined transfer's chunks must fit the staging buffers and chunked_copy");
  const openmp_copy_fn f = openmp_copy();
  if (!f || bytes < staging_policy::pipe_min_bytes || bytes > n * staging_policy::buffer_bytes) return false;
  const std::size_t quarter = (bytes / 4 + staging_policy::pipe_piece - 1) / staging_policy::pipe_piece *
                              staging_policy::pipe_piece;
  const std::size_t chunk = std::min(quarter, staging_policy::pipe_max_chunk);
  const std::size_t chunks = (bytes + chunk - 1) / chunk;
  if ((chunks + n - 1) / n * chunk > staging_policy::buffer_bytes) return false;  // not with the sizes above
  char* slot[chunked_copy::max_chunks];
  for (std::size_t k = 0; k < chunks; ++k) slot[k] = p.buffer[k % n] + (k / n) * chunk;

  std::lock_guard lock(p.mutex);
  for (int i = 0; i < n; ++i) ACC_DETAIL_CUDA_CHECK(cudaEventSynchronize(p.free[i]), site);
  pipe_dmas dmas{dst, slot, bytes, chunk, stream};
  chunked_copy job;
  job.chunk_dst = slot;
  job.src = src;
  job.bytes = bytes;
  job.chunk = chunk;
  job.piece = staging_policy::pipe_piece;
  job.copy = bytes <= staging_policy::stream_max_bytes ? &stream_copy : &copy_team::plain_copy;
  job.ready = &pipe_dmas::queue;
  job.context = &dmas;
  if (!f(job)) return false;
  // Every buffer's next user waits for the DMAs queued so far, the failed transfer's included.
  cudaError_t recorded = cudaSuccess;
  for (int i = 0; i < n; ++i)
    if (const cudaError_t e = cudaEventRecord(p.free[i], stream); recorded == cudaSuccess) recorded = e;
  ACC_DETAIL_CUDA_CHECK(dmas.error, site);
  ACC_DETAIL_CUDA_CHECK(recorded, site);
  return true;
}

/// Pageable host -> device through the staging pool: staging_copy fills buffer k % n while
/// the DMA of the chunk before it runs on `stream`. Returns once the last chunk is in a
/// staging buffer, so the host range may be reused at once; the DMAs complete in order on
/// `stream`, before anything queued on it later. A chunk waits for its buffer's previous DMA,
/// so a transfer of more than `buffers` chunks onto a queue still busy with earlier work makes
/// the host wait for that work (async then means only that the last chunks are in flight).
inline void staged_to_device(staging_pool& p, char* dst, const char* src, std::size_t bytes, cudaStream_t stream,
                             const call_site& site) {
  std::lock_guard lock(p.mutex);
  const std::size_t chunk = staging_chunk(bytes);
  const bool streaming = bytes <= staging_policy::stream_max_bytes;
  for (std::size_t off = 0, k = 0; off < bytes; off += chunk, ++k) {
    const int i = static_cast<int>(k % staging_policy::buffers);
    const std::size_t len = std::min(chunk, bytes - off);
    ACC_DETAIL_CUDA_CHECK(cudaEventSynchronize(p.free[i]), site);  // its last DMA has read it
    staging_copy(p.buffer[i], src + off, len, off + len < bytes, streaming);
    ACC_DETAIL_CUDA_CHECK(cudaMemcpyAsync(dst + off, p.buffer[i], len, cudaMemcpyHostToDevice, stream), site);
    ACC_DETAIL_CUDA_CHECK(cudaEventRecord(p.free[i], stream), site);
  }
}

/// Device -> pageable host through the staging pool: up to n chunks' DMAs are queued on
/// `stream` ahead, and staging_copy empties each buffer as its DMA completes, then queues
/// the DMA of the chunk n further into it. Returns once all of the range is in host memory
/// (after the work queued before on `stream`), as CUDA's own copies to pageable memory do.
inline void staged_to_host(staging_pool& p, char* dst, const char* src, std::size_t bytes, cudaStream_t stream,
                           const call_site& site) {
  std::lock_guard lock(p.mutex);
  const std::size_t chunk = staging_chunk(bytes);
  const std::size_t chunks = (bytes + chunk - 1) / chunk;
  const auto queue_chunk = [&](std::size_t k) {
    const int i = static_cast<int>(k % staging_policy::buffers);
    const std::size_t off = k * chunk, len = std::min(chunk, bytes - off);
    // A transfer that used the buffer before (another queue's, perhaps) must be done with it.
    ACC_DETAIL_CUDA_CHECK(cudaStreamWaitEvent(stream, p.free[i], 0), site);
    ACC_DETAIL_CUDA_CHECK(cudaMemcpyAsync(p.buffer[i], src + off, len, cudaMemcpyDeviceToHost, stream), site);
    ACC_DETAIL_CUDA_CHECK(cudaEventRecord(p.free[i], stream), site);
  };
  const std::size_t ahead = std::min<std::size_t>(chunks, staging_policy::buffers);
  for (std::size_t k = 0; k < ahead; ++k) queue_chunk(k);
  for (std::size_t k = 0; k < chunks; ++k) {
    const int i = static_cast<int>(k % staging_policy::buffers);
    const std::size_t off = k * chunk, len = std::min(chunk, bytes - off);
    ACC_DETAIL_CUDA_CHECK(cudaEventSynchronize(p.free[i]), site);  // chunk k has landed
    staging_copy(dst + off, p.buffer[i], len, k + 1 < chunks, false);
    if (k + staging_policy::buffers < chunks) queue_chunk(k + staging_policy::buffers);
  }
}

/// The device's staging buffers when a transfer of `bytes` at host address `host` goes through
/// them (pageable and large enough, not inside a graph capture), else nullptr: a plain copy.
inline staging_pool* staging_for(const void* host, std::size_t bytes, host_memory kind, int device,
                                 const call_site& site) {
  if (kind == host_memory::page_locked || capturing.active || !stage_transfer(host, bytes)) return nullptr;
  use_device(device, site);
  return staging_pool_of(device, site);
}

ACC_DETAIL_CUDA_RUNTIME_FN void to_device(int device, void* dst, const void* src, std::size_t bytes, int queue,
                                          host_memory host, const call_site& site) {
  staging_pool* pool = staging_for(src, bytes, host, device, site);
  if (!pool) {
    copy(dst, src, bytes, cudaMemcpyHostToDevice, device, queue, site);
    return;
  }
  cudaStream_t stream = queue_stream(device, queue, site);
  char* const to = static_cast<char*>(dst);
  const char* const from = static_cast<const char*>(src);
  if (!staged_to_device_pipelined(*pool, to, from, bytes, stream, site))
    staged_to_device(*pool, to, from, bytes, stream, site);
  if (queue == queue_sync) ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
}

ACC_DETAIL_CUDA_RUNTIME_FN void to_host(int device, void* dst, const void* src, std::size_t bytes, int queue,
                                        host_memory host, const call_site& site) {
  staging_pool* pool = staging_for(dst, bytes, host, device, site);
  if (!pool) {
    copy(dst, src, bytes, cudaMemcpyDeviceToHost, device, queue, site);
    return;
  }
  staged_to_host(*pool, static_cast<char*>(dst), static_cast<const char*>(src), bytes,
                 queue_stream(device, queue, site), site);
}

ACC_DETAIL_CUDA_RUNTIME_FN void fill_zero(int device, void* p, std::size_t bytes, int queue, const call_site& site) {
  if (capturing.active) fail_in_capture(site, "zero-filling " + std::to_string(bytes) + " bytes");
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, queue, site);
  ACC_DETAIL_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, stream), site);
  if (queue == queue_sync) ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
}

ACC_DETAIL_CUDA_RUNTIME_FN void* device_malloc(int device, std::size_t bytes, const call_site& site) {
  use_device(device, site);
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, atomic_word_padded(bytes));
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    return nullptr;  // acc_malloc reports failure with a null pointer
  }
  ACC_DETAIL_CUDA_CHECK(e, site);
  return p;
}

ACC_DETAIL_CUDA_RUNTIME_FN void device_free(int device, void* p) noexcept {
  int current = -1;
  if (!p || cudaGetDevice(&current) != cudaSuccess || (current != device && cudaSetDevice(device) != cudaSuccess) ||
      cudaFree(p) != cudaSuccess)
    (void)cudaGetLastError();
}

ACC_DETAIL_CUDA_RUNTIME_FN std::string device_name(int device) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  return prop.name;
}

ACC_DETAIL_CUDA_RUNTIME_FN std::string driver_version() {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  return "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

ACC_DETAIL_CUDA_RUNTIME_FN void* symbol_address(int device, const void* symbol, const call_site& site) {
  use_device(device, site);
  void* p = nullptr;
  ACC_DETAIL_CUDA_CHECK(cudaGetSymbolAddress(&p, symbol), site);
  return p;
}

ACC_DETAIL_CUDA_RUNTIME_FN void enable_peer_access(int device, int peer) noexcept {
  static int asked[max_devices * max_devices] = {};
  if (device >= max_devices || peer >= max_devices) return;
  struct pair {
    int device, peer;
  } p{device, peer};
  try {
    call_once_at(asked, device * max_devices + peer, [](void* context) {
      const auto& x = *static_cast<pair*>(context);
      int can = 0;
      if (cudaDeviceCanAccessPeer(&can, x.device, x.peer) == cudaSuccess && can) {
        int current = -1;
        if (cudaGetDevice(&current) == cudaSuccess && cudaSetDevice(x.device) == cudaSuccess) {
          (void)cudaDeviceEnablePeerAccess(x.peer, 0);  // already enabled (by the user) is fine
          (void)cudaSetDevice(current);
        }
      }
      (void)cudaGetLastError();
    }, &p);
  } catch (...) {  // no lock: copies are staged, as without peer access
  }
}

ACC_DETAIL_CUDA_RUNTIME_FN void peer_copy(int to_device, void* dst, int from_device, const void* src, std::size_t bytes,
                                          int queue, const call_site& site) {
  enable_peer_access(to_device, from_device);
  if (queue != queue_sync) {
    if (cudaStream_t producer = existing_queue(from_device, queue)) {
      use_device(from_device, site);
      cudaEvent_t done = nullptr;
      ACC_DETAIL_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), site);
      cudaError_t e = cudaEventRecord(done, producer);
      if (e == cudaSuccess) {
        use_device(to_device, site);
        e = cudaStreamWaitEvent(queue_stream(to_device, queue, site), done, 0);
      }
      (void)cudaEventDestroy(done);
      ACC_DETAIL_CUDA_CHECK(e, site);
    }
  }
  use_device(to_device, site);
  cudaStream_t stream = queue_stream(to_device, queue, site);
  ACC_DETAIL_CUDA_CHECK(cudaMemcpyPeerAsync(dst, to_device, src, from_device, bytes, stream), site);
  if (queue == queue_sync) ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
}

ACC_DETAIL_CUDA_RUNTIME_FN bool pin(const void* host, std::size_t bytes) noexcept {
  if (bytes < pin_min_bytes) return false;
  // Memory CUDA already knows (cudaMallocHost, managed, registered by the user) stays as it is.
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess || a.type != cudaMemoryTypeUnregistered) {
    (void)cudaGetLastError();
    return false;
  }
  // Fails when a page of the range is already registered (a neighbour's entry): then the
  // copies stay staged, which is slower but correct.
  // Portable: pinned for every device's context, as the staging buffers are.
  if (cudaHostRegister(const_cast<void*>(host), bytes, cudaHostRegisterPortable) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

ACC_DETAIL_CUDA_RUNTIME_FN void unpin(const void* host) noexcept {
  if (cudaHostUnregister(const_cast<void*>(host)) != cudaSuccess) (void)cudaGetLastError();
}

ACC_DETAIL_CUDA_RUNTIME_FN result_slot& result_slot_of(std::size_t bytes, const call_site& site) {
  thread_local result_slot slot;
  slot.reserve(bytes, site);
  return slot;
}

}  // namespace acc::detail::cuda
