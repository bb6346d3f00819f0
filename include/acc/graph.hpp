//! @file acc::graph: a sequence of constructs on one async queue, recorded once and replayed
//! many times (a CUDA graph on a GPU: one launch for the whole sequence).
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/clauses.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <functional>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>

namespace acc {

/// A recorded sequence of constructs. No OpenACC directive; the CUDA graphs an OpenACC
/// runtime may build for a queue.
/// - record(acc::async(q), f) calls f once to record what it queues on q, without running it:
///   on a GPU, q's stream is captured into a CUDA graph; on the host, f itself is kept.
/// - replay() runs the recorded constructs in order on q, as async constructs on q would
///   (acc::wait(q) waits for them); on the host they are complete when replay returns.
/// - Inside f every construct must be async on q, and on a GPU its data present (entered by
///   acc::data or acc::enter_data beforehand; default_present is then a good clause to give):
///   a transfer, an allocation, a construct on another queue or one that waits for its value
///   (parallel_reduce, a scan) throws acc::bad_clause and leaves nothing recorded. The host
///   device checks none of this: its replays call the function.
/// - What the constructs capture is fixed at recording on a GPU (kernel arguments are copied):
///   capture by value, and change data through the arrays, not through captured scalars.
/// e.g. acc::graph g; g.record(acc::async(1), [=] { for (int s = 0; s < 100; ++s)
///        acc::parallel_loop(n, acc::async(1), ACC_LAMBDA(int i) { x[i] += 1; }); });
///      for (int r = 0; r < 10; ++r) g.replay(); acc::wait(1);   // x[i] += 1000
class graph {
public:
  graph() = default;
  graph(const graph&) = delete;
  graph& operator=(const graph&) = delete;
  graph(graph&& o) noexcept { swap(o); }
  graph& operator=(graph&& o) noexcept {
    graph{std::move(o)}.swap(*this);
    return *this;
  }
  ~graph() { clear(); }

  /// Records what `constructs()` queues on q.queue (replacing an earlier recording).
  template <class F>
  void record(async_t q, F&& constructs) {
    static_assert(std::is_invocable_v<std::decay_t<F>&>,
                  "acc::graph::record: the second argument must be callable with no arguments; "
                  "write g.record(acc::async(q), [=] { ...constructs with acc::async(q)... })");
    const detail::call_site site{"graph::record", q.where};
    if (q.queue < 0 && q.queue != async_noval)
      detail::fail<bad_clause>(site, (q.queue == async_sync ? std::string("acc::async_sync is no queue")
                                                            : std::to_string(q.queue) + " is not a queue") +
                                         "; a graph records an async queue: give acc::async(q) with q >= 0 or "
                                         "acc::async()");
    clear();
    queue_ = q.queue;
    const int d = detail::current_device();
    if (d < 0) {
      host_ = std::function<void()>(std::forward<F>(constructs));
      return;
    }
    const detail::device_ops& ops = detail::cuda_ops();
    ops.begin_capture(d, queue_, site);
    try {
      constructs();
    } catch (const device_error& e) {
      ops.end_capture(d, queue_, false, site);
      detail::fail<bad_clause>(site, std::string(e.what()) +
                                         "; constructs recorded in a graph must not wait for the device "
                                         "(a reduction or scan returning its value, acc::wait)");
    } catch (...) {
      ops.end_capture(d, queue_, false, site);
      throw;
    }
    device_graph_ = ops.end_capture(d, queue_, true, site);
    device_ = d;
  }

  /// Runs the recorded constructs once more, in order, on the recorded queue.
  void replay(std::source_location where = std::source_location::current()) const {
    const detail::call_site site{"graph::replay", where};
    if (device_graph_) detail::cuda_ops().launch_graph(device_, queue_, device_graph_, site);
    else if (host_) host_();
    else detail::fail<bad_clause>(site, "the graph has recorded nothing; call record(acc::async(q), f) first");
  }

  /// Whether record() has succeeded.
  bool recorded() const noexcept { return device_graph_ != nullptr || bool(host_); }
  /// The queue the graph was recorded on (replay runs there).
  int queue() const noexcept { return queue_; }

private:
  void clear() noexcept {
    if (device_graph_) detail::cuda_ops().destroy_graph(device_, device_graph_);
    device_graph_ = nullptr;
    host_ = nullptr;
  }
  void swap(graph& o) noexcept {
    std::swap(device_graph_, o.device_graph_);
    std::swap(device_, o.device_);
    std::swap(queue_, o.queue_);
    std::swap(host_, o.host_);
  }

  void* device_graph_ = nullptr;  // cudaGraphExec_t, when recorded on a GPU
  int device_ = -1, queue_ = async_noval;
  std::function<void()> host_;    // the recorded callable, when recorded on the host
};

}  // namespace acc

#include <acc/detail/header_close.hpp>
