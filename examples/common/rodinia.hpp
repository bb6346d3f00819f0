// Helpers shared by the Rodinia ports that print `  variant <name>: <seconds> s` lines: a
// deterministic generator for their inputs (Rodinia reads files or calls rand(), neither of
// which is reproducible across machines) and the timing rule (one warm-up run, then the median
// of five).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace rodinia {

/// splitmix64: a full-period 64-bit generator whose stream depends only on the seed.
class random {
 public:
  explicit random(std::uint64_t seed) : x_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (x_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Uniform integer in [0, n).
  std::uint64_t below(std::uint64_t n) { return next() % n; }

 private:
  std::uint64_t x_;
};

/// Runs `run` once to warm up (first-touch allocation, kernel loading), then five times, and
/// returns the median wall time in seconds. `run` must be synchronous (wait on its queues).
template <class Run>
double median_seconds(Run&& run) {
  run();
  std::vector<double> t;
  for (int r = 0; r < 5; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[2];
}

/// The line the benchmark scripts parse.
inline void print_variant(const char* name, double seconds) { std::printf("  variant %s: %.6f s\n", name, seconds); }

/// The closing line; returns main's exit status.
inline int verdict(bool ok) {
  std::printf("  verification %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
}

}  // namespace rodinia
