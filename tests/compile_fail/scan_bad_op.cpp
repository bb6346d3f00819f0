// expect: acc::inclusive_scan / exclusive_scan: op cannot combine two values of the output's element type
#include <acc/parallel.hpp>

struct not_an_op {};

void f(const int* x, int* y) {
  acc::exclusive_scan(x, 10, y, 0, not_an_op{});
}
