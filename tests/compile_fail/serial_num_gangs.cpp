// expect: acc::serial: acc::num_gangs is not a clause of this construct; it accepts async, if_, device_num, default_present
#include <acc/parallel.hpp>

void f(int* out) {
  acc::serial(acc::num_gangs(4), ACC_LAMBDA() { out[0] = 1; });
}
