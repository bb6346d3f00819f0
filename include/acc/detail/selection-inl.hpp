//! @file The runtime's definitions of detail/selection.hpp: acc::adaptive's policy and the runtime's
//! record of adaptive and tuned constructs (acc::tuned's search and the tune cache file: tune-inl.hpp).
//! Compiled with detail/runtime-inl.hpp, which includes this file.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_SELECTION_INL)
#define ACC_DETAIL_SELECTION_INL

#include <acc/detail/selection.hpp>

#include <algorithm>
#include <climits>
#include <limits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#endif

namespace acc::detail {

// ---- time_model -------------------------------------------------------------------------------

ACC_DETAIL_RUNTIME_FN void time_model::set(std::size_t cls, double n, double seconds) noexcept {
  points_ += int(seconds > 0) - int(t_[cls] > 0);
  n_[cls] = n;
  t_[cls] = seconds;
}

ACC_DETAIL_RUNTIME_FN bool time_model::ready(std::size_t excluding) const noexcept {
  const bool excluded = excluding < size_classes && t_[excluding] > 0;
  return points_ - int(excluded) >= 2;
}

ACC_DETAIL_RUNTIME_FN double time_model::predict(double n, std::size_t excluding) const noexcept {
  if (!ready(excluding)) return 0;
  // The measured classes nearest to n's.
  const std::size_t cls = size_class(n < 0 ? 0 : std::uint64_t(n));
  const auto distance = [&](std::size_t c) { return c < cls ? cls - c : c - cls; };
  std::array<std::size_t, size_classes> order{};
  std::size_t k = 0;
  for (std::size_t c = 0; c < size_classes; ++c)
    if (c != excluding && t_[c] > 0) order[k++] = c;
  std::stable_sort(order.begin(), order.begin() + std::ptrdiff_t(k),
                   [&](std::size_t a, std::size_t b) { return distance(a) < distance(b); });
  if (k > neighbours) k = neighbours;
  double s = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const double x = n_[order[i]], y = t_[order[i]], w = 1 / (y * y);
    s += w, sx += w * x, sy += w * y, sxx += w * x * x, sxy += w * x * y;
  }
  double b = (s * sxy - sx * sy) / (s * sxx - sx * sx), a = (sy - b * sx) / s;
  // Time neither falls with size nor starts below zero: clamp to the nearest such line.
  if (!(b >= 0) || !std::isfinite(b)) b = 0, a = sy / s;
  else if (a < 0) a = 0, b = sxy / sxx;
  const double t = a + b * n;
  return t > 0 ? t : t_[order[0]];
}

ACC_DETAIL_RUNTIME_FN double time_model::reach(double n) const noexcept {
  double r = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < size_classes; ++c)
    if (t_[c] > 0 && n_[c] > 0 && n > 0) r = std::min(r, std::max(n / n_[c], n_[c] / n));
  return r;
}

// ---- adaptive_policy ----------------------------------------------------------------------------

namespace selection_impl {
/// The median of v[0..k) (the upper one of an even count); k > 0.
inline double median_of(const double* v, int k) {
  double w[16] = {};
  k = k < 16 ? k : 16;
  std::copy(v, v + k, w);
  std::nth_element(w, w + k / 2, w + k);
  return w[k / 2];
}
/// The second fastest of k runs (the fastest if k < 3): what a window of runs says of a side.
/// A run is slowed, never sped up, by what else the machine does (an OpenMP thread kept off
/// its core for a scheduler period costs the whole region milliseconds), and such spells come
/// several runs in a row, enough to hold a window's median; one run faster than the rest (a
/// coarse clock) must not decide either.
inline double low_of(const double* v, int k) {
  double w[16] = {};
  k = k < 16 ? k : 16;
  std::copy(v, v + k, w);
  const int at = k < 3 ? 0 : 1;
  std::nth_element(w, w + at, w + k);
  return w[at];
}
}  // namespace selection_impl

ACC_DETAIL_RUNTIME_FN double adaptive_policy::predict(target where, std::uint64_t n, const data_motion& m) const noexcept {
  const std::size_t s = side(where), cls = size_class(n);
  // The model through the nearest measured classes (this one's included) follows n inside a
  // class too; with one class measured, that class's time.
  const double kernel = kernel_models_[s].ready() ? kernel_models_[s].predict(double(n)) : kernel_at_[s][cls];
  if (kernel <= 0) return 0;
  if (m.bytes[s] <= 0) return kernel;
  const double moved = motion_models_[s].predict(m.bytes[s]);
  return moved > 0 ? kernel + moved : 0;
}

ACC_DETAIL_RUNTIME_FN target adaptive_policy::choose(std::uint64_t n, const data_motion& m) {
  const std::size_t cls = size_class(n);
  adaptive_class& c = classes_[std::size_t(residency_of(m))][cls];
  if (c.settled) {
    ++c.calls;
    if (c.probing) return c.choice == target::nvidia ? target::host : target::nvidia;
    return c.choice;
  }
  if (c.n == 0 && c.runs[0] + c.runs[1] == 0) {
    c.n = n ? n : 1;
    c.motion = m;
    for (std::size_t s = 0; s < 2; ++s) c.predicted[s] = predict(s ? target::nvidia : target::host, c.n, m);
    const double lower = std::min(c.predicted[0], c.predicted[1]), higher = std::max(c.predicted[0], c.predicted[1]);
    bool near = true;
    for (std::size_t s = 0; s < 2; ++s)
      near = near && kernel_models_[s].reach(double(c.n)) <= o_.reach &&
             (m.bytes[s] <= 0 || motion_models_[s].reach(m.bytes[s]) <= o_.reach);
    if (near && lower > 0 && higher >= o_.trust_model * lower) {
      c.choice = c.predicted[1] < c.predicted[0] ? target::nvidia : target::host;
      c.settled = c.by_model = true;
      return c.choice;
    }
  }
  if (c.tie) {
    // Turns in blocks: the side of the latest run goes on until its block is full, or it has
    // all its runs.
    const int tie_trials = std::clamp(o_.tie_trials, std::clamp(o_.trials, 1, 8), 8);
    std::size_t s = c.last_side < 0 ? 0 : std::size_t(c.streak < std::max(2, o_.tie_block) ? c.last_side : 1 - c.last_side);
    if (c.runs[s] >= tie_trials) s = 1 - s;
    return s ? target::nvidia : target::host;
  }
  return c.runs[0] < o_.trials ? target::host : target::nvidia;
}

ACC_DETAIL_RUNTIME_FN bool adaptive_policy::warming(std::uint64_t n, const data_motion& m) const noexcept {
  const adaptive_class& c = classes_[std::size_t(residency_of(m))][size_class(n)];
  return !c.settled || c.probing || c.runs[side(c.choice)] < o_.trials;
}

ACC_DETAIL_RUNTIME_FN bool adaptive_policy::timed(std::uint64_t n, const data_motion& m) const noexcept {
  const adaptive_class& c = classes_[std::size_t(residency_of(m))][size_class(n)];
  if (!c.settled || c.probing || c.runs[side(c.choice)] < o_.trials) return true;
  if (c.switches >= o_.max_switches) return false;  // nothing left to decide
  // A short run is sampled: the clock, the lock and the bookkeeping would cost it more than
  // the hysteresis needs to know.
  return c.best[side(c.choice)] >= o_.time_every_run || c.calls % std::uint64_t(std::max(1, o_.sample)) == 0;
}

ACC_DETAIL_RUNTIME_FN int adaptive_policy::lease(std::uint64_t n, const data_motion& m, int most) noexcept {
  adaptive_class& c = classes_[std::size_t(residency_of(m))][size_class(n)];
  if (!c.settled || c.probing || c.runs[side(c.choice)] < o_.trials || most <= 0) return 0;
  int k = most;
  if (c.switches < o_.max_switches) {
    if (c.best[side(c.choice)] >= o_.time_every_run) return 0;
    const std::uint64_t every = std::uint64_t(std::max(1, o_.sample));
    k = std::min<int>(most, int(every - 1 - c.calls % every));
  }
  c.calls += std::uint64_t(k);
  return k;
}

ACC_DETAIL_RUNTIME_FN double adaptive_policy::other_estimate(const adaptive_class& c, std::size_t other) const noexcept {
  if (c.runs[other] >= o_.trials) return c.best[other];
  return predict(other ? target::nvidia : target::host, c.n, c.motion);
}

ACC_DETAIL_RUNTIME_FN void adaptive_policy::record(target where, std::uint64_t n, const data_motion& m, double seconds,
                                                  double kernel) {
  using selection_impl::median_of;
  const std::size_t cls = size_class(n), s = side(where);
  const int trials = std::clamp(o_.trials, 1, 8), window = std::clamp(o_.window, 1, 16);
  adaptive_class& c = classes_[std::size_t(residency_of(m))][cls];
  const int tie_trials = std::clamp(o_.tie_trials, trials, 8);
  const int warm = c.tie && !c.settled ? tie_trials : trials;
  if (c.n == 0) c.n = n ? n : 1, c.motion = m;
  if (seconds <= 0) seconds = 1e-9;  // a clock tick too coarse to see the run
  kernel = std::clamp(kernel, 0.0, seconds);
  const bool changed_side = int(s) != c.last_side;
  c.streak = changed_side ? 1 : c.streak + 1;
  c.last_side = int(s);
  if (c.tie && !c.settled && changed_side) return;  // a block's first run: not counted (above)
  if (c.runs[s] < warm) {
    // Warm-up: the median of these runs is this side's time here, split into kernel and
    // movement, and each part feeds its model.
    const auto run = std::size_t(c.runs[s]);  // below warm, at most 8
    c.warm_total[s][run] = seconds;
    c.warm_kernel[s][run] = kernel;
    const int k = ++c.runs[s];
    c.best[s] = median_of(c.warm_total[s].data(), k);
    c.kernel[s] = median_of(c.warm_kernel[s].data(), k);
    c.moved[s] = std::max(0.0, c.best[s] - c.kernel[s]);
    if (c.predicted[s] > 0) c.error[s] = std::abs(c.predicted[s] - c.best[s]) / c.best[s];
    kernel_at_[s][cls] = c.kernel[s] > 0 ? c.kernel[s] : 1e-9;
    kernel_models_[s].set(cls, double(c.n), kernel_at_[s][cls]);
    if (c.motion.bytes[s] > 0 && c.moved[s] > 0)
      motion_models_[s].set(size_class(std::uint64_t(c.motion.bytes[s])), c.motion.bytes[s], c.moved[s]);
  } else {
    ++c.runs[s];
  }
  if (!c.settled) {
    if (c.runs[0] >= warm && c.runs[1] >= warm) {
      const double faster = std::min(c.best[0], c.best[1]), slower = std::max(c.best[0], c.best[1]);
      // A side whose warm-up took trust_model times what the other classes predict ran in a
      // slow spell (threads starved by another program's, or by the other side's leftovers)
      // more likely than the models went that wrong: its time would decide for good, since
      // the hysteresis compares with it and never runs it again.
      // So is one whose runs after the first (which pays allocation and thread start-up) differ
      // by as much: the slow spell may have held the median, and without other classes there
      // is no prediction to tell.
      bool suspect = false;
      for (std::size_t k = 0; k < 2; ++k) {
        suspect = suspect || (c.predicted[k] > 0 && c.best[k] > o_.trust_model * c.predicted[k]);
        const auto later = c.warm_total[k].begin() + 1, end = c.warm_total[k].begin() + trials;
        if (trials >= 3)
          suspect = suspect || *std::max_element(later, end) > o_.trust_model * *std::min_element(later, end);
      }
      if (!c.retimed && (faster > slower * (1 - o_.close_call) || suspect)) {
        // Too close to call from runs that came first at this size (a cold cache, a new
        // allocation, the other side's leftovers), or one side suspect: both sides run
        // again, and those decide.
        c.retimed = true;
        c.runs = {};
        return;
      }
      if (c.retimed && !c.tie && tie_trials > trials && faster > slower * (1 - o_.margin)) {
        c.tie = true;  // the runs so far count; both sides run on (choose: in turns)
        return;
      }
      c.choice = c.best[1] < c.best[0] ? target::nvidia : target::host;
      c.settled = true;
      c.window_runs = 0;
    }
    return;
  }
  // A switch to `to`: the new side's windows start afresh, and so does the way back (below).
  const auto switch_to = [&](target to) {
    c.choice = to;
    ++c.switches;
    c.window_runs = 0;
    c.undo_calls = c.calls;
  };
  if (c.probing) {
    // The probe of the other side: its warm-up's median against the window that called for it.
    if (where == c.choice || c.runs[s] < trials) return;
    c.probing = false;
    c.favour_other = 0;
    if (c.best[s] < c.probed_against * (1 - o_.margin)) {
      if (o_.confirm > 1) {
        c.confirming = true;  // decided by the chosen side's next window (below)
      } else {
        switch_to(where);
      }
    }
    return;
  }
  if (where != c.choice || c.switches >= o_.max_switches) return;
  // Hysteresis: each full window of the chosen side's runs, by its second fastest run (slow
  // runs, preempted or paying a thread wake-up, move it only when they fill the window),
  // against the other side, which must be faster by the margin in `confirm` windows in a row.
  c.window[std::size_t(c.window_runs++ % window)] = seconds;
  if (c.window_runs % window != 0) return;
  const double current = selection_impl::low_of(c.window.data(), window);
  if (c.lowest[s] <= 0 || current < c.lowest[s]) c.lowest[s] = current;
  if (c.confirming) {
    // The probe beat the window before it; the switch waits for it to beat the window after it
    // too. A slow spell of the chosen side that held the window before the probe and ended
    // during it would otherwise send the class to the slower side.
    c.confirming = false;
    if (c.best[1 - s] < current * (1 - o_.margin)) {
      switch_to(s ? target::host : target::nvidia);
    }
    return;
  }
  const double other = other_estimate(c, 1 - s);
  // What timing the other side again would cost: its time, or its prediction where the time
  // is trust_model times that (a warm-up in a slow spell; the probe will tell).
  const double predicted_other = predict(s ? target::host : target::nvidia, c.n, c.motion);
  const double probe_cost =
      predicted_other > 0 && other > o_.trust_model * predicted_other ? predicted_other : other;
  // A window trust_model times this side's own time (its lowest window, or its warm-up, which
  // may itself have fallen in a spell) is a slow spell, or a lasting slowdown that the windows
  // below see through: a recheck now would set the other side's time against the spell's, and
  // a spell of a few runs would spend a switch.
  const double own = c.best[s] > 0 ? std::min(c.best[s], c.lowest[s]) : c.lowest[s];
  const bool spell = current > o_.trust_model * own;
  const double recheck = other < current / (1 - o_.close_call) ? o_.recheck_close : o_.recheck;
  // A probe of the other side against this window: its runs are that side's warm-up again, and
  // decide as a switch's would (the probing branch above).
  const auto probe_other = [&] {
    c.probing = true;
    c.probed_against = current;
    c.favour_other = 0;
    c.runs[1 - s] = 0;
  };
  // The way back after a switch: where the side left ran faster by the margin while it was
  // chosen (its lowest window), it is timed again once this side has spent `recheck` times what
  // that costs since the switch, then twice that since, and so on (so a side that stays slower
  // costs a vanishing share of the runs). Its probe decides as a switch's would. The switch may
  // have followed a slow spell of the side left that outlasted the windows, the probe and the
  // confirmation; such a spell may outlast a probe or two more, but not a doubling series.
  if (c.switches > 0 && !spell && other > 0 && c.lowest[1 - s] > 0 && c.lowest[1 - s] < current * (1 - o_.margin) &&
      double(c.calls - c.undo_calls) * current >=
          recheck * std::ldexp(1.0, std::min(c.undo_probes, 30)) * trials * probe_cost) {
    ++c.undo_probes;
    c.undo_calls = c.calls;
    probe_other();
    return;
  }
  if (!c.rechecked && !spell && other > 0 && double(c.calls) * current >= recheck * trials * probe_cost) {
    // Long enough on this side that timing the other once more costs little: the probe below,
    // whose result decides as a switch's would.
    c.rechecked = true;
    probe_other();
    return;
  }
  if (!(other > 0 && other < current * (1 - o_.margin))) {
    c.favour_other = 0;
    return;
  }
  if (++c.favour_other < std::max(1, o_.confirm)) return;
  // The other side is timed now before the switch, also when its warm-up was timed: only
  // predicted, a wrong prediction must not spend a switch; timed in the warm-up, its
  // time is from other conditions than the windows' (a slow spell that slows both sides, such
  // as threads starved by another program, would otherwise send the class to a side no faster).
  probe_other();
}

}  // namespace acc::detail

// ---- the runtime's record -----------------------------------------------------------------------

namespace acc::detail {

namespace selection_impl {

/// "nvidia0:81559MiB": a GPU by number and memory size, so that a cache written on another
/// kind of GPU is not applied (its entries are keyed by a name no device here has).
inline const std::string& device_name(selection_registry& r, int device) {
  auto it = r.device_names.find(device);
  if (it != r.device_names.end()) return it->second;
  std::size_t free = 0, total = 0;
  cuda_ops().mem_info(device, &free, &total);
  return r.device_names[device] = "nvidia" + std::to_string(device) + ":" + std::to_string(total >> 20) + "MiB";
}

/// Reads ACC_TUNE_CACHE once. No file yet is the first run; a file that does not parse is
/// ignored with a warning (and overwritten by the next finished search).
inline void load_cache(selection_registry& r) {
  if (r.cache_loaded) return;
  r.cache_loaded = true;
  const char* path = std::getenv("ACC_TUNE_CACHE");
  if (!path || !*path) return;
  r.cache_path = path;
  std::FILE* f = std::fopen(path, "rb");
  if (!f) return;
  std::string text;
  char buf[4096];
  for (std::size_t k; (k = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, k);
  const bool unreadable = std::ferror(f);  // a directory opens, and fails to read (EISDIR)
  std::fclose(f);
  std::string why;
  if (unreadable)
    std::fprintf(stderr, "acc: ACC_TUNE_CACHE=%s: cannot read it (a directory?); tuning afresh\n", path);
  else if (!parse_tune_cache(text, r.cache, why))
    std::fprintf(stderr, "acc: ACC_TUNE_CACHE=%s: %s; ignoring it and tuning afresh\n", path, why.c_str());
}

/// Writes the cache whole, through a temporary file renamed over it, so that a crash leaves
/// the old file or the new one. The temporary name is the process's own, so that programs
/// sharing one cache never rename each other's half-written file (the last rename wins). A
/// failure is reported once and otherwise ignored, and leaves no temporary file behind.
inline void save_cache(selection_registry& r) {
  if (r.cache_path.empty()) return;
#if defined(__unix__) || defined(__APPLE__)
  const std::string tmp = r.cache_path + ".tmp." + std::to_string(::getpid());
#else
  const std::string tmp = r.cache_path + ".tmp";
#endif
  const std::string text = format_tune_cache(r.cache);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f) ok = std::fclose(f) == 0 && ok;
  ok = ok && std::rename(tmp.c_str(), r.cache_path.c_str()) == 0;
  if (!ok && f) std::remove(tmp.c_str());
  if (!ok && !r.save_failed) {
    r.save_failed = true;
    std::fprintf(stderr, "acc: ACC_TUNE_CACHE=%s: cannot write it; tuned shapes are kept for this run only\n",
                 r.cache_path.c_str());
  }
}

inline std::string microseconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  return buf;
}

}  // namespace selection_impl

ACC_DETAIL_RUNTIME_FN std::string selection_report() {
  using selection_impl::microseconds;
  selection_registry& r = selection_state();
  std::lock_guard lock(r.mutex);
  std::string out;
  for (const auto& [key, s] : r.sites) {
    out += s.name + " on " + key.substr(0, key.find('\t')) + "\n";
    for (std::size_t cls = 0; cls < size_classes; ++cls) {
      for (std::size_t res = 0; res < residencies; ++res) {
        const adaptive_class& c = s.policy.at(cls, residency(res));
        if (c.runs[0] + c.runs[1] == 0 && !c.settled) continue;
        const char* data_name[residencies] = {"data on the host", "data on the GPU", "data on both"};
        out += "  adaptive 2^" + std::to_string(cls) + ", " + data_name[res] + ": " +
               (c.choice == target::nvidia ? "gpu" : c.choice == target::host ? "host" : "undecided") +
               (c.by_model ? " (predicted)" : "") +
               (c.tie       ? " (near tie: both timed twice, then on in blocks of turns)"
                : c.retimed ? " (close call: both timed twice)"
                            : "") +
               (c.rechecked ? " (the other side timed again)" : "");
        const char* side_name[2] = {"host", "gpu"};
        for (std::size_t k = 0; k < 2; ++k) {
          out += std::string(", ") + side_name[k] + " ";
          if (c.runs[k])
            out += microseconds(c.best[k]) + " [kernel " + microseconds(c.kernel[k]) + " + data " +
                   microseconds(c.moved[k]) + "]";
          else
            out += "unmeasured";
          if (c.predicted[k] > 0) out += " (predicted " + microseconds(c.predicted[k]);
          if (c.predicted[k] > 0 && c.error[k] >= 0) out += ", error " + std::to_string(int(c.error[k] * 100 + 0.5)) + "%";
          if (c.predicted[k] > 0) out += ")";
        }
        out += ", switches " + std::to_string(c.switches) + "\n";
      }
      if (const tune_search* t = s.tuning[cls].get()) {
        const launch_choice b = t->best();
        out += "  tuned 2^" + std::to_string(cls) + ": vector_length " +
               (b.vector_length ? std::to_string(b.vector_length) : std::string("default")) + ", " +
               (b.gang_factor ? std::to_string(b.gang_factor) + " iterations per thread" : std::string("default gangs"));
        if (t->from_cache()) out += ", from the tune cache (" + microseconds(t->best_time()) + ")\n";
        else if (!t->done()) out += ", searching (" + std::to_string(t->trials()) + " trials so far)\n";
        else
          out += ": " + microseconds(t->best_time()) + ", default " + microseconds(t->default_time()) + " (" +
                 std::to_string(t->default_time() / (t->best_time() > 0 ? t->best_time() : 1)).substr(0, 4) +
                 "x); search: " + std::to_string(t->shapes()) + " shapes, " + std::to_string(t->trials()) + " trials, " +
                 microseconds(t->cost()) + "\n";
      }
    }
  }
  return out;
}

ACC_DETAIL_RUNTIME_FN bool adaptive_state(const std::string& name_suffix, std::uint64_t n, residency r,
                                          adaptive_class& out) {
  selection_registry& reg = selection_state();
  std::lock_guard lock(reg.mutex);
  for (const auto& [key, s] : reg.sites)
    if (s.name.size() >= name_suffix.size() &&
        s.name.compare(s.name.size() - name_suffix.size(), name_suffix.size(), name_suffix) == 0) {
      out = s.policy.at(size_class(n), r);
      return true;
    }
  return false;
}

ACC_DETAIL_RUNTIME_FN void reset_selection() {
  selection_registry& r = selection_state();
  std::lock_guard lock(r.mutex);
  r.epoch.fetch_add(1, std::memory_order_release);
  r.by_id.clear();
  r.sites.clear();
}

ACC_DETAIL_RUNTIME_FN bool adaptive_everywhere() noexcept {
  return this_thread().type == target::unset && selection_registry_env_auto();
}

}  // namespace acc::detail

#endif  // ACC_DETAIL_SELECTION_INL
