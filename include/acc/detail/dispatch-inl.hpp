//! @file The runtime's definitions, third part: the one dispatch path of compute constructs
//! (detail/construct_entry.hpp). Compiled with detail/runtime-inl.hpp, which includes this file.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_DISPATCH_INL)
#define ACC_DETAIL_DISPATCH_INL

#include <acc/detail/capture.hpp>
#include <acc/detail/clauses.hpp>
#include <acc/detail/construct_entry.hpp>
#include <acc/detail/runtime_state.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace acc::detail {

namespace dispatch_impl {

struct placement {
  target where;
  int device;   // for nvidia; 0 on the host
  bool select;  // nvidia, and acc::adaptive, acc::tuned or ACC_DEVICE_TYPE=auto may change that
};

/// if_(false) and the host device type run on the host; otherwise the device named by
/// device_num, else the thread's current one, which must exist.
inline placement place(const launch_spec& s, const call_site& site) {
  if (!s.if_ || current_target() == target::host) return {target::host, 0, false};
  const int count = nvidia_device_count();
  const int device = s.device_num >= 0 ? s.device_num : current_nvidia_num();
  if (device >= count)
    fail<bad_clause>(site, (s.device_num >= 0 ? "device_num(" + std::to_string(device) + ")"
                                              : "device " + std::to_string(device) + " (ACC_DEVICE_NUM)") +
                               " does not exist; there are " + std::to_string(count) + " NVIDIA devices");
  return {target::nvidia, device, s.select != 0 || adaptive_everywhere()};
}

/// A construct's own copy of its body, made while `scope` records the arrays it captures, and
/// destroyed on every way out.
class body_copy {
public:
  body_copy(const construct_entry& e, capture_scope& scope, const void* body, void* storage, const call_site& site)
      : e_(e), p_(e.captures ? storage : const_cast<void*>(body)) {
    if (e.captures) e.copy_body(storage, body);
    scope.close();
    if (scope.lost) {
      if (e.captures) e.destroy_body(p_);
      fail(site, "out of host memory while recording the arrays and views the body captures");
    }
  }
  body_copy(const body_copy&) = delete;
  body_copy& operator=(const body_copy&) = delete;
  ~body_copy() {
    if (e_.captures) e_.destroy_body(p_);
  }
  void* get() const noexcept { return p_; }

private:
  const construct_entry& e_;
  void* p_;
};

/// A body_copy and its capture_scope, made on first need (run_selected: a GPU run, a host run
/// with data present on the GPU, a call whose data motion is not memoised). Not std::optional:
/// GCC 12's fills its storage with zeros when constructed empty, here 1.5 KiB of capture_scope
/// (some 200 stores) on every call that needs no copy.
class lazy_body_copy {
public:
  lazy_body_copy(const construct_entry& e, const void* body, void* storage, const call_site& site) noexcept
      : e_(e), body_(body), storage_(storage), site_(site) {}
  lazy_body_copy(const lazy_body_copy&) = delete;
  lazy_body_copy& operator=(const lazy_body_copy&) = delete;
  ~lazy_body_copy() {
    if (copied_) copy_.~body_copy();
    if (scoped_) scope_.~capture_scope();
  }
  void make() {
    if (copied_) return;
    ::new (&scope_) capture_scope;
    scoped_ = true;
    ::new (&copy_) body_copy(e_, scope_, body_, storage_, site_);
    copied_ = true;
  }
  capture_scope& scope() noexcept { return scope_; }
  void* get() const noexcept { return copy_.get(); }

private:
  const construct_entry& e_;
  const void* body_;
  void* storage_;
  const call_site& site_;
  union {
    capture_scope scope_;
  };
  union {
    body_copy copy_;
  };
  bool scoped_ = false, copied_ = false;
};

/// A host run of a construct whose captured arrays may be present on the GPU (acc::adaptive
/// chose the host, or the unit was compiled without nvcc): those present are brought to the host
/// first and, unless const, back after (host_coherence). default_present is checked against the
/// GPU's table, as it would be there.
class captures_on_host : public host_coherence {
public:
  captures_on_host(capture_scope& scope, const void* body, std::size_t body_size, int device, const launch_spec& spec,
                   const call_site& site)
      : host_coherence(device, spec.queue, site) {
    for (const captured& c : own_captures(scope, body, body_size))
      if (c.span.bytes != 0 && !take(c.span) && spec.default_present)
        fail_absent(c.span, device,
                    "the construct has acc::default_present; enter it with acc::data or acc::enter_data, "
                    "or drop default_present to copy it in and out for this construct",
                    site);
  }
};

/// What each side would move for a construct whose captured arrays are `scope`'s: the host
/// copies the present ones from the GPU and, unless const, back; the GPU copies the absent ones
/// in and, unless const, out.
inline data_motion motion_of(capture_scope& scope, const void* body, std::size_t body_size, int device) {
  data_motion m;
  for (const captured& c : own_captures(scope, body, body_size)) {
    const double bytes = double(c.span.bytes) * (c.span.read_only ? 1 : 2);
    m.bytes[present_address(device, c.span) ? 0 : 1] += bytes;
  }
  return m;
}

/// The call site's record, found by the construct's entry (one per body type), its source
/// location and the GPU without building a string, once the site is known.
inline selected_site& site_record(selection_registry& r, const construct_entry& e, const call_site& site, int device) {
  const selection_registry::site_id id{&e, site.where.file_name(), site.where.line(), site.where.column(), device};
  if (auto it = r.by_id.find(id); it != r.by_id.end()) return *it->second;
  // By the construct's entry too: a helper that wraps a construct shares its line among
  // callers with different bodies.
  const std::string& name = selection_impl::device_name(r, device);
  char entry[2 + 2 * sizeof(void*) + 1];
  std::snprintf(entry, sizeof entry, "%p", static_cast<const void*>(&e));
  selected_site& s = r.sites[name + '\t' + describe(site) + '\t' + entry];
  if (s.name.empty()) s.name = describe(site);
  r.by_id.emplace(id, &s);
  return s;
}

/// What a thread's last adaptive call at a call site found: the site's record and the bytes
/// each side would move. The next call there with the same body, byte for byte (the same
/// arrays: a closure holds its arrays' addresses and sizes), while the present table is
/// unchanged (its generation) and the sites were not reset (the registry's epoch), has the
/// same data motion: it skips the body copy, the present table's lookups and the search for
/// the site, so that an adaptive call that runs on the host costs little more than a plain one.
struct selection_memo {
  static constexpr std::size_t max_body = 256;  // larger bodies are not memoised
  const construct_entry* entry = nullptr;
  const char* file = nullptr;
  unsigned line = 0, column = 0;
  int device = -1;
  std::uint64_t epoch = 0, generation = 0;
  selected_site* site = nullptr;
  data_motion motion;
  // Runs the policy has already counted (adaptive_policy::lease): they go to `lease_where`
  // untimed, without its lock.
  int lease_left = 0;
  target lease_where = target::host;
  alignas(16) unsigned char body[max_body];

  bool matches(const construct_entry& e, const call_site& at, int dev, std::uint64_t epoch_now,
               std::uint64_t generation_now, const void* b) const noexcept {
    return entry == &e && line == at.where.line() && column == at.where.column() && file == at.where.file_name() &&
           device == dev && epoch == epoch_now && generation == generation_now &&
           std::memcmp(body, b, e.body_size) == 0;
  }
};

/// The thread's memo slot of a call site (a few sites share one; the last one there keeps it).
inline selection_memo& memo_of(const construct_entry& e, const call_site& site) noexcept {
  static thread_local std::array<selection_memo, 16> memos;
  const std::uintptr_t h = (reinterpret_cast<std::uintptr_t>(&e) >> 4) ^ site.where.line();
  return memos[h % memos.size()];
}

/// A leased run (below) that needs the construct's copy of its body: on the GPU, or on the host
/// with data present on the GPU. Apart, so that a leased host run of host data keeps a small
/// frame, as a plain construct's.
ACC_DETAIL_NOINLINE inline void run_leased_mapped(const construct_entry& e, const void* task, const launch_spec& spec,
                                                  int device, target where, const void* body, void* copy,
                                                  void* result, const call_site& site) {
  capture_scope scope;
  const body_copy mapped(e, scope, body, copy, site);
  if (where == target::nvidia) {
    implicit_data data(scope, mapped.get(), e.body_size, device, spec, true, site);
    e.run_nvidia(task, mapped.get(), launch_context{spec, device, site}, result);
    data.finish();
  } else {
    captures_on_host coherent(scope, mapped.get(), e.body_size, device, spec, site);
    e.run_host(task, body, launch_context{spec, 0, site}, result);
    coherent.finish();
  }
}

/// A call of a settled class between its samples, which the policy has already counted
/// (adaptive_policy::lease): it runs where the policy said, untimed, without the registry or
/// its lock. False when the thread holds no lease for this call (another body or site, the
/// present table changed, the sites were reset).
inline bool run_leased(const construct_entry& e, const void* task, const launch_spec& spec, int device,
                       const void* body, void* copy, void* result, const call_site& site) {
  if ((spec.select & select_tuned) || e.body_size > selection_memo::max_body) return false;
  selection_memo& memo = memo_of(e, site);
  if (memo.lease_left <= 0) return false;
  runtime_state& st = state();
  const std::uint64_t generation = st.present_generation.load(std::memory_order_acquire);
  if (!memo.matches(e, site, device, st.selection.epoch.load(std::memory_order_acquire), generation, body))
    return false;
  --memo.lease_left;
  if (memo.lease_where == target::host && memo.motion.bytes[0] <= 0 && !spec.default_present)
    e.run_host(task, body, launch_context{spec, 0, site}, result);
  else
    run_leased_mapped(e, task, spec, device, memo.lease_where, body, copy, result, site);
  return true;
}

/// acc::adaptive, acc::tuned, ACC_DEVICE_TYPE=auto, for a construct placed on a GPU: runs it
/// where the call site's policy says, with the shape its search says, timing the runs that
/// the policy and the search still learn from (the kernel apart from the data movement). False
/// when neither applies (a scan under ACC_DEVICE_TYPE=auto): the caller runs it as usual.
inline bool run_selected(const construct_entry& e, const void* task, std::uint64_t size, const launch_spec& spec,
                         int device, const void* body, void* copy, void* result, const call_site& site) {
  const bool adapt = e.selectable && ((spec.select & select_adaptive) || adaptive_everywhere());
  const bool tune = (spec.select & select_tuned) != 0;
  if (!adapt && !tune) return false;
  selection_registry& r = selection_state();
  const std::size_t cls = size_class(size);
  // The construct's own copy of its body, made when a run needs it (the GPU's, or the host's
  // with data present on the GPU) or to find where the arrays it captured are now.
  lazy_body_copy mapped(e, body, copy, site);
  data_motion motion{};
  selection_memo* memo = adapt && e.body_size <= selection_memo::max_body ? &memo_of(e, site) : nullptr;
  const std::uint64_t generation = state().present_generation.load(std::memory_order_acquire);
  const bool memoised =
      memo && memo->matches(e, site, device, r.epoch.load(std::memory_order_acquire), generation, body);
  if (memoised) {
    motion = memo->motion;
  } else {
    mapped.make();
    if (adapt) motion = motion_of(mapped.scope(), mapped.get(), e.body_size, device);
  }
  target where = target::nvidia;
  launch_choice shape{};
  bool timed = false;
  selected_site* s = nullptr;
  tune_search* search = nullptr;
  bool rejected = false;   // the search's shape could not run (see below)
  bool finishing = false;  // this call ended the search: the tune cache keeps its result
  std::string key;
  {
    std::lock_guard lock(r.mutex);
    // The epoch again, under the lock that reset_selection takes to free the sites.
    const bool site_known = memoised && memo->epoch == r.epoch.load(std::memory_order_relaxed);
    s = site_known ? memo->site : &site_record(r, e, site, device);
    if (memo && !site_known) {
      memo->entry = &e;
      memo->file = site.where.file_name();
      memo->line = site.where.line();
      memo->column = site.where.column();
      memo->device = device;
      memo->epoch = r.epoch.load(std::memory_order_relaxed);  // moved only under this lock
      memo->generation = generation;
      memo->site = s;
      memo->motion = motion;
      memo->lease_left = 0;
      std::memcpy(memo->body, body, e.body_size);
    }
    if (adapt) {
      where = s->policy.choose(size, motion);
      // A synchronous run is timed as the policy asks (its warm-up, then a sample); an async
      // one only in the warm-up, since timing it waits for its queue.
      timed = spec.queue == queue_sync ? s->policy.timed(size, motion) : s->policy.warming(size, motion);
      if (memo && !timed && !tune) {
        memo->lease_where = where;
        memo->lease_left = s->policy.lease(size, motion);
      }
    }
    if (tune && where == target::nvidia) {
      auto& t = s->tuning[cls];
      if ((!t || !t->done()) && site.where.line() != 0) key = tune_key(selection_impl::device_name(r, device), site, body_key(e.body_type->name()), cls);
      if (!t) {
        selection_impl::load_cache(r);
        auto hit = key.empty() ? r.cache.end() : r.cache.find(key);
        t = std::make_unique<tune_search>(hit != r.cache.end()
                                              ? tune_search::restored(hit->second.choice, hit->second.seconds)
                                              : tune_search(spec.vector_length == 0, spec.num_gangs == 0));
      }
      search = t.get();
      shape = t->next();
      timed = timed || !t->done();
    }
  }
  using clock = std::chrono::steady_clock;
  // Untimed runs, most of them once a class has settled, read no clock.
  const auto now = [timed] { return timed ? clock::now() : clock::time_point{}; };
  const clock::time_point start = now();
  clock::time_point kernel_start, kernel_end;
  if (where == target::nvidia) {
    const launch_spec run_spec = search ? apply_choice(spec, shape, size) : spec;
    // Synchronous copies and launches return finished; an async queue is waited for between
    // the parts of a timed run.
    const bool wait = timed && spec.queue != queue_sync;
    mapped.make();
    implicit_data data(mapped.scope(), mapped.get(), e.body_size, device, run_spec, true, site);
    if (wait) cuda_ops().wait(device, spec.queue, site);
    kernel_start = now();
    try {
      e.run_nvidia(task, mapped.get(), launch_context{run_spec, device, site}, result);
    } catch (const bad_clause&) {
      // A vector length the search gave that this kernel cannot have (its registers cap its
      // threads a gang): the launch refused it before running anything, so the search drops
      // the shape (unless another thread's call has moved it on already) and this call runs
      // with the shape the clauses give. A finished search never keeps such a shape, but one
      // read from the tune cache may (written by a build whose kernel had fewer registers):
      // the search starts again. Without a vector length from the search, the user's clauses
      // were wrong, and the error says so.
      if (!search || shape.vector_length == 0) throw;
      {
        std::lock_guard lock(r.mutex);
        const bool was_done = search->done();
        if (!was_done) search->reject(shape);
        else if (search->best() == shape) *search = tune_search(spec.vector_length == 0, spec.num_gangs == 0);
        finishing = !was_done && search->done();
      }
      rejected = true;
      e.run_nvidia(task, mapped.get(), launch_context{spec, device, site}, result);
    }
    if (wait) cuda_ops().wait(device, spec.queue, site);
    kernel_end = now();
    data.finish();
    if (wait) cuda_ops().wait(device, spec.queue, site);
  } else if (motion.bytes[0] > 0 || spec.default_present) {
    mapped.make();
    captures_on_host coherent(mapped.scope(), mapped.get(), e.body_size, device, spec, site);
    kernel_start = now();
    e.run_host(task, body, launch_context{spec, 0, site}, result);
    kernel_end = now();
    coherent.finish();
  } else {
    // Nothing the body captured is on the GPU: the host run is the plain one.
    kernel_start = now();
    e.run_host(task, body, launch_context{spec, 0, site}, result);
    kernel_end = now();
  }
  if (!timed) return true;
  const auto secs = [](clock::duration d) { return std::chrono::duration<double>(d).count(); };
  const double seconds = secs(clock::now() - start), kernel = secs(kernel_end - kernel_start);
  std::lock_guard lock(r.mutex);
  if (adapt) s->policy.record(where, size, motion, seconds, kernel);
  if (memo && !tune && memo->site == s && memo->epoch == r.epoch.load(std::memory_order_relaxed) &&
      memo->generation == state().present_generation.load(std::memory_order_acquire)) {
    // The calls up to the next sample, leased now rather than by the next call through here (one
    // lock and policy look-up less per sample); not when this run changed the present table,
    // which ends the memo, and so the lease, anyway.
    memo->lease_left = s->policy.lease(size, motion);
    memo->lease_where = s->policy.at(cls, residency_of(motion)).choice;
  }
  if (search && !search->done() && !rejected) {
    // The shape changes the kernel only: the data movement around it would be noise.
    search->record(shape, kernel);
    finishing = search->done();
  }
  if (finishing && !key.empty()) {
    r.cache[key] = tune_entry{search->best(), search->best_time()};
    selection_impl::save_cache(r);
  }
  return true;
}

}  // namespace dispatch_impl

ACC_DETAIL_RUNTIME_FN void run_construct(const construct_entry& e, const void* task, bool empty,
                                         std::uint64_t size, const launch_spec& spec, const void* body, void* copy, void* result,
                                         const call_site& site, nvtx_site* nvtx) {
  const nvtx_range range(nvtx, site);
  check_spec(spec, site);
  const dispatch_impl::placement p = dispatch_impl::place(spec, site);
  if (p.where == target::nvidia && e.nvidia.run) {
    if (p.select && !empty) [[unlikely]] {
      if (e.selectable && dispatch_impl::run_leased(e, task, spec, p.device, body, copy, result, site)) return;
      if (dispatch_impl::run_selected(e, task, size, spec, p.device, body, copy, result, site)) return;
    }
    std::atomic_ref<unsigned char> no_arrays(*e.captures_no_arrays);
    if (!e.captures || no_arrays.load(std::memory_order_relaxed)) {
      // Nothing to map: the body runs as written, with no copy (bench/launch).
      if (!empty) e.run_nvidia(task, body, launch_context{spec, p.device, site}, result);
      return;
    }
    // The construct's own copy of the body, with the arrays it captured on the device
    // (implicit data, default_present: detail/capture.hpp), copied out by finish().
    capture_scope scope;
    const dispatch_impl::body_copy mapped(e, scope, body, copy, site);
    if (scope.count == 0) no_arrays.store(1, std::memory_order_relaxed);
    implicit_data data(scope, mapped.get(), e.body_size, p.device, spec, !empty, site);
    if (!empty) e.run_nvidia(task, mapped.get(), launch_context{spec, p.device, site}, result);
    data.finish();
    return;
  }
  if (p.where == target::nvidia) {
    // Placed on a GPU but compiled without one (g++, a .cpp unit of a program whose GPU is
    // current): it runs on the host, and the arrays it captured that are present on the GPU are
    // copied here first and, unless const, back after, as acc::adaptive's host runs are, so it
    // reads and leaves the device copies that the rest of the program uses.
    if (e.captures && (!empty || spec.default_present)) {
      capture_scope scope;
      const dispatch_impl::body_copy mapped(e, scope, body, copy, site);
      dispatch_impl::captures_on_host coherent(scope, mapped.get(), e.body_size, p.device, spec, site);
      if (!empty) e.run_host(task, body, launch_context{spec, 0, site}, result);
      coherent.finish();
    } else if (!empty) {
      e.run_host(task, body, launch_context{spec, 0, site}, result);
    }
    return;
  }
  // default_present on the host: the same presence check as on a GPU (against the current
  // device's table), so programs fail the same way everywhere, and the same references while
  // the construct runs.
  if (spec.default_present && spec.if_ && e.captures) {
    capture_scope scope;
    const dispatch_impl::body_copy checked(e, scope, body, copy, site);
    implicit_data data(scope, checked.get(), e.body_size, current_device(), spec, false, site);
    if (!empty) e.run_host(task, body, launch_context{spec, 0, site}, result);
    data.finish();
    return;
  }
  if (!empty) e.run_host(task, body, launch_context{spec, 0, site}, result);
}

}  // namespace acc::detail

#endif  // ACC_DETAIL_DISPATCH_INL
