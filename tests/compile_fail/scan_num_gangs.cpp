// expect: acc::inclusive_scan / exclusive_scan: acc::num_gangs is not a clause of this construct; it accepts async, if_, device_num, default_present
#include <acc/parallel.hpp>

void f(const int* x, int* y) { acc::inclusive_scan(x, 16, y, acc::plus, acc::num_gangs(4)); }
