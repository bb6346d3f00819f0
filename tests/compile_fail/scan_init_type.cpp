// expect: acc::exclusive_scan: init does not convert to the output's element type
#include <acc/parallel.hpp>

struct tag {};

void f(const int* x, int* y) {
  acc::exclusive_scan(x, 10, y, tag{});
}
