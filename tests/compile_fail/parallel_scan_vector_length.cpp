// expect: acc::parallel_scan: acc::vector_length is not a clause of this construct; it accepts async, if_, device_num, default_present
#include <acc/parallel.hpp>

long f(const int* x) {
  return acc::parallel_scan(16, acc::async(1), acc::vector_length(128),
                            ACC_LAMBDA(int i, long& p, bool) { p += x[i]; });
}
