// acc::adaptive against the two fixed choices (always the host, always the GPU) on a stream
// triad, a 2-D 5-point stencil and a sum, for sizes 2^10 .. 2^28, in two data settings:
//   host-resident: no data region; the GPU pays implicit copies in and out, the host nothing;
//   device-resident: the arrays are in a data region; the host pays update_self before and
//   update_device of the arrays it wrote after (what acc::adaptive does when it chooses the
//   host).
// Per size: adaptive's warm-up runs first (its own timed runs and, where it comes within the
// row's runs, its one recheck of the losing side), then each kind runs in blocks
// of consecutive calls, an untimed call first, in the order host, adaptive, GPU, host, GPU,
// adaptive, over again: each kind follows each other kind once a round and never itself, so
// that a slow spell, or the start of a block right after the other side's runs (OpenMP threads
// gone to sleep, a GPU left idle), hits each alike. A program makes one choice and keeps it;
// calls of the three kinds taken in turns one by one measured the transitions instead (the
// H100's fixed host run of a 2^22 triad took 8 ms between GPU runs, 1 ms in a row), and
// adaptive's hysteresis learnt from them as well. --interleave takes the turns call by call
// again, each timed call right after an untimed one of its own kind, to see those transitions.
// The median of each is printed with the ratio adaptive / better fixed, the median over rounds
// of each round's ratio of medians (OVER 5%: more than 5% slower), and the same ratio of the
// whole row's medians; where adaptive runs ("gpu*": decided from the models' predictions at
// first sight, else from timing both sides), the prediction error of that side's time
// (measured median of its warm-up runs against the prediction; "-": no prediction, both were
// timed) and the switches of that size class. At the end acc's report of every call site: per
// size class and residency the choice, each side's time split into kernel and data movement,
// the predictions and their errors, the switches.
//   bench_adaptive [--from 10] [--to 28] [--step 2] [--runs N] [--rounds R] [--interleave | --paired]
//                  [--samples]
// --rounds R takes the two orders R times each, in blocks of runs / 2R calls (a slow spell then
// falls on fewer of a kind's runs); --samples prints every run of a row above 5%.
// --paired: after the warm-up, adaptive and the fixed run of the side it chose take turns call
// by call (they differ only by adaptive's machinery, and run on the same side, so no transition
// comes between them), and the other side runs in blocks between those, R rounds of runs / R
// calls each; a host spell then weighs on adaptive and the fixed run of its side alike, where
// in blocks it fell on one kind's block and moved that round's ratio.
// Exits 1 on a wrong result or when adaptive is more than 5% slower than the better fixed
// choice at some size; 0 without a GPU (nothing to measure).
#include <acc/parallel.hpp>
#include <acc/detail/selection.hpp>

#include "check.cuh"
#include "timing.cuh"

#include <algorithm>
#include <array>
#include <chrono>
#include <string>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

template <class F>
double seconds_of(F&& f) {
  const auto t0 = clock_type::now();
  f();
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

enum mode { fixed_host, fixed_gpu, adaptive_choice };

// Each kernel passes one body to every mode: one Body type, so that the fixed and the adaptive
// calls run the same instantiation of the host loop and of the kernel. With a lambda per call
// they ran two copies of the same code (both the cold host fallback of this nvcc unit), whose
// speed moves with where each lands: on the H200's host rows, where both run on the host,
// adaptive / fixed host went from 0.925 to 1.082 (bench/results/h100-adaptive.txt), in both
// directions, against acc's own cost per call of under 0.1 us on a build machine
// (bench/results/host-adaptive-overhead.txt).
// STREAM's triad: a = b + s c (BabelStream's scalar 0.4).
struct triad {
  static constexpr const char* name = "triad";
  static inline int line = 0;  // of the adaptive call
  acc::array<double> a, b, c;
  explicit triad(std::int64_t n) : a(n), b(n), c(n) {
    for (std::int64_t i = 0; i < n; ++i) a[i] = 0, b[i] = 0.2 + 1e-9 * double(i % 1000), c[i] = 0.1;
  }
  void run(mode m) {
    auto a = this->a;
    acc::view<const double> b = this->b, c = this->c;
    const std::int64_t n = a.size();
    const auto body = ACC_LAMBDA(std::int64_t i) { a[i] = b[i] + 0.4 * c[i]; };  // one for every mode: see above
    line = __LINE__ + 2;
    if (m == adaptive_choice)
      acc::parallel_loop(n, acc::adaptive, body);
    else
      acc::parallel_loop(n, acc::if_(m == fixed_gpu), body);
  }
  std::int64_t size() const { return a.size(); }  // iterations: the size adaptive is keyed by
  template <class F> void each(F f) { f(a); f(b); f(c); }
  template <class F> void each_written(F f) { f(a); }
  bool check() const {
    for (std::int64_t i = 0; i < a.size(); ++i)
      if (std::abs(a[i] - (b[i] + 0.4 * c[i])) > 1e-12) return false;
    return true;
  }
};

// A Jacobi sweep of a square grid of n points: out = mean of the four neighbours.
struct stencil {
  static constexpr const char* name = "stencil";
  static inline int line = 0;
  int side;
  acc::array<double, 2> in, out;
  explicit stencil(std::int64_t n)
      : side(int(std::sqrt(double(n)))), in(side, side), out(side, side) {
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) in(i, j) = double((i * 7 + j * 3) % 11), out(i, j) = 0;
  }
  void run(mode m) {
    acc::view<const double, 2> in = this->in;
    auto out = this->out;
    const auto space = acc::collapse(acc::range(1, side - 1), acc::range(1, side - 1));
    const auto body = ACC_LAMBDA(int i, int j) {
      out(i, j) = 0.25 * (in(i - 1, j) + in(i + 1, j) + in(i, j - 1) + in(i, j + 1));
    };
    line = __LINE__ + 2;
    if (m == adaptive_choice)
      acc::parallel_loop(space, acc::adaptive, body);
    else
      acc::parallel_loop(space, acc::if_(m == fixed_gpu), body);
  }
  std::int64_t size() const { return std::int64_t(side - 2) * (side - 2); }
  template <class F> void each(F f) { f(in); f(out); }
  template <class F> void each_written(F f) { f(out); }
  bool check() const {
    for (int i = 1; i < side - 1; ++i)
      for (int j = 1; j < side - 1; ++j)
        if (out(i, j) != 0.25 * (in(i - 1, j) + in(i + 1, j) + in(i, j - 1) + in(i, j + 1))) return false;
    return true;
  }
};

// A sum of n values whose total is exact (check.cuh's i % 17 - 8).
struct sum {
  static constexpr const char* name = "reduction";
  static inline int line = 0;
  acc::array<double> x;
  double result = 0;
  explicit sum(std::int64_t n) : x(n) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = double(i % 17) - 8;
  }
  void run(mode m) {
    acc::view<const double> x = this->x;
    const std::int64_t n = x.size();
    const auto body = ACC_LAMBDA(std::int64_t i) { return x[i]; };
    line = __LINE__ + 2;
    if (m == adaptive_choice)
      result = acc::parallel_reduce(n, acc::adaptive, acc::plus, body);
    else
      result = acc::parallel_reduce(n, acc::if_(m == fixed_gpu), acc::plus, body);
  }
  std::int64_t size() const { return x.size(); }
  template <class F> void each(F f) { f(x); }
  template <class F> void each_written(F) {}
  bool check() const { return result == double(bench::sum_mod17(x.size())); }
};

struct outcome {
  bool correct = true, within = true;
};

/// One kernel at one size in one data setting; prints a row.
template <class K>
outcome measure(std::int64_t n, bool resident, int runs, int rounds, bool interleave, bool paired, bool samples) {
  K k(n);
  outcome o;
  std::vector<double> t[3];
  std::vector<std::array<std::vector<double>, 3>> per_round;  // the same runs by round
  const auto one = [&](mode m) {
    if (!resident) return seconds_of([&] { k.run(m); });
    if (m != fixed_host) return seconds_of([&] { k.run(m); });
    // The host run of device-resident data: the same coherence adaptive keeps.
    return seconds_of([&] {
      k.each([](auto& a) { acc::update_self(a); });
      k.run(m);
      k.each_written([](auto& a) { acc::update_device(a); });
    });
  };
  // The call site's state for this size class and residency (acc::detail::adaptive_state). A
  // call written over several lines is named by its first or its last line, as the compiler has
  // it: the first match of the call's lines.
  const auto state = [&](acc::detail::adaptive_class& c) {
    for (int line = K::line; line < K::line + 4; ++line)
      if (acc::detail::adaptive_state("adaptive.cu:" + std::to_string(line), std::uint64_t(k.size()),
                                      resident ? acc::detail::residency::device : acc::detail::residency::host, c))
        return true;
    return false;
  };
  // A settled class times its losing side once more after it has run a few times what that
  // costs (adaptive_options::recheck, recheck_close): a probe of `trials` runs on the slower
  // side, and with host-resident data the moves there and back. It is part of adaptive's
  // learning, done once in the class's life; inside the timed blocks it fell on one or two
  // blocks of a few runs (the 2^28 stencil: 4 runs a block, one block of 135, 134, 134 ms on
  // the GPU, the next 269, 238, 167, 164 ms on the host as the arrays came back, against 106),
  // and so on the ratio of their rounds, which a long program never sees again.
  const auto rechecked = [&] {
    acc::detail::adaptive_class c;
    return state(c) && c.settled && c.rechecked && !c.probing && !c.confirming;
  };
  int warm_up = 0;
  const auto body = [&] {
    // adaptive's warm-up: its own timed runs, then the one recheck of the losing side and the
    // five calls after it (which move host-resident data back), if it comes within the row's runs.
    int until = runs;
    for (bool done = false; warm_up < std::max(10, until); ++warm_up) {
      one(adaptive_choice);
      if (!done && rechecked()) done = true, until = warm_up + 6;
    }
    if (paired) {
      // adaptive and the fixed run of the side it chose are the same run but for adaptive's
      // own machinery, so they take turns call by call (a slow spell hits both alike, and
      // neither follows the other side's runs more often); the other side runs in a block of
      // its own between them, as a program that chose it would.
      acc::detail::adaptive_class c;
      const mode same = state(c) && c.choice == acc::detail::target::host ? fixed_host : fixed_gpu;
      const mode other = same == fixed_host ? fixed_gpu : fixed_host;
      const int per_block = std::max(1, (runs + rounds - 1) / rounds);
      per_round.resize(std::size_t(rounds));
      const auto timed_run = [&](int round, mode m) {
        t[m].push_back(one(m));
        per_round[std::size_t(round)][m].push_back(t[m].back());
      };
      for (int round = 0; round < rounds; ++round)
        for (int half = 0; half < 2; ++half) {
          if ((half == 0) == (round % 2 == 0)) {
            one(other);
            for (int r = 0; r < per_block; ++r) timed_run(round, other);
          } else {
            one(adaptive_choice), one(same);
            for (int r = 0; r < per_block; ++r) {  // A F, F A, A F, ...: neither always first
              timed_run(round, r % 2 ? same : adaptive_choice);
              timed_run(round, r % 2 ? adaptive_choice : same);
            }
          }
        }
      return;
    }
    if (interleave) {
      for (int r = 0; r < runs; ++r)
        for (int m = 0; m < 3; ++m) {
          one(mode(m));
          t[m].push_back(one(mode(m)));
        }
      per_round.push_back({t[0], t[1], t[2]});
      return;
    }
    // The six ordered pairs of different kinds once a round (host -> adaptive -> GPU -> host ->
    // GPU -> adaptive -> host). An order that put adaptive after another kind in every block and
    // each fixed kind after itself in half of them charged adaptive alone with the transitions.
    const mode order[2][3] = {{fixed_host, adaptive_choice, fixed_gpu}, {fixed_host, fixed_gpu, adaptive_choice}};
    const int blocks = 2 * rounds, per_block = std::max(1, (runs + blocks - 1) / blocks);
    per_round.resize(std::size_t(rounds));
    for (int block = 0; block < blocks; ++block)
      for (mode m : order[block % 2]) {
        one(m);
        for (int r = 0; r < per_block; ++r) {
          t[m].push_back(one(m));
          per_round[std::size_t(block / 2)][m].push_back(t[m].back());
        }
      }
  };
  if (resident) k.each([](auto& a) { acc::enter_data(acc::copyin(a)); });
  body();
  if (resident) k.each([](auto& a) { acc::exit_data(acc::copyout(a)); });
  o.correct = k.check();
  const double h = median(t[0]), g = median(t[1]), a = median(t[2]), best = std::min(h, g);
  // The ratio is the median over rounds of each round's adaptive / better fixed median: the
  // kinds' blocks of one round ran within a few milliseconds of each other, so a drift of the
  // machine over the row (the H200's host triad at 2^18: block medians from 62 to 96 us) moves
  // the three alike, where it moves the medians of the whole row by whichever blocks it hit.
  std::vector<double> round_ratio;
  for (const auto& r : per_round)
    if (!r[0].empty() && !r[1].empty() && !r[2].empty())
      round_ratio.push_back(median(r[2]) / std::min(median(r[0]), median(r[1])));
  const double ratio = median(round_ratio);
  o.within = ratio <= 1.05;
  acc::detail::adaptive_class c;
  std::string where = "?", error = "-", switches = "?";
  if (state(c)) {
    const int side = c.choice == acc::detail::target::nvidia ? 1 : 0;
    where = std::string(side ? "gpu" : "host") + (c.by_model ? "*" : "");
    if (c.predicted[side] > 0 && c.error[side] >= 0) error = std::to_string(int(c.error[side] * 100 + 0.5)) + "%";
    switches = std::to_string(c.switches);
  }
  std::printf("%-9s %-15s 2^%-3d %12.1f %12.1f %12.1f %8.3f %8.3f %-6s %8s %8s %7d%s%s\n", K::name,
              resident ? "device-resident" : "host-resident", int(std::log2(double(n)) + 0.5), h * 1e6, g * 1e6,
              a * 1e6, ratio, a / best, where.c_str(), error.c_str(), switches.c_str(), warm_up,
              o.within ? "" : "  OVER 5%", o.correct ? "" : " WRONG");
  if (samples && !o.within) {
    // The runs in the order taken, to tell a slow spell from a steady difference.
    const char* names[3] = {"host", "gpu", "adaptive"};
    for (int m = 0; m < 3; ++m) {
      std::printf("    %-8s", names[m]);
      for (double x : t[m]) std::printf(" %.1f", x * 1e6);
      std::printf("\n");
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_gpu()) return 0;
  const int from = bench::int_arg(argc, argv, "--from", 10), to = bench::int_arg(argc, argv, "--to", 28),
            step = bench::int_arg(argc, argv, "--step", 2), runs_arg = bench::int_arg(argc, argv, "--runs", 0),
            rounds = std::max(1, bench::int_arg(argc, argv, "--rounds", 1));
  bool interleave = false, paired = false, samples = false;
  for (int i = 1; i < argc; ++i) {
    interleave = interleave || std::string(argv[i]) == "--interleave";
    paired = paired || std::string(argv[i]) == "--paired";
    samples = samples || std::string(argv[i]) == "--samples";
  }
  std::printf("# median microseconds per call; ratio = adaptive / better fixed choice, the median of the rounds' ratios\n"
              "# (OVER 5%%: above 1.05); of meds: the same of the medians above\n"
              "# runs on: adaptive's choice (*: decided from predictions); pred err: |predicted - measured| / measured\n"
              "# of that side's time in this size class; switches: changes of choice after the warm-up (at most 2: one, and one back);\n"
              "# warm-up: adaptive's calls before the blocks: to 5 after its recheck, at least 10, at most the row's runs\n");
  std::printf("%-9s %-15s %-5s %12s %12s %12s %8s %8s %-6s %8s %8s %7s\n", "kernel", "data", "size", "host", "gpu",
              "adaptive", "ratio", "of meds", "runs on", "pred err", "switches", "warm-up");
  // The process's start-up is not measured: the first host runs after the CUDA context is made
  // took 6 ms each for tens of milliseconds on the H100 machine (the driver's threads keep
  // cores busy, and an OpenMP thread that waits for its core stalls the region), and a call
  // site's first class would be timed in that spell. Both sides run untimed for 300 ms first.
  {
    triad w(std::int64_t(1) << 16);
    const auto until = clock_type::now() + std::chrono::milliseconds(300);
    while (clock_type::now() < until) w.run(fixed_host), w.run(fixed_gpu);
  }
  bool ok = true;
  for (int resident = 0; resident < 2; ++resident)
    for (int e = from; e <= to; e += step) {
      const std::int64_t n = std::int64_t(1) << e;
      // At least 51 timed runs of each kind: with 5, at 2^24 and above, the host's run-to-run
      // spread alone (4.9-6.1 ms for a 2^24 triad) moved a kind's median by 10%; with 15, by
      // up to 8% (bench/results/h100-adaptive.txt); with 25, a round of --rounds 8 had 4 runs of
      // each kind, too few for its own medians. Shorter calls get more, up to 1001: a few
      // microseconds of OpenMP fork and join, or a synchronous launch, spread by 10-50% from
      // run to run, and a GPU run that moves its data now and then takes 2-5 times its usual
      // time (the H100 machine's 2^24 sum), so a round's median of 7 runs fell on either mode.
      // 2^31 / n keeps the row's time about level from 2^21 to 2^25.
      const int runs = runs_arg > 0 ? runs_arg : int(std::clamp<std::int64_t>((std::int64_t(1) << 31) / n, 51, 1001));
      for (outcome o : {measure<triad>(n, resident, runs, rounds, interleave, paired, samples),
                        measure<stencil>(n, resident, runs, rounds, interleave, paired, samples),
                        measure<sum>(n, resident, runs, rounds, interleave, paired, samples)})
        ok = ok && o.correct && o.within;
    }
  std::printf("\n# acc's selection report\n%s", acc::detail::selection_report().c_str());
  return ok ? 0 : 1;
}
