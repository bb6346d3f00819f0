// expect: acc::inclusive_scan / exclusive_scan: after the operator only clauses may follow
#include <acc/parallel.hpp>

void f(const int* x, int* y) {
  acc::inclusive_scan(x, 10, y, acc::plus, acc::maximum);
}
