// expect: acc::parallel_loop: body must take one index for a count or range; for body\(i, j\) pass acc::collapse
#include <acc/parallel.hpp>

void f(float* y) {
  acc::parallel_loop(16, ACC_LAMBDA(int i, int j) { y[i + j] = 0; });
}
