//! @file memcpy with streaming (non-temporal) stores, for the host half of a staged transfer to
//! the device: the pinned buffer it fills is read next by the GPU's DMA, not by the CPU.
#pragma once

#include <acc/detail/header_open.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && defined(__SSE2__)
#  include <emmintrin.h>
#endif

namespace acc::detail {

/// std::memcpy(dst, src, bytes) (the ranges not overlapping) whose stores bypass the caches
/// where the CPU has such stores (x86-64), else std::memcpy. A DMA that reads lines the CPU has
/// just written, still dirty in its caches, ran at 0.52-0.70 of the speed of one reading memory
/// on the H200 machine from 1 to 16 MiB (bench/results/h100-transfer.txt); streamed, the lines
/// are in memory when the DMA comes and the CPU does not read each destination line first.
/// Ends with a store fence: the DMA, issued after, sees every byte.
inline void stream_copy(void* dst, const void* src, std::size_t bytes) noexcept {
#if defined(__x86_64__) && defined(__SSE2__)
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  // Streaming stores need a 16-byte aligned destination: the head up to it is an ordinary copy.
  const std::size_t to_aligned = (16 - reinterpret_cast<std::uintptr_t>(d) % 16) % 16;
  const std::size_t head = bytes < to_aligned ? bytes : to_aligned;
  std::memcpy(d, s, head);
  std::size_t i = head;
  for (; i + 64 <= bytes; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
  }
  std::memcpy(d + i, s + i, bytes - i);
  _mm_sfence();
#else
  std::memcpy(dst, src, bytes);
#endif
}

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
