//! @file The device side of reduction(op, var) clauses, shared by parallel_loop and parallel:
//! one partial per block and variable, combined into mapped host memory by a second kernel or,
//! in the single pass, by the last block of the construct's own kernel.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/backend/cuda/check.hpp>
#include <acc/backend/cuda/launch.hpp>
#include <acc/backend/cuda/memory.hpp>
#include <acc/backend/cuda/reduce.hpp>
#include <acc/backend/cuda/single_pass.hpp>
#include <acc/backend/cuda/tuning.hpp>
#include <acc/detail/reduce_op.hpp>

#include <cstddef>
#include <cstring>
#include <tuple>
#include <utility>

namespace acc::detail::cuda {

/// The calling block: out_v = op_v(identity, partial_v[0 .. count)) for every variable,
/// written by thread 0.
template <class Ops, class Outs>
__device__ void fold_reduction_vars(const Ops& ops, const Outs& partial, int count, const Outs& out) {
  [&]<std::size_t... V>(std::index_sequence<V...>) {
    (fold_partials(std::get<V>(partial), count, std::get<V>(ops),
                   identity_of<std::remove_pointer_t<std::tuple_element_t<V, Outs>>>(std::get<V>(ops)),
                   std::get<V>(out)),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<Outs>>{});
}

template <class Ops, class Outs>
__global__ void combine_reduction_vars(Ops ops, Outs partial, int count, Outs out) {
  fold_reduction_vars(ops, partial, count, out);
}

/// Where the values of reduction clauses R... live: each variable's partials (one per block)
/// side by side, and the results side by side in the thread's result_slot (mapped host
/// memory: no copy back); every segment 16-byte aligned.
template <class... R>
struct reduction_layout {
  static_assert((device_reducible_v<typename R::value_type> && ...),
                "acc: a long double reduction cannot run on a GPU (nvcc computes long double as double "
                "in device code, and its host layout differs); reduce in double");
  using ops_type = std::tuple<decltype(R::op)...>;
  using values_type = std::tuple<typename R::value_type...>;
  using pointers_type = std::tuple<typename R::value_type*...>;

  static constexpr std::size_t k = sizeof...(R);
  static constexpr std::size_t round16(std::size_t n) { return (n + 15) / 16 * 16; }
  static constexpr std::size_t results_bytes = (round16(sizeof(typename R::value_type)) + ...);
  struct offsets {
    std::size_t result[k + 1];
    std::size_t partial[k];
    std::size_t total;  // of the partials
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
  static ops_type ops_of(const std::tuple<R...>& reds) {
    return [&]<std::size_t... V>(std::index_sequence<V...>) {
      return ops_type{std::get<V>(reds).op...};
    }(std::index_sequence_for<R...>{});
  }
  template <std::size_t N>
  static pointers_type pointers(char* base, const std::size_t (&offset)[N]) {
    return [&]<std::size_t... V>(std::index_sequence<V...>) {
      return pointers_type{reinterpret_cast<std::tuple_element_t<V, pointers_type>>(base + offset[V])...};
    }(std::index_sequence_for<R...>{});
  }
  /// var = op(var, result) for every variable, from the results' bytes.
  static void fold_results(const std::tuple<R...>& reds, const unsigned char* bytes, const offsets& o) {
    [&]<std::size_t... V>(std::index_sequence<V...>) {
      (fold_into(std::get<V>(reds), bytes + o.result[V]), ...);
    }(std::index_sequence_for<R...>{});
  }
  template <class Red>
  static void fold_into(const Red& red, const unsigned char* bytes) {
    typename Red::value_type result = *red.var;  // overwritten; T need not be default-constructible
    std::memcpy(&result, bytes, sizeof result);     // trivially copyable, as kernel arguments are
    *red.var = red.op(*red.var, result);
  }
};

/// Scratch for the reduction clauses R... of one construct run by `blocks` blocks, in the
/// two-kernel form. The kernel writes block b's private value of variable v to
/// std::get<v>(partials())[b]; finish() combines them on the device and folds each result
/// into its variable.
template <class... R>
class reduction_vars : public reduction_layout<R...> {
  using base = reduction_layout<R...>;

public:
  using typename base::ops_type;
  using typename base::pointers_type;
  using typename base::values_type;

  reduction_vars(int blocks, int device, cudaStream_t stream, const call_site& site)
      : blocks_(blocks), stream_(stream),
        scratch_(base::layout(blocks).total, device, stream, site) {}

  pointers_type partials() const {
    return base::pointers(static_cast<char*>(scratch_.get()), base::layout(blocks_).partial);
  }

  /// Waits for the construct (the variables are the host's) and sets var = op(var, result).
  void finish(const std::tuple<R...>& reds, const call_site& site) {
    constexpr int block = reduce_policy::block;
    const typename base::offsets o = base::layout(blocks_);
    result_slot& out = result_slot_of(base::results_bytes, site);
    launch(&combine_reduction_vars<ops_type, pointers_type>, {1u, unsigned(block)}, 0, stream_, site,
           base::ops_of(reds), partials(), blocks_, base::pointers(static_cast<char*>(out.device()), o.result));
    scratch_.release(site);
    ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream_), site);
    base::fold_results(reds, static_cast<const unsigned char*>(out.host()), o);
  }

private:
  int blocks_;
  cudaStream_t stream_;
  stream_buffer scratch_;
};

/// The single pass (single_pass.hpp) for reduction clauses R... run by `blocks` blocks: the
/// partials and the ticket in the thread's single_pass_scratch, and results() where the last
/// block writes the combined values; finish() waits and folds them into the variables.
template <class... R>
class single_pass_vars : public reduction_layout<R...> {
  using base = reduction_layout<R...>;

public:
  using typename base::pointers_type;

  single_pass_vars(int blocks, int device, cudaStream_t stream, const call_site& site)
      : blocks_(blocks), scratch_(single_pass_scratch_of(device, site)),
        out_(result_slot_of(base::results_bytes, site)) {
    scratch_.acquire(base::layout(blocks).total, stream, site);
  }

  unsigned* ticket() const noexcept { return scratch_.ticket(); }
  pointers_type partials() const { return base::pointers(scratch_.partials(), base::layout(blocks_).partial); }
  pointers_type results() const {
    return base::pointers(static_cast<char*>(out_.device()), base::layout(blocks_).result);
  }

  /// Runs `queue_kernel`; if it throws, nothing was queued and the scratch is free again.
  template <class F>
  void launched(F&& queue_kernel) {
    try {
      queue_kernel();
    } catch (...) {
      scratch_.done();
      throw;
    }
  }

  void finish(cudaStream_t stream, const std::tuple<R...>& reds, const call_site& site) {
    ACC_DETAIL_CUDA_CHECK(cudaStreamSynchronize(stream), site);
    scratch_.done();
    base::fold_results(reds, static_cast<const unsigned char*>(out_.host()), base::layout(blocks_));
  }

private:
  int blocks_;
  single_pass_scratch& scratch_;
  result_slot& out_;
};

}  // namespace acc::detail::cuda

#include <acc/detail/header_close.hpp>
