// expect: acc::parallel_loop: an argument between the extent and the body is not a clause
#include <acc/parallel.hpp>

void f(float* y) {
  acc::parallel_loop(16, 128, ACC_LAMBDA(int i) { y[i] = 0; });
}
