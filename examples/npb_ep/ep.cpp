// NPB EP (Embarrassingly Parallel), after the NAS Parallel Benchmarks 3.x OpenMP/OpenACC
// versions: 2^(M+1) uniform deviates from NPB's linear congruential generator become Gaussian
// pairs by Marsaglia's polar method; the program tallies the pairs per square annulus and sums
// their coordinates, then checks the sums against NPB's published values.
//   ep [S|W|A|B]   (default S)
// Written for acc from the NPB 3.4 specification of EP (NAS technical reports RNR-94-007 and
// NAS-95-020), not from NPB's sources; constants and verification values are NPB's.
#include <acc/parallel.hpp>

#include "../common/npb_ep.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>

namespace {

using npb::ep::ms;
using npb::ep::tally;
using npb::ep::tally_sum;

// --- EP's parameters (NPB 3.4 EP: ep.f / npbparams.h) ------------------------------------------
constexpr int mk = 16;  // a batch is 2^MK pairs

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

  const double stride = npb::ep::slice_stride();
  const auto slice = ACC_LAMBDA(long s) -> tally { return npb::ep::slice(s, stride); };
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
