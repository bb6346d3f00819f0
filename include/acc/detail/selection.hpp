//! @file acc::adaptive and acc::tuned as plain logic fed with timings: the choice of host or
//! GPU per call site and size class (Sato et al. 2012, SPRAT: measured and predicted times,
//! hysteresis), the search of a launch shape, and the tune cache file. The runtime feeds them
//! the clock (detail/dispatch-inl.hpp); tests feed them injected timings. Included by the
//! runtime and by tests and benchmarks only, never by a public header.
#pragma once

#include <acc/detail/header_open.hpp>

#include <acc/detail/clauses.hpp>
#include <acc/detail/config.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/error.hpp>

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace acc::detail {

/// Sizes are measured in classes: the size rounded down to a power of two (0 and 1: class 0).
/// A class indexes the per-class arrays below.
inline constexpr std::size_t size_classes = 64;
constexpr std::size_t size_class(std::uint64_t n) noexcept {
  // The highest bit set: bit_width(n) - 1, but countl_zero is an int on every standard library
  // (bit_width is one only before LWG 3656), so the cast converts on all of them.
  return n < 2 ? 0 : 63 - static_cast<std::size_t>(std::countl_zero(n));
}

/// Time against size, t = a + b n, one point per size class; a prediction fits the points of
/// the nearest measured classes by least squares weighted by 1/t^2 (relative errors), so that a
/// cache-sized class far away does not bend the line near the one asked about.
class time_model {
public:
  static constexpr int neighbours = 4;
  ACC_DETAIL_RUNTIME_FN void set(std::size_t cls, double n, double seconds) noexcept;
  /// Whether there are points in two classes other than `excluding` (size_classes: none).
  ACC_DETAIL_RUNTIME_FN bool ready(std::size_t excluding = size_classes) const noexcept;
  /// Predicted seconds at size n from the classes other than `excluding`; 0 when not ready.
  ACC_DETAIL_RUNTIME_FN double predict(double n, std::size_t excluding = size_classes) const noexcept;
  /// How far n is from the nearest measured point: the larger of n / x and x / n (infinity
  /// when nothing is measured).
  ACC_DETAIL_RUNTIME_FN double reach(double n) const noexcept;

private:
  std::array<double, size_classes> n_{}, t_{};  // t_ 0: no point in that class
  int points_ = 0;  // classes with a point: ready() without a pass over all of them
};

/// What a run would move between host and GPU memory, by side, from where the construct's
/// captured arrays are now: [0] the host run copies the arrays present on the GPU to the host and
/// back (update_self, update_device), [1] the GPU run copies the absent ones in and out.
struct data_motion {
  std::array<double, 2> bytes{};
};

/// Where a construct's data is: a size class is kept apart per residency, since the same loop
/// costs a transfer on one side when its data is on the host and on the other when it is on the
/// GPU.
enum class residency : int { host = 0, device = 1, mixed = 2 };
inline constexpr std::size_t residencies = 3;
constexpr residency residency_of(const data_motion& m) noexcept {
  return m.bytes[0] > 0 && m.bytes[1] > 0 ? residency::mixed : m.bytes[0] > 0 ? residency::device : residency::host;
}

/// SPRAT's knobs: ΔT as a fraction of the current side's time; timed runs per side in a
/// class's warm-up (their median counts: the first run pays allocation and first touch, and a
/// single preempted run must not decide); runs of the chosen side whose second fastest is compared
/// with the other side before a switch; switches allowed per class after it settled (two: a
/// switch, and its undoing where the side it left proves the faster after all: a slow spell of
/// the chosen side that outlasts the windows, the probe and the confirmation below would
/// otherwise hold the class on the slower side for good (bench/results/h100-adaptive.txt); the
/// way back passes the same probe and confirmation, so a class changes side at most twice); windows
/// in a row that must all favour the other side before it switches (a slow spell that fills
/// one window, such as the GPU's start-up or threads woken from sleep, must not decide for
/// good; and with `confirm` above 1 the other side, timed again before any switch, must beat the
/// chosen side's window after that probe as well, for a spell may end while the probe runs);
/// after the warm-up, one run in `sample` is timed for the windows, every run when the
/// chosen side takes at least `time_every_run` seconds (the clock then costs nothing); warm-up
/// medians within `close_call` of each other, or one of them `trust_model` times its
/// prediction or made of runs (after the first) that differ by that factor, are timed once
/// more before they decide; a new
/// class is decided at first sight only when one side's prediction is at least `trust_model`
/// times the other's (the models extrapolate the data movement of small transfers, which pay
/// latencies and staging that large ones do not, and their errors near the crossover reach
/// 2-3x) and every model it uses has a measured point within `reach` times its size (a
/// transfer's time per byte at a few KiB, latency-bound, is ten times what it is at a GiB:
/// extrapolated over many classes, the GPU looks ten times slower than it is), else both
/// sides are timed. Once a settled class has spent `recheck` times what timing the losing side
/// again costs (its time, measured else predicted, times `trials`), the losing side is timed
/// once more, as before a switch (at the end of a window that is not a slow spell, under
/// trust_model times the chosen side's own time): a warm-up that fell in a slow spell (the process's first
/// OpenMP runs) or a prediction too high would otherwise hold the class on the slower side for
/// good, since the hysteresis compares with that time. Where the losing side's time is within
/// `close_call` of the chosen side's window, `recheck_close` replaces `recheck`: a close call is
/// the one a slow spell in the warm-up most likely decided wrongly, and timing a side about as
/// fast as the chosen one costs little more than the runs it replaces. Medians still within
/// `margin` of each other after that second timing are a near tie, which three runs a side
/// decide by chance and the hysteresis then never undoes (a switch needs the margin): both
/// sides run on, taking turns in blocks of `tie_block` runs, until each has `tie_trials` runs,
/// whose medians decide; the first run of each block is not counted, for it pays the change
/// of side (OpenMP threads woken after the GPU's run, caches holding what the other side
/// touched) that the settled class, running one side, never pays, and that a few percent of a
/// near tie would hand to the other side; the extra runs cost little, either side being about
/// as fast. Trials count up to 8 and the window up to 16.
struct adaptive_options {
  double margin = 0.10;
  int trials = 3;
  int window = 5;
  int max_switches = 2;
  int confirm = 2;
  int sample = 8;
  double time_every_run = 50e-6;
  double close_call = 0.25;
  double trust_model = 3.0;
  double reach = 4.0;
  double recheck = 10.0;
  double recheck_close = 2.0;
  int tie_trials = 8;
  int tie_block = 3;  // at least 2 (one run counted a block)
};

/// Per size class and residency of one call site on one GPU. Times are whole runs (data
/// movement and kernel) unless named kernel or moved.
struct adaptive_class {
  std::uint64_t n = 0;                  // the first size seen: the class's point in the models
  data_motion motion;                   // the bytes each side moves (as first seen)
  std::array<int, 2> runs{};            // timed runs, [0] host, [1] GPU
  std::array<double, 2> best{};         // median of the warm-up runs (0: none)
  std::array<double, 2> kernel{};       // their kernel part (median)
  std::array<double, 2> moved{};        // their data movement part (median)
  std::array<double, 2> predicted{};    // the models' time at first sight (0: no prediction)
  std::array<double, 2> error{-1, -1};  // |predicted - best| / best (-1: nothing to compare)
  std::array<std::array<double, 8>, 2> warm_total{}, warm_kernel{};  // the warm-up runs
  std::array<double, 16> window{};      // the chosen side's latest runs since it was chosen
  std::array<double, 2> lowest{};       // each side's lowest window while chosen (0: none yet)
  int window_runs = 0;
  int last_side = -1;     // the side of the latest run recorded (-1: none), and how many in a row
  int streak = 0;
  int favour_other = 0;   // full windows in a row whose second fastest run the other side beat by the margin
  std::uint64_t calls = 0;  // runs chosen since the class settled (sampling counts them)
  target choice = target::unset;
  int switches = 0;
  bool settled = false;   // warm-up over: runs go to `choice`
  bool by_model = false;  // settled at first sight from the models' predictions
  bool retimed = false;   // the warm-up's medians were too close to call and both sides ran again
  bool tie = false;       // still within the margin after that: both sides run to tie_trials, in blocks
  bool probing = false;   // the other side, known only by prediction, runs its warm-up before a switch
  bool rechecked = false; // the losing side was timed once more after the class had run long enough
  int undo_probes = 0;    // the side left by a switch, timed again since (record: the way back)
  std::uint64_t undo_calls = 0;  // `calls` at the switch or at the latest of those probes
  double probed_against = 0;  // the chosen side's window (second fastest run) that the probe must beat
  bool confirming = false;    // the probe beat it: the chosen side's next window must lose to it too
};

/// Host or GPU for one call site on one GPU. Each side has two models: its kernel time against
/// the iteration count (per size class, whatever the residency) and its data movement time
/// against the bytes moved. A run is predicted as kernel + movement of the bytes that side
/// would move now. A new size class and residency is decided at first sight when both sides
/// can be predicted and one prediction is `trust_model` times the other, else timed on both (`trials` runs each, their median counts; medians
/// within `close_call` of each other are a close call, and both sides run `trials` times again,
/// past whatever made the first runs at this size slow); from then on it runs on the faster, and switches
/// (at most `max_switches` times: once, and once back) when the other side's time (measured, else
/// predicted) beats the second fastest run of the chosen side's last `window` timed runs by `margin`
/// in `confirm` windows in a row; the other side is then timed again (`trials` runs, a probe: its
/// warm-up was in other conditions, or it was only predicted), and the switch is made only if
/// that time beats the chosen side's by the margin too.
class adaptive_policy {
public:
  explicit adaptive_policy(adaptive_options o = {}) noexcept : o_(o) {}
  /// Where the next run of size n goes, its data being where `m` says.
  ACC_DETAIL_RUNTIME_FN target choose(std::uint64_t n, const data_motion& m = {});
  /// Whether runs of size n are still being compared (an async construct then waits to be timed).
  ACC_DETAIL_RUNTIME_FN bool warming(std::uint64_t n, const data_motion& m = {}) const noexcept;
  /// Whether the run choose() just placed is to be timed: every run of the warm-up; after it,
  /// a sample for the hysteresis while a switch is still allowed; none once it is not.
  ACC_DETAIL_RUNTIME_FN bool timed(std::uint64_t n, const data_motion& m = {}) const noexcept;
  /// After an untimed run that choose() placed: how many of the class's next runs would go to
  /// the same side untimed (the calls before the next sample; `most` once nothing is sampled
  /// any more). They are counted as chosen now, so that a caller may run them without asking.
  ACC_DETAIL_RUNTIME_FN int lease(std::uint64_t n, const data_motion& m = {}, int most = 64) noexcept;
  /// A timed run of size n on `where`: `seconds` in all, `kernel` of them in the construct
  /// itself, the rest moving data (`m`: the bytes, as choose() was told).
  ACC_DETAIL_RUNTIME_FN void record(target where, std::uint64_t n, const data_motion& m, double seconds, double kernel);
  /// A timed run whose kernel time is not known apart: all of it counts as kernel.
  void record(target where, std::uint64_t n, double seconds) { record(where, n, data_motion{}, seconds, seconds); }
  /// The predicted time of a run of size n on side `where` with data as `m` says (0: unknown).
  ACC_DETAIL_RUNTIME_FN double predict(target where, std::uint64_t n, const data_motion& m) const noexcept;
  const adaptive_class& at(std::size_t cls, residency r = residency::host) const noexcept {
    return classes_[std::size_t(r)][cls];
  }

private:
  /// A side indexes the arrays of two (adaptive_class): 0 the host, 1 the GPU.
  static std::size_t side(target t) noexcept { return t == target::nvidia ? 1 : 0; }
  double other_estimate(const adaptive_class& c, std::size_t other) const noexcept;

  adaptive_options o_;
  std::array<std::array<adaptive_class, size_classes>, residencies> classes_{};
  std::array<time_model, 2> kernel_models_{}, motion_models_{};
  std::array<std::array<double, size_classes>, 2> kernel_at_{};  // measured kernel per class (0: none)
};

/// A launch shape relative to the size: vector_length (0: the default) and iterations per
/// thread, from which gangs follow (0: as many gangs as the default plan gives).
struct launch_choice {
  int vector_length = 0;
  int gang_factor = 0;
  friend bool operator==(const launch_choice&, const launch_choice&) = default;
};

/// The search of one size class, one coordinate at a time: the default shape; each vector
/// length; with the fastest of those, growing iterations per thread (gangs = n / (vector_length
/// x factor)) until one is 10% slower than the best so far; with the fastest factor, the other
/// vector lengths again (a shape's best vector length depends on its gangs: a CG row product is
/// fastest at 128 lanes and 64 rows per thread, though at one row per thread 1024 lanes beat
/// 128), each also with the fastest shape's gang count (bench_tuned's hotspot step: the search
/// kept 64 lanes of 64 cells each, 256 gangs, 3.7% slower than the sweep's best, 1024 lanes of 4
/// cells: the same 256 gangs, which keeping the factor never tries); with the fastest of the
/// other vector lengths at the kept factor, when it is within 10% of the best
/// shape, the factors again (its best factor is its own: a 1024 x 1024 matrix product is
/// fastest at 128 lanes and 4 columns per thread, though at 2 columns per thread 1024 lanes
/// beat 128). Every shape runs `reps` times and the median counts, so
/// that one slow run (a clock or a cold cache) neither wins nor loses a shape. The result is
/// never slower than the default.
class tune_search {
public:
  static constexpr int reps = 3;
  static constexpr std::array<int, 6> vector_lengths{32, 64, 128, 256, 512, 1024};
  static constexpr std::array<int, 6> gang_factors{2, 4, 8, 16, 32, 64};
  /// At most this many shapes are run: the default, every vector length, then all but one of
  /// them again twice (the factor kept, the gangs kept); every factor, then all but one of them
  /// again.
  static constexpr int max_shapes = 1 + 3 * int(vector_lengths.size()) - 2 + 2 * int(gang_factors.size()) - 1;

  /// `vector_open` / `gangs_open`: the clauses leave vector_length / num_gangs to acc.
  ACC_DETAIL_RUNTIME_FN tune_search(bool vector_open, bool gangs_open);
  /// A finished search from the tune cache.
  ACC_DETAIL_RUNTIME_FN static tune_search restored(launch_choice best, double seconds);

  bool done() const noexcept { return done_; }
  /// The shape to run now: the one being tried, or the best once done.
  launch_choice next() const noexcept { return done_ ? best_ : queue_[at_]; }
  /// A timed run with shape c (the one next() gave).
  ACC_DETAIL_RUNTIME_FN void record(launch_choice c, double seconds);
  /// Shape c (the one next() gave) cannot run: its vector length is more threads a gang than
  /// the kernel can have (its registers or team memory cap them below 1024). The search moves
  /// on as if c had been slowest.
  ACC_DETAIL_RUNTIME_FN void reject(launch_choice c);

  launch_choice best() const noexcept { return best_; }
  double best_time() const noexcept { return best_time_; }
  double default_time() const noexcept { return default_time_; }
  int trials() const noexcept { return trials_; }
  int shapes() const noexcept { return shapes_; }
  double cost() const noexcept { return cost_; }  // seconds spent in timed runs of the search
  bool from_cache() const noexcept { return from_cache_; }

private:
  tune_search() = default;
  void advance(double t);

  bool vector_open_ = false, gangs_open_ = false;
  // 0 default, 1 vector lengths, 2 gang factors, 3 vector lengths at that factor and at
  // those gangs, 4 gang factors at the vector length phase 3 found fastest
  int phase_ = 0;
  launch_choice runner_{};  // phase 3's fastest shape with phase 2's factor
  int kept_factor_ = 0;     // phase 2's factor, which phase 3 keeps
  double runner_time_ = 0;
  int base_factor_ = 0;     // the factor the current factor phase started from
  std::vector<launch_choice> queue_;
  std::size_t at_ = 0;
  std::array<double, reps> runs_{};  // times of queue_[at_] so far
  std::size_t run_count_ = 0;
  launch_choice best_{};
  double best_time_ = 0, default_time_ = 0, cost_ = 0;
  int trials_ = 0, shapes_ = 0;
  bool done_ = false, from_cache_ = false;
};

/// The launch clauses of a run with shape c, for `size` iterations.
ACC_DETAIL_RUNTIME_FN launch_spec apply_choice(const launch_spec& s, launch_choice c, std::uint64_t size) noexcept;

// ---- the tune cache file (ACC_TUNE_CACHE) ------------------------------------------------------

/// One tuned shape, keyed by "device \t construct \t file \t line \t column \t body \t class".
struct tune_entry {
  launch_choice choice;
  double seconds = 0;
};
using tune_table = std::map<std::string, tune_entry>;

inline constexpr const char* tune_cache_header = "acc-tune-cache 2";

/// A body type's name as a short key field (16 hex digits of its FNV-1a hash).
ACC_DETAIL_RUNTIME_FN std::string body_key(const char* type_name);

/// The key of a call site's body and size class on a device; empty when a field holds a tab
/// or a line break (such a site is tuned, but not kept in the file).
ACC_DETAIL_RUNTIME_FN std::string tune_key(const std::string& device, const call_site& site, const std::string& body,
                                           std::size_t cls);

/// The file's text for `table`: the header line, then one tab-separated line per entry.
ACC_DETAIL_RUNTIME_FN std::string format_tune_cache(const tune_table& table);

/// Parses a file's text into `table`. False, with `why` set and `table` untouched, when the
/// header is not this version's or any line is not an entry.
ACC_DETAIL_RUNTIME_FN bool parse_tune_cache(const std::string& text, tune_table& table, std::string& why);

// ---- the runtime's record of selected call sites -------------------------------------------------

/// What acc::adaptive and acc::tuned keep per call site and GPU.
struct selected_site {
  std::string name;  // "acc::parallel_loop at file.cpp:42"
  adaptive_policy policy;
  std::array<std::unique_ptr<tune_search>, size_classes> tuning;
};

/// Every selected call site, the tune cache and its file; one per process (runtime_state).
struct selection_registry {
  std::mutex mutex;
  std::map<std::string, selected_site> sites;  // key: tune_key without the class
  /// The same sites by construct entry, file, line, column and device (no string to build).
  using site_id = std::tuple<const void*, const char*, unsigned, unsigned, int>;
  std::map<site_id, selected_site*> by_id;
  std::map<int, std::string> device_names;
  /// Moved by reset_selection, which frees the sites: the threads' memos of them are then stale.
  std::atomic<std::uint64_t> epoch{0};
  bool cache_loaded = false;
  std::string cache_path;  // ACC_TUNE_CACHE; empty: none
  tune_table cache;
  bool save_failed = false;
};

/// The process's registry (runtime_state) and whether ACC_DEVICE_TYPE=auto was set.
ACC_DETAIL_RUNTIME_FN selection_registry& selection_state() noexcept;
ACC_DETAIL_RUNTIME_FN bool selection_registry_env_auto() noexcept;

/// A report of every selected call site: per size class the choice, the measured and predicted
/// times, the prediction error and the switches (adaptive); the shape, its time against the
/// default's and the search's trials and cost (tuned). Benchmarks print it.
ACC_DETAIL_RUNTIME_FN std::string selection_report();

/// A copy of the adaptive state of size n with data as `r` says, at the first call site whose
/// name ends with `name_suffix` (e.g. "adaptive.cu:56"); false when there is none. Benchmarks
/// print the choice and the prediction error per size with it.
ACC_DETAIL_RUNTIME_FN bool adaptive_state(const std::string& name_suffix, std::uint64_t n, residency r,
                                          adaptive_class& out);

/// Whether ACC_DEVICE_TYPE=auto applies acc::adaptive to this thread's constructs (not once
/// the thread chose a device type itself).
ACC_DETAIL_RUNTIME_FN bool adaptive_everywhere() noexcept;

/// Forgets every selected call site (not the tune cache file); for benchmarks that compare
/// runs from a cold start.
ACC_DETAIL_RUNTIME_FN void reset_selection();

}  // namespace acc::detail

#include <acc/detail/header_close.hpp>
