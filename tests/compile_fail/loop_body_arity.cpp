// expect: acc::parallel_loop: body must take two indices \(i, j\) for acc::collapse
#include <acc/parallel.hpp>

void f(float* y) {
  acc::parallel_loop(acc::collapse(4, 4), ACC_LAMBDA(int i) { y[i] = 0; });
}
