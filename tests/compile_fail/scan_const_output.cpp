// expect: acc::inclusive_scan / exclusive_scan: the output is const
#include <acc/parallel.hpp>

void f(const int* x, const int* y) {
  acc::inclusive_scan(x, 10, y);
}
