// expect: acc::inclusive_scan: arguments missing; write inclusive_scan\(first, n, out\[, op\]\)
#include <acc/parallel.hpp>

void f(int* x) {
  acc::inclusive_scan(x, 10);
}
