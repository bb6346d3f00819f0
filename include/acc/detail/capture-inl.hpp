//! @file The runtime's definitions of the implicit data of compute constructs (detail/capture.hpp): the
//! arrays a body captured, looked up in the present table, copied for one construct. Compiled with
//! detail/runtime-inl.hpp, which includes this file.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_CAPTURE_INL)
#define ACC_DETAIL_CAPTURE_INL

#include <acc/detail/array_owner.hpp>
#include <acc/detail/capture.hpp>
#include <acc/detail/present_table.hpp>
#include <acc/detail/runtime_state.hpp>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace acc::detail {

struct capture_list {
  std::vector<captured> items;
};

struct implicit_blocks {
  struct block {
    host_span span;
    char* device;
  };
  std::vector<block> blocks;
};

ACC_DETAIL_RUNTIME_FN capture_scope::capture_scope() noexcept : outer(this_thread().capture) {
  this_thread().capture = this;
}

ACC_DETAIL_RUNTIME_FN capture_scope::~capture_scope() {
  close();
  delete more;
  while (array_owner* o = freed) {
    freed = o->next_freed;
    free_array_owner(o);
  }
}

ACC_DETAIL_RUNTIME_FN void capture_scope::close() noexcept {
  if (open) this_thread().capture = outer;
  open = false;
}

ACC_DETAIL_RUNTIME_FN void record_capture(const captured& c) noexcept {
  capture_scope* s = this_thread().capture;
  if (!s) return;
  if (s->count < capture_scope::inline_count) {
    s->first[s->count++] = c;
    return;
  }
  try {
    if (!s->more) s->more = new capture_list;
    s->more->items.push_back(c);
  } catch (...) {
    s->lost = true;
  }
}

/// The arrays a construct's own body copy captured, each once (sorted by address in the copy).
struct capture_range {
  captured* first = nullptr;
  captured* last = nullptr;
  captured* begin() const noexcept { return first; }
  captured* end() const noexcept { return last; }
};

inline capture_range own_captures(capture_scope& scope, const void* body, std::size_t body_size) {
  if (scope.count == 0) return {};
  captured* begin = scope.first;
  captured* end = scope.first + scope.count;
  if (scope.more) {
    std::vector<captured>& all = scope.more->items;
    all.insert(all.begin(), begin, end);
    begin = all.data();
    end = begin + all.size();
  }
  // Only copies inside the construct's own body count: nvcc's extended-lambda wrapper may
  // copy captures through temporaries that are gone by now. Those inside are deduplicated.
  const auto lo = reinterpret_cast<std::uintptr_t>(body), hi = lo + body_size;
  end = std::remove_if(begin, end, [&](const captured& c) {
    const auto a = reinterpret_cast<std::uintptr_t>(c.image);
    return a < lo || a >= hi;
  });
  // A body's copy reports its members in order, so the list is usually sorted already.
  const auto by_image = [](const captured& a, const captured& b) { return a.image < b.image; };
  if (!std::is_sorted(begin, end, by_image)) std::sort(begin, end, by_image);
  end = std::unique(begin, end, [](const captured& a, const captured& b) { return a.image == b.image; });
  return {begin, end};
}

/// What recent constructs of this thread found in the present table: per capture list (host
/// ranges in body order, one device), the entries and device addresses. A construct launched
/// again over the same arrays, with the table unchanged since (its generation), takes them from
/// here with one map search per array fewer, the most of its host cost after the launch itself.
/// Only lists whose arrays were all present are kept. Used under the table's lock: the entries
/// are valid while the generation is the same.
class resolved_captures {
public:
  static constexpr int most = capture_scope::inline_count;

  struct known {
    std::uint64_t generation = 0;  // 0: empty; the table's starts at 1
    int device = 0, count = 0;
    const void* host[most];
    std::size_t bytes[most];
    char* device_address[most];  // nullptr for an empty capture
    std::uintptr_t key[most];
    present_entry* entry[most];
  };

  /// The list as found at `generation`, or nullptr.
  const known* find(const captured* begin, const captured* end, int device, std::uint64_t generation) const noexcept {
    const int n = int(end - begin);
    if (n > most) return nullptr;
    const known& s = slots_[slot_of(begin, n)];
    if (s.generation != generation || s.device != device || s.count != n) return nullptr;
    for (int i = 0; i < n; ++i)
      if (begin[i].span.p != s.host[i] || begin[i].span.bytes != s.bytes[i]) return nullptr;
    return &s;
  }

  /// The slot to keep a list of `n` captures starting at `begin` in, found at `generation`; the
  /// caller fills host, bytes, device_address, key and entry.
  known& remember(const captured* begin, int n, int device, std::uint64_t generation) noexcept {
    known& s = slots_[slot_of(begin, n)];
    s.generation = generation;
    s.device = device;
    s.count = n;
    return s;
  }

  static resolved_captures& of_this_thread() noexcept {
    static thread_local resolved_captures r;
    return r;
  }

private:
  static constexpr int slots = 8;  // loops that take turns (a sweep's few nests) stay known
  static std::size_t slot_of(const captured* begin, int n) noexcept {
    const auto first = n ? reinterpret_cast<std::uintptr_t>(begin[0].span.p) : 0;
    const auto last = n ? reinterpret_cast<std::uintptr_t>(begin[n - 1].span.p) : 0;
    return ((first >> 4) ^ (last >> 6) ^ std::uintptr_t(n)) % slots;
  }
  known slots_[slots];
};

struct held_list {
  std::vector<held_reference> items;
};

ACC_DETAIL_RUNTIME_FN void implicit_data::hold(std::uintptr_t key, present_entry& e) {
  if (held_count_ < capture_scope::inline_count) {
    held_[held_count_++] = {key, &e};
  } else {
    if (!more_held_) more_held_ = new held_list;
    more_held_->items.push_back({key, &e});
  }
  ++e.structured;
}

ACC_DETAIL_RUNTIME_FN void implicit_data::give_back() noexcept {
  if (held_count_ == 0) return;
  auto& st = state();
  // Entries whose last reference this was (another thread exited them while the construct ran).
  entries_to_free gone;
  {
    std::lock_guard lock(st.present_mutex);
    present_map& m = st.present[device_];
    const auto give = [&](const held_reference& r) noexcept {
      // The entry is found again by its key: it may have gone meanwhile only if its host
      // memory was freed under the construct (forget_host_range).
      auto it = m.find(r.key);
      if (it == m.end() || &it->second != r.entry) return;
      present_entry& e = it->second;
      if (e.structured > 0) --e.structured;
      if (e.structured == 0 && e.dynamic == 0 && !e.mapped) {
        st.present_generation.fetch_add(1, std::memory_order_release);
        gone.take(device_, m, it, queue_);
      }
    };
    for (int i = 0; i < held_count_; ++i) give(held_[i]);
    if (more_held_)
      for (const held_reference& r : more_held_->items) give(r);
  }
  held_count_ = 0;
  delete more_held_;
  more_held_ = nullptr;
}

ACC_DETAIL_RUNTIME_FN implicit_data::implicit_data(capture_scope& scope, const void* body, std::size_t body_size,
                                                   int device, const launch_spec& spec, bool transfer,
                                                   const call_site& site)
    : device_(device), queue_(spec.queue), site_(site) {
  const capture_range own = own_captures(scope, body, body_size);
  captured* const begin = own.first;
  captured* const end = own.last;
  if (begin == end) return;

  auto& st = state();
  const bool whole = spec.parts == launch_spec::presence::whole;
  resolved_captures& memo = resolved_captures::of_this_thread();
  const int n = int(end - begin);
  const bool memoised = whole && n <= resolved_captures::most;

  std::vector<captured*> absent;
  try {
    std::lock_guard lock(st.present_mutex);
    const std::uint64_t generation = st.present_generation.load(std::memory_order_relaxed);
    if (const resolved_captures::known* k = memoised ? memo.find(begin, end, device, generation) : nullptr) {
      for (int i = 0; i < n; ++i) {
        if (!k->entry[i]) continue;
        if (device >= 0) begin[i].set_device(begin[i].image, k->device_address[i]);
        hold(k->key[i], *k->entry[i]);
      }
      return;
    }
    resolved_captures::known* keep = memoised ? &memo.remember(begin, n, device, generation) : nullptr;
    if (keep) keep->generation = 0;  // kept only once every capture is found present
    present_map& m = st.present[device];
    for (captured* p = begin; p != end; ++p) {
      captured& c = *p;
      if (keep) {
        const auto i = p - begin;
        keep->host[i] = c.span.p;
        keep->bytes[i] = c.span.bytes;
        keep->entry[i] = nullptr;
      }
      if (c.span.bytes == 0) continue;
      if (spec.parts != launch_spec::presence::whole) {
        // A part of an acc::devices loop: the device holds the array's part that its
        // iterations read (or all of it); the capture is based so that global indices land there.
        auto it = find_overlapping(m, c.span);
        if (it == m.end() && spec.parts == launch_spec::presence::in_parts_or_copied) {
          absent.push_back(&c);
          continue;
        }
        if (it == m.end())
          fail_absent(c.span, device,
                      "acc::devices needs each device's part of every captured array present there: "
                      "acc::enter_data(acc::copyin(acc::section(a, lo, n)), acc::device_num(d))",
                      site);
        if (device >= 0)
          c.set_device(c.image, reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(it->second.device) +
                                                        c.span.begin() - it->first));
        hold(it->first, it->second);
        continue;
      }
      // A view over an ACC_DECLARE array is present like the array, used or not before.
      auto it = find_present_or_declared(m, c.span, device, site, true);
      if (it != m.end()) {
        char* const address = it->second.device + (c.span.begin() - it->first);
        if (keep) {
          const auto i = p - begin;
          keep->device_address[i] = address;
          keep->key[i] = it->first;
          keep->entry[i] = &it->second;
        }
        if (device >= 0) c.set_device(c.image, address);
        hold(it->first, it->second);
      } else if (spec.default_present) {
        fail_absent(c.span, device,
                    "the construct has acc::default_present; enter it with acc::data or acc::enter_data, "
                    "or drop default_present to copy it in and out for this construct",
                    site);
      } else {
        absent.push_back(&c);
      }
    }
    // Entries found on first use (ACC_DECLARE variables) moved the generation.
    if (keep && absent.empty()) keep->generation = st.present_generation.load(std::memory_order_relaxed);
  } catch (...) {
    give_back();
    throw;
  }
  if (device < 0 || !transfer || absent.empty()) return;

  // Captures that overlap (a view into a captured array) share one device copy, or writes
  // through one would be lost to the other.
  try {
    std::sort(absent.begin(), absent.end(),
              [](const captured* a, const captured* b) { return a->span.begin() < b->span.begin(); });
    blocks_ = new implicit_blocks;
    auto& blocks = blocks_->blocks;
    std::vector<std::size_t> block_of(absent.size());
    for (std::size_t i = 0; i < absent.size(); ++i) {
      const host_span& s = absent[i]->span;
      if (!blocks.empty() && s.begin() < blocks.back().span.end()) {
        host_span& b = blocks.back().span;
        b.bytes = std::max(b.end(), s.end()) - b.begin();
        b.read_only = b.read_only && s.read_only;
      } else {
        blocks.push_back({s, nullptr});
      }
      block_of[i] = blocks.size() - 1;
    }
    const device_ops& ops = cuda_ops();
    for (auto& b : blocks) {
      b.device = static_cast<char*>(ops.alloc(device, b.span.bytes, queue_, describe(b.span), site));
      const nvtx_text_range range([&] { return transfer_name("implicit copyin", b.span); });
      ops.to_device(device, b.device, b.span.p, b.span.bytes, queue_, host_memory::unknown, site);
    }
    for (std::size_t i = 0; i < absent.size(); ++i) {
      const auto& b = blocks[block_of[i]];
      absent[i]->set_device(absent[i]->image, b.device + (absent[i]->span.begin() - b.span.begin()));
    }
  } catch (...) {
    release();
    give_back();
    throw;
  }
}

ACC_DETAIL_RUNTIME_FN implicit_data::~implicit_data() {
  release();
  give_back();
}

ACC_DETAIL_RUNTIME_FN void implicit_data::finish() {
  try {
    if (blocks_)
      for (auto& b : blocks_->blocks)
        if (!b.span.read_only) {
          const nvtx_text_range range([&] { return transfer_name("implicit copyout", b.span); });
          cuda_ops().to_host(device_, const_cast<void*>(b.span.p), b.device, b.span.bytes, queue_,
                             host_memory::unknown, site_);
        }
  } catch (...) {
    release();
    give_back();
    throw;
  }
  release();
  give_back();
}

ACC_DETAIL_RUNTIME_FN void implicit_data::release() noexcept {
  if (!blocks_) return;
  for (auto& b : blocks_->blocks)
    if (b.device) cuda_ops().release(device_, b.device, queue_);
  delete blocks_;
  blocks_ = nullptr;
}

}  // namespace acc::detail

#endif  // ACC_DETAIL_CAPTURE_INL
