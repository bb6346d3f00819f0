//! @file CUDA backend of parallel_reduce: cub::DeviceReduce over the body's values.
#pragma once

#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/runtime.hpp>
#include <acc/extent.hpp>

#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdint>

namespace acc::detail::cuda {

/// Flat iteration t -> body(i, j, k): the input sequence CUB reduces. Collapsed spaces divide
/// once per element; the body's own loads dominate.
template <class T, class Count, class Index, std::size_t Rank, class Body>
struct reduce_input {
  Body body;
  Index lo;
  Count n1, n2;

  __host__ __device__ T operator()(Count t) const {
    if constexpr (Rank == 1) {
      return body(index_at(lo, t));
    } else if constexpr (Rank == 2) {
      const Count i = t / n1;
      return body(static_cast<Index>(i), static_cast<Index>(t - i * n1));
    } else {
      const Count n12 = n1 * n2, i = t / n12, r = t - i * n12, j = r / n2;
      return body(static_cast<Index>(i), static_cast<Index>(j), static_cast<Index>(r - j * n2));
    }
  }
};

template <class Count, class NumItems, class Index, std::size_t Rank, class Op, class Body, class T>
T reduce_with(const index_space<Index, Rank>& s, std::uint64_t total, cudaStream_t stream, const Op& op,
              const Body& body, T init, const call_site& site) {
  const Count n1 = Rank > 1 ? Count(s.count[1]) : 1, n2 = Rank > 2 ? Count(s.count[2]) : 1;
  const auto in = thrust::make_transform_iterator(thrust::counting_iterator<Count>(0),
                                                  reduce_input<T, Count, Index, Rank, Body>{body, s.lo[0], n1, n2});
  std::size_t temp_bytes = 0;
  ACC_DETAIL_CUDA_CHECK(
      cub::DeviceReduce::Reduce(nullptr, temp_bytes, in, static_cast<T*>(nullptr), NumItems(total), op, init, stream),
      site);
  // One stream-ordered allocation for the result and CUB's scratch; the pool makes it cheap.
  const std::size_t out_bytes = (sizeof(T) + 255) / 256 * 256;
  void* mem = nullptr;
  ACC_DETAIL_CUDA_CHECK(cudaMallocAsync(&mem, out_bytes + temp_bytes, stream), site);
  T* out = static_cast<T*>(mem);
  T result = init;
  cudaError_t e = cub::DeviceReduce::Reduce(static_cast<char*>(mem) + out_bytes, temp_bytes, in, out,
                                            NumItems(total), op, init, stream);
  if (e == cudaSuccess) e = cudaMemcpyAsync(&result, out, sizeof(T), cudaMemcpyDeviceToHost, stream);
  const cudaError_t freed = cudaFreeAsync(mem, stream);
  ACC_DETAIL_CUDA_CHECK(e, site);
  ACC_DETAIL_CUDA_CHECK(freed, site);
  ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);  // the caller gets a value
  return result;
}

/// Runs a parallel_reduce on `device` (total > 0 iterations) and returns op(init, values...).
/// CUB picks its own launch configuration; num_gangs and vector_length do not apply.
template <class Index, std::size_t Rank, class Op, class Body, class T>
T run_reduce(const index_space<Index, Rank>& s, std::uint64_t total, const launch_spec& spec, int device,
             const Op& op, const Body& body, T init, const call_site& site) {
  register_ops();
  use_device(device, site);
  cudaStream_t stream = queue_stream(device, spec.queue, site);
  // One instantiation with 64-bit counts serves every size: CUB's dispatch is heavy to
  // compile (a 32-bit twin doubled the build time of tests/06_reduce) and the body's own loads
  // dominate the count arithmetic.
  return reduce_with<std::uint64_t, std::int64_t>(s, total, stream, op, body, init, site);
}

}  // namespace acc::detail::cuda
