// NPB's random number generator, shared by the NPB ports (EP, IS). Written from the NPB 3.4
// specification (NAS technical report RNR-94-007): x_{k+1} = a * x_k mod 2^46.
#pragma once

#include <acc/parallel.hpp>

namespace npb {

// x_{k+1} = a * x_k mod 2^46, in doubles: both factors are split into 23-bit halves so that
// every product and sum below is an integer under 2^53, hence exact on every backend (with or
// without fused multiply-add). The result is the same sequence as NPB's randlc.
constexpr double r23 = 1.0 / 8388608.0;  // 2^-23
constexpr double t23 = 8388608.0;        // 2^23
constexpr double r46 = r23 * r23;
constexpr double t46 = t23 * t23;

/// Replaces x by a * x mod 2^46 and returns the new x scaled into (0, 1). a and x are
/// integers in [1, 2^46) held as doubles.
ACC_ROUTINE inline double randlc(double& x, double a) {
  const double a1 = static_cast<double>(static_cast<long long>(r23 * a)), a2 = a - t23 * a1;
  const double x1 = static_cast<double>(static_cast<long long>(r23 * x)), x2 = x - t23 * x1;
  // a * x mod 2^46 = (2^23 (a1 x2 + a2 x1) mod 2^46) + a2 x2, with the bracket reduced mod 2^23.
  const double t1 = a1 * x2 + a2 * x1;
  const double z = t1 - t23 * static_cast<double>(static_cast<long long>(r23 * t1));
  const double t3 = t23 * z + a2 * x2;
  x = t3 - t46 * static_cast<double>(static_cast<long long>(r46 * t3));
  return r46 * x;
}

}  // namespace npb
