// expect: acc::inclusive_scan / exclusive_scan: acc::adaptive is not a clause of this construct; it accepts async, if_, device_num, default_present
#include <acc/parallel.hpp>

void f(const int* in, int* out, int n) {
  acc::inclusive_scan(in, n, out, acc::plus, acc::adaptive);
}
