// expect: acc::inclusive_scan / exclusive_scan: acc::minus, acc::divides, acc::shift_left and acc::shift_right are atomic operators, not scan operators
#include <acc/parallel.hpp>

// minus is not associative: a parallel scan would give a different result for each grouping.
void f(const long long* x, long long* y) {
  acc::inclusive_scan(x, 100000, y, acc::minus);
}
