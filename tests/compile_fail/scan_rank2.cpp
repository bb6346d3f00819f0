// expect: acc::inclusive_scan / exclusive_scan: arrays and views must have rank 1
#include <acc/parallel.hpp>

void f(acc::array<int, 2>& a, acc::array<int, 2>& b) {
  acc::inclusive_scan(a, b);
}
