// NPB EP (Embarrassingly Parallel), after the NAS Parallel Benchmarks 3.x OpenMP/OpenACC
// versions: 2^(M+1) uniform deviates from NPB's linear congruential generator become Gaussian
// pairs by Marsaglia's polar method; the program tallies the pairs per square annulus and sums
// their coordinates, then checks the sums against NPB's published values.
//   ep [S|W|A|B]   (default S)
// Written for acc from the NPB 3.4 specification of EP (NAS technical reports RNR-94-007 and
// NAS-95-020), not from NPB's sources; constants and verification values are NPB's.
#include <acc/parallel.hpp>

#include "../common/npb_random.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>

namespace {

using npb::randlc;

// --- EP's parameters (NPB 3.4 EP: ep.f / npbparams.h) ------------------------------------------
constexpr int mk = 16;                     // a batch is 2^MK pairs
constexpr double multiplier = 1220703125.0;  // a = 5^13
constexpr double seed = 271828183.0;
constexpr int nq = 10;                     // annuli l <= max(|X|, |Y|) < l + 1

struct ep_class {
  char name;
  int m;  // 2^M pairs in all
  double sx, sy;  // NPB 3.4 EP verification values
};
constexpr ep_class classes[] = {
    {'S', 24, -3.247834652034740e+3, -6.958407078382297e+3},
    {'W', 25, -2.863319731645753e+3, -6.320053679109499e+3},
    {'A', 28, -4.295875165629892e+3, -1.580732573678431e+4},
    {'B', 30, 4.033815542441498e+4, -2.660669192809235e+4},
    {'C', 32, 4.764367927995374e+4, -8.084072988043731e+4},
    {'D', 36, 1.982481200946593e+5, -1.020596636361769e+5},
};

// NPB gives one batch to each thread. A batch holds 2^16 pairs and class S has only 2^8
// batches, too few threads for a GPU, so each batch is cut into 2^(MK - MS) slices that start
// at their own place in the random stream. Every pair, and so every count, is the same as NPB's;
// only the order of the floating-point sums differs.
constexpr int ms = 10;

/// What a slice contributes: the sums of the Gaussian coordinates and the count per annulus.
struct tally {
  double sx, sy;
  double q[nq];
};

/// tally + tally, for acc::parallel_reduce.
struct tally_sum {
  ACC_ROUTINE tally operator()(tally a, const tally& b) const {
    a.sx += b.sx;
    a.sy += b.sy;
    for (int l = 0; l < nq; ++l) a.q[l] += b.q[l];
    return a;
  }
  ACC_ROUTINE tally identity() const { return tally{}; }
};

/// Slice `s` of the pair stream: pairs [s 2^MS, (s + 1) 2^MS). `stride` is a^(2^(MS+1)) mod
/// 2^46, the generator's step over one slice.
ACC_ROUTINE inline tally ep_slice(long s, double stride) {
  // The slice's first state is seed * stride^s, by binary powering as NPB finds its batches'.
  double x = seed, power = stride;
  for (long k = s; k != 0; k >>= 1) {
    if (k & 1) randlc(x, power);
    if (k > 1) randlc(power, power);
  }
  tally t{};
  for (int i = 0; i < (1 << ms); ++i) {
    const double x1 = 2.0 * randlc(x, multiplier) - 1.0;
    const double x2 = 2.0 * randlc(x, multiplier) - 1.0;
    const double r2 = x1 * x1 + x2 * x2;
    if (r2 <= 1.0) {  // inside the unit disc: (x1, x2) * sqrt(-2 ln r2 / r2) are two N(0, 1)
      const double f = sqrt(-2.0 * log(r2) / r2);
      const double gx = x1 * f, gy = x2 * f;
      const double ax = fabs(gx), ay = fabs(gy);
      t.q[static_cast<int>(ax > ay ? ax : ay)] += 1.0;
      t.sx += gx;
      t.sy += gy;
    }
  }
  return t;
}

const ep_class* find_class(const char* arg) {
  for (const ep_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) try {
  const ep_class* cls = find_class(argc > 1 ? argv[1] : "S");
  if (!cls) {
    std::fprintf(stderr, "usage: %s [S|W|A|B|C|D]\n", argv[0]);
    return 2;
  }
  const long slices = 1L << (cls->m - ms);

  double stride = multiplier;  // a^(2^(MS+1)): MS + 1 squarings of a
  for (int i = 0; i <= ms; ++i) randlc(stride, stride);
  const auto slice = ACC_LAMBDA(long s) -> tally { return ep_slice(s, stride); };
  // Untimed, as NPB times only the generation: start the device and load the kernel.
  (void)acc::parallel_reduce(1L, tally_sum{}, slice);

  const auto start = std::chrono::steady_clock::now();
  const tally t = acc::parallel_reduce(slices, tally_sum{}, slice);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  double pairs = 0;
  for (double c : t.q) pairs += c;
  // NPB 3.4 EP verification: relative error of sx and sy at most 1e-8.
  const double ex = std::fabs((t.sx - cls->sx) / cls->sx), ey = std::fabs((t.sy - cls->sy) / cls->sy);
  const bool ok = ex <= 1e-8 && ey <= 1e-8;

  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("NPB EP class %c: 2^%d random numbers (%d batches of 2^%d pairs) on %s\n", cls->name, cls->m + 1,
              1 << (cls->m - mk), mk, gpu ? "nvidia" : "host");
  std::printf("  sx = %.15e  (relative error %.1e)\n  sy = %.15e  (relative error %.1e)\n", t.sx, ex, t.sy, ey);
  std::printf("  Gaussian pairs = %.0f; per annulus:", pairs);
  for (double c : t.q) std::printf(" %.0f", c);
  // NPB counts one operation per uniform deviate: Mop/s = 2^(M+1) / time / 10^6.
  std::printf("\n  time = %.4f s, Mop/s = %.2f\n  verification %s\n", seconds,
              std::ldexp(1.0, cls->m + 1) / seconds * 1e-6, ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "ep: %s\n", e.what());
  return 1;
}
