// NPB EP's slice of the pair stream, shared by examples/npb_ep and bench_tuned (which times the
// slices' parallel_reduce). Written for acc from the NPB 3.4 specification of EP (NAS technical
// reports RNR-94-007 and NAS-95-020); constants are NPB's.
#pragma once

#include "npb_random.hpp"

#include <acc/parallel.hpp>

#include <cmath>

namespace npb::ep {

constexpr double multiplier = 1220703125.0;  // a = 5^13
constexpr double seed = 271828183.0;
constexpr int nq = 10;  // annuli l <= max(|X|, |Y|) < l + 1
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

/// a^(2^(MS+1)) mod 2^46: the generator's step over one slice (MS + 1 squarings of a).
inline double slice_stride() {
  double stride = multiplier;
  for (int i = 0; i <= ms; ++i) randlc(stride, stride);
  return stride;
}

/// Slice `s` of the pair stream: pairs [s 2^MS, (s + 1) 2^MS). `stride` is slice_stride().
ACC_ROUTINE inline tally slice(long s, double stride) {
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

}  // namespace npb::ep
