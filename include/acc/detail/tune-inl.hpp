//! @file The runtime's definitions of acc::tuned's search and the tune cache file (detail/selection.hpp).
//! Compiled with detail/runtime-inl.hpp, which includes this file.
// A part of the runtime (detail/runtime-inl.hpp includes the parts in order, each once). On its
// own this file includes the whole runtime, which includes it in its place.
#if !defined(ACC_DETAIL_RUNTIME_PARTS)
#  include <acc/detail/runtime-inl.hpp>
#elif !defined(ACC_DETAIL_TUNE_INL)
#define ACC_DETAIL_TUNE_INL

#include <acc/detail/selection.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace acc::detail {

// ---- tune_search --------------------------------------------------------------------------------

ACC_DETAIL_RUNTIME_FN tune_search::tune_search(bool vector_open, bool gangs_open)
    : vector_open_(vector_open), gangs_open_(gangs_open), queue_{launch_choice{}} {
  done_ = !vector_open && !gangs_open;
}

ACC_DETAIL_RUNTIME_FN tune_search tune_search::restored(launch_choice best, double seconds) {
  tune_search t;
  t.best_ = best;
  t.best_time_ = seconds;
  t.done_ = t.from_cache_ = true;
  return t;
}

ACC_DETAIL_RUNTIME_FN void tune_search::record(launch_choice c, double seconds) {
  if (done_ || !(c == queue_[at_])) return;
  ++trials_;
  cost_ += seconds;
  runs_[run_count_] = seconds;
  if (++run_count_ < reps) return;
  run_count_ = 0;
  ++shapes_;
  const double t = selection_impl::median_of(runs_.data(), reps);
  if (phase_ == 0) default_time_ = t;
  if (phase_ == 3 && c.gang_factor == kept_factor_ && (runner_time_ == 0 || t < runner_time_)) runner_time_ = t, runner_ = c;
  if (best_time_ == 0 || t < best_time_) best_time_ = t, best_ = c;
  advance(t);
}

ACC_DETAIL_RUNTIME_FN void tune_search::reject(launch_choice c) {
  if (done_ || !(c == queue_[at_])) return;
  run_count_ = 0;
  advance(std::numeric_limits<double>::infinity());
}

ACC_DETAIL_RUNTIME_FN void tune_search::advance(double t) {
  // More iterations per thread pay until they do not: the first factor above the one the
  // phase started from that is 10% slower than the best shape ends that coordinate.
  const bool stop = (phase_ == 2 || phase_ == 4) && t > 1.1 * best_time_ && queue_[at_].gang_factor > base_factor_;
  if (!stop && ++at_ < queue_.size()) return;
  at_ = 0;
  queue_.clear();
  while (queue_.empty() && phase_ < 4) {
    ++phase_;
    if (phase_ == 1 && vector_open_)
      for (int v : vector_lengths) queue_.push_back({v, 0});
    if (phase_ == 2 && gangs_open_) {
      // The default block is the kernel's own choice, unknown here, so iterations per thread
      // take the fastest explicit vector length (or the clauses').
      base_factor_ = 0;
      for (int f : gang_factors) queue_.push_back({best_.vector_length ? best_.vector_length : vector_open_ ? 256 : 0, f});
    }
    if (phase_ == 3 && vector_open_ && gangs_open_ && best_.gang_factor) {
      kept_factor_ = best_.gang_factor;
      for (int v : vector_lengths) {
        if (v == best_.vector_length) continue;
        queue_.push_back({v, best_.gang_factor});
        // The same gangs with v lanes: more lanes with fewer iterations each, or the reverse.
        // The gang count, not the iterations per thread, can be what the kernel's time
        // follows (how its rows fall to SMs); a factor of 1 is phase 1's shape, timed.
        const int lanes = best_.vector_length * best_.gang_factor;
        if (lanes % v == 0 && lanes / v >= 2 && lanes / v != best_.gang_factor) queue_.push_back({v, lanes / v});
      }
    }
    if (phase_ == 4 && runner_time_ > 0 && runner_time_ <= 1.1 * best_time_) {
      base_factor_ = runner_.gang_factor;
      for (int f : gang_factors)
        if (f != runner_.gang_factor) queue_.push_back({runner_.vector_length, f});
    }
  }
  done_ = queue_.empty();
}

ACC_DETAIL_RUNTIME_FN launch_spec apply_choice(const launch_spec& s, launch_choice c, std::uint64_t size) noexcept {
  launch_spec r = s;
  if (c.vector_length) r.vector_length = c.vector_length;
  if (c.gang_factor) {
    const std::uint64_t threads = std::uint64_t(r.vector_length ? r.vector_length : 256) *
                                  std::uint64_t(r.num_workers ? r.num_workers : 1) * std::uint64_t(c.gang_factor);
    const std::uint64_t gangs = (size + threads - 1) / threads;
    r.num_gangs = gangs < 1 ? 1 : gangs > INT_MAX ? INT_MAX : int(gangs);
  }
  return r;
}

// ---- the tune cache file ------------------------------------------------------------------------

ACC_DETAIL_RUNTIME_FN std::string body_key(const char* type_name) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char* p = type_name; p && *p; ++p) h = (h ^ std::uint8_t(*p)) * 1099511628211ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

ACC_DETAIL_RUNTIME_FN std::string tune_key(const std::string& device, const call_site& site, const std::string& body,
                                           std::size_t cls) {
  std::string key = device + '\t' + site.construct + '\t' + site.where.file_name() + '\t' +
                    std::to_string(site.where.line()) + '\t' + std::to_string(site.where.column()) + '\t' + body +
                    '\t' + std::to_string(cls);
  if (std::count(key.begin(), key.end(), '\t') != 6 || key.find_first_of("\r\n") != std::string::npos) return {};
  return key;
}

ACC_DETAIL_RUNTIME_FN std::string format_tune_cache(const tune_table& table) {
  std::string out = std::string(tune_cache_header) + "\n";
  out += "# device\tconstruct\tfile\tline\tcolumn\tbody type (hash)\tsize class (log2)\tvector_length\t"
         "iterations per thread\tseconds\n";
  char buf[96];
  for (const auto& [key, e] : table) {
    std::snprintf(buf, sizeof buf, "\t%d\t%d\t%.6g\n", e.choice.vector_length, e.choice.gang_factor, e.seconds);
    out += key + buf;
  }
  return out;
}

namespace selection_impl {
/// The fields of one tab-separated line.
inline std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  std::size_t from = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', from);
    f.push_back(line.substr(from, tab - from));
    if (tab == std::string::npos) return f;
    from = tab + 1;
  }
}
/// A whole field of decimal digits (as format_tune_cache writes: no sign, no blanks) as an
/// integer in [lo, hi], lo >= 0.
inline bool to_int(const std::string& s, long lo, long hi, long& v) {
  if (s.empty() || s.size() > 18 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  v = std::strtol(s.c_str(), nullptr, 10);
  return v >= lo && v <= hi;
}
}  // namespace selection_impl

ACC_DETAIL_RUNTIME_FN bool parse_tune_cache(const std::string& text, tune_table& table, std::string& why) {
  using namespace selection_impl;
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != tune_cache_header) {
    why = "it does not start with \"" + std::string(tune_cache_header) + "\" (another version, or not a tune cache)";
    return false;
  }
  tune_table read;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const auto f = split_tabs(line);
    long v = 0;
    bool ok = f.size() == 10 && !f[0].empty() && !f[1].empty() && !f[2].empty() && !f[5].empty();
    ok = ok && to_int(f[3], 0, LONG_MAX, v) && to_int(f[4], 0, LONG_MAX, v);
    ok = ok && to_int(f[6], 0, size_classes - 1, v);
    long vector = 0, factor = 0;
    ok = ok && to_int(f[7], 0, 1 << 16, vector) && to_int(f[8], 0, 1 << 20, factor);
    double seconds = 0;
    if (ok) {
      char* end = nullptr;
      seconds = std::strtod(f[9].c_str(), &end);
      ok = !f[9].empty() && *end == '\0' && std::isfinite(seconds) && seconds >= 0;
    }
    if (!ok) {
      why = "line " + std::to_string(number) + " is not an entry";
      return false;
    }
    std::string key = f[0];
    for (std::size_t i = 1; i < 7; ++i) key += '\t' + f[i];
    read[key] = tune_entry{launch_choice{int(vector), int(factor)}, seconds};
  }
  table.swap(read);
  return true;
}

}  // namespace acc::detail

#endif  // ACC_DETAIL_TUNE_INL
