// Shared by the Rodinia 3.1 ports: a deterministic generator for their inputs (Rodinia reads
// data files, or seeds rand() with the time, neither reproducible across machines), the timing
// rule (one warm-up run, then the median of five) and the lines every port prints, which the
// bench scripts parse: "  variant <name>: <seconds> s" per variant, then
// "  verification SUCCESSFUL".
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace rodinia {

/// splitmix64: the same numbers on every machine and compiler, unlike rand().
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

/// The median of 5 timed calls of run() after one warm-up call; reset() runs untimed before
/// each call (to restore the inputs a run overwrites). run() must end with the device work done
/// (a synchronous construct, or acc::wait on its queue).
template <class Reset, class Run>
double median_seconds(Reset&& reset, Run&& run) {
  reset();
  run();
  std::vector<double> s;
  for (int r = 0; r < 5; ++r) {
    reset();
    const auto start = std::chrono::steady_clock::now();
    run();
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(s.begin(), s.end());
  return s[2];
}

/// The same for a run() that needs no reset.
template <class Run>
double median_seconds(Run&& run) {
  return median_seconds([] {}, run);
}

/// The line the benchmark scripts parse.
inline void report(const char* variant, double seconds) { std::printf("  variant %s: %.6f s\n", variant, seconds); }

/// The closing line; returns main's exit status.
inline int verdict(bool ok) {
  std::printf("  verification %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
}

}  // namespace rodinia
