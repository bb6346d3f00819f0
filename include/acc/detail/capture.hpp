//! @file Implicit data of compute constructs: the arrays a body captured, mapped for one launch.
#pragma once

#include <acc/detail/clauses.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

namespace acc::detail {

/// One acc::array / acc::view copied while a construct copied its body.
struct captured {
  void* image;                                         // that copy, to be given its device address
  void (*set_device)(void* image, void* device) noexcept;
  host_span span;
};

/// Active while a construct copies its body: the copy constructors of array and view report
/// here (style.md §4), which costs nothing per element and nothing outside constructs.
struct capture_scope {
  std::vector<captured> items;
  capture_scope* outer;
  bool open = true;

  capture_scope() noexcept : outer(this_thread().capture) { this_thread().capture = this; }
  ~capture_scope() { close(); }
  capture_scope(const capture_scope&) = delete;
  capture_scope& operator=(const capture_scope&) = delete;

  void close() noexcept {
    if (open) this_thread().capture = outer;
    open = false;
  }
};

/// The implicit data of one construct on `device` (OpenACC 3.3 §2.6.2): a captured array that
/// is present uses its present copy; one that is not is copied in (copy; copyin when its
/// elements are const) for this construct only and copied out when finish() is called. With
/// default_present an absent array is an error instead. On the host (-1) only that check runs.
class implicit_data {
public:
  implicit_data(std::vector<captured>& items, const void* body, std::size_t body_size, int device,
                const launch_spec& spec, bool transfer, const call_site& site)
      : device_(device), queue_(spec.queue), site_(site) {
    // Only copies inside the construct's own body count: nvcc's extended-lambda wrapper may
    // copy captures through temporaries that are gone by now. Those inside are deduplicated.
    const auto lo = reinterpret_cast<std::uintptr_t>(body), hi = lo + body_size;
    std::erase_if(items, [&](const captured& c) {
      const auto a = reinterpret_cast<std::uintptr_t>(c.image);
      return a < lo || a >= hi;
    });
    std::sort(items.begin(), items.end(), [](const captured& a, const captured& b) { return a.image < b.image; });
    items.erase(std::unique(items.begin(), items.end(),
                            [](const captured& a, const captured& b) { return a.image == b.image; }),
                items.end());
    if (items.empty()) return;

    std::vector<captured*> absent;
    {
      auto& st = state();
      std::lock_guard lock(st.present_mutex);
      present_map& m = st.present[device];
      for (captured& c : items) {
        if (c.span.bytes == 0) continue;
        auto it = find_present(m, c.span, device, site);
        if (it != m.end()) {
          if (device >= 0) c.set_device(c.image, it->second.device + (c.span.begin() - it->first));
        } else if (spec.default_present) {
          fail_absent(c.span, device,
                      "the construct has acc::default_present; enter it with acc::data or acc::enter_data, "
                      "or drop default_present to copy it in and out for this construct",
                      site);
        } else {
          absent.push_back(&c);
        }
      }
    }
    if (device < 0 || !transfer || absent.empty()) return;

    // Captures that overlap (a view into a captured array) share one device copy, or writes
    // through one would be lost to the other.
    std::sort(absent.begin(), absent.end(),
              [](const captured* a, const captured* b) { return a->span.begin() < b->span.begin(); });
    std::vector<std::size_t> block_of(absent.size());
    for (std::size_t i = 0; i < absent.size(); ++i) {
      const host_span& s = absent[i]->span;
      if (!blocks_.empty() && s.begin() < blocks_.back().span.end()) {
        host_span& b = blocks_.back().span;
        b.bytes = std::max(b.end(), s.end()) - b.begin();
        b.read_only = b.read_only && s.read_only;
      } else {
        blocks_.push_back({s, nullptr});
      }
      block_of[i] = blocks_.size() - 1;
    }
    try {
      const device_ops& ops = cuda_ops();
      for (block& b : blocks_) {
        b.device = static_cast<char*>(ops.alloc(device, b.span.bytes, queue_, describe(b.span), site));
        const nvtx_text_range range(transfer_name("implicit copyin", b.span));
        ops.to_device(device, b.device, b.span.p, b.span.bytes, queue_, site);
      }
    } catch (...) {
      release();
      throw;
    }
    for (std::size_t i = 0; i < absent.size(); ++i) {
      const block& b = blocks_[block_of[i]];
      absent[i]->set_device(absent[i]->image, b.device + (absent[i]->span.begin() - b.span.begin()));
    }
  }

  implicit_data(const implicit_data&) = delete;
  implicit_data& operator=(const implicit_data&) = delete;

  /// An exception between mapping and finish() (a failed launch): free without copying out.
  ~implicit_data() { release(); }

  /// After the launch: copies written data out and frees, in order on the construct's queue,
  /// so an async construct's host data is complete once its queue is waited for.
  void finish() {
    try {
      for (block& b : blocks_)
        if (!b.span.read_only) {
          const nvtx_text_range range(transfer_name("implicit copyout", b.span));
          cuda_ops().to_host(device_, const_cast<void*>(b.span.p), b.device, b.span.bytes, queue_, site_);
        }
    } catch (...) {
      release();
      throw;
    }
    release();
  }

private:
  struct block {
    host_span span;
    char* device;
  };

  void release() noexcept {
    for (block& b : blocks_)
      if (b.device) cuda_ops().release(device_, b.device, queue_);
    blocks_.clear();
  }

  std::vector<block> blocks_;
  int device_;
  int queue_;
  call_site site_;
};

/// A compute construct's own copy of its body, with the arrays it captured mapped to `device`;
/// the backend launches get(), and finish() ends the construct's implicit data.
template <class Body>
class mapped_body {
public:
  mapped_body(const Body& body, int device, const launch_spec& spec, bool transfer, const call_site& site)
      : body_(body), data_((scope_.close(), scope_.items), &body_, sizeof(Body), device, spec, transfer, site) {}

  const Body& get() const noexcept { return body_; }
  void finish() { data_.finish(); }

private:
  capture_scope scope_;  // first: open while body_ is copied
  Body body_;
  implicit_data data_;
};

/// default_present for a construct that runs on the host: the same presence check as on a
/// GPU (against the current device's table), so programs fail the same way everywhere.
template <class Body>
void check_present(const Body& body, const launch_spec& spec, const call_site& site) {
  // A body without captures has nothing to check (and copying an empty closure makes g++ 12
  // warn that its no bytes are uninitialised).
  if constexpr (!std::is_empty_v<Body>) mapped_body<Body> checked(body, current_device(), spec, false, site);
}

}  // namespace acc::detail
