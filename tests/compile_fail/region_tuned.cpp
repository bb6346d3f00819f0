// expect: acc::parallel: acc::tuned \(the launch shape must not change results\) is not a clause of this construct; it accepts num_gangs, num_workers, vector_length, shared_bytes, async, if_, device_num, default_present, reduction, adaptive
#include <acc/parallel.hpp>

void f(int* out) {
  acc::parallel(acc::tuned, ACC_LAMBDA(const acc::gang_t& g) { acc::single(g, acc::per_gang, [&] { out[0] = 1; }); });
}
