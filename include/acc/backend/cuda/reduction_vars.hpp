//! @file The device side of reduction(op, var) clauses, shared by parallel_loop and parallel:
//! one partial per block and variable, one kernel that combines them all into mapped host memory.
#pragma once

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/reduce.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/reduce_op.hpp>

#include <cstddef>
#include <cstring>
#include <tuple>
#include <utility>

namespace acc::detail::cuda {

/// Thread 0 of the one block: out_v = op_v(identity, partial_v[0 .. count)) for every variable.
template <class Ops, class Outs>
__global__ void combine_reduction_vars(Ops ops, Outs partial, int count, Outs out) {
  [&]<std::size_t... V>(std::index_sequence<V...>) {
    (fold_partials(std::get<V>(partial), count, std::get<V>(ops),
                          identity_of<std::remove_pointer_t<std::tuple_element_t<V, Outs>>>(std::get<V>(ops)),
                          std::get<V>(out)),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<Outs>>{});
}

/// Scratch for the reduction clauses R... of one construct run by `blocks` blocks. The
/// kernel writes block b's private value of variable v to std::get<v>(partials())[b];
/// finish() combines them on the device and folds each result into its variable.
///
/// Layout: each variable's partials in device scratch, and the results side by side in the
/// thread's result_slot (mapped host memory: no copy back); every segment 16-byte aligned.
template <class... R>
class reduction_vars {
public:
  static_assert((device_reducible_v<typename R::value_type> && ...),
                "acc: a long double reduction cannot run on a GPU (nvcc computes long double as double "
                "in device code, and its host layout differs); reduce in double");
  using ops_type = std::tuple<decltype(R::op)...>;
  using values_type = std::tuple<typename R::value_type...>;
  using pointers_type = std::tuple<typename R::value_type*...>;

  reduction_vars(int blocks, int device, cudaStream_t stream, const call_site& site)
      : blocks_(blocks), stream_(stream),
        scratch_(layout(blocks).total, device, stream, site) {}

  pointers_type partials() const { return pointers(layout(blocks_).partial); }

  /// Waits for the construct (the variables are the host's) and sets var = op(var, result).
  void finish(const std::tuple<R...>& reds, const call_site& site) {
    constexpr int block = reduce_policy::block;
    const offsets o = layout(blocks_);
    const ops_type ops = [&]<std::size_t... V>(std::index_sequence<V...>) {
      return ops_type{std::get<V>(reds).op...};
    }(std::index_sequence_for<R...>{});
    result_slot& out = result_slot_of(results_bytes, site);
    launch(&combine_reduction_vars<ops_type, pointers_type>, {1u, unsigned(block)}, 0, stream_, site, ops,
           pointers(o.partial), blocks_, pointers(static_cast<char*>(out.device()), o.result));
    scratch_.release(site);
    ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream_), site);
    const auto* bytes = static_cast<const unsigned char*>(out.host());
    [&]<std::size_t... V>(std::index_sequence<V...>) {
      (fold_into(std::get<V>(reds), bytes + o.result[V]), ...);
    }(std::index_sequence_for<R...>{});
  }

private:
  static constexpr std::size_t k = sizeof...(R);
  static constexpr std::size_t round16(std::size_t n) { return (n + 15) / 16 * 16; }
  static constexpr std::size_t results_bytes = (round16(sizeof(typename R::value_type)) + ...);
  struct offsets {
    std::size_t result[k + 1];
    std::size_t partial[k];
    std::size_t total;
  };
  static offsets layout(int blocks) {
    constexpr std::size_t sizes[k] = {sizeof(typename R::value_type)...};
    offsets o{};
    for (std::size_t v = 0; v < k; ++v) o.result[v + 1] = o.result[v] + round16(sizes[v]);
    std::size_t at = 0;
    for (std::size_t v = 0; v < k; ++v) o.partial[v] = at, at += round16(sizes[v] * std::size_t(blocks));
    o.total = at;
    return o;
  }
  template <class Red>
  static void fold_into(const Red& red, const unsigned char* bytes) {
    typename Red::value_type result;
    std::memcpy(&result, bytes, sizeof result);  // trivially copyable, as kernel arguments are
    *red.var = red.op(*red.var, result);
  }
  template <std::size_t N>
  pointers_type pointers(const std::size_t (&offset)[N]) const {
    return pointers(static_cast<char*>(scratch_.get()), offset);
  }
  template <std::size_t N>
  static pointers_type pointers(char* base, const std::size_t (&offset)[N]) {
    return [&]<std::size_t... V>(std::index_sequence<V...>) {
      return pointers_type{reinterpret_cast<std::tuple_element_t<V, pointers_type>>(base + offset[V])...};
    }(std::index_sequence_for<R...>{});
  }

  int blocks_;
  cudaStream_t stream_;
  stream_buffer scratch_;
};

}  // namespace acc::detail::cuda
