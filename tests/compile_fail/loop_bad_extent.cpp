// expect: acc::parallel_loop: the first argument must be an iteration count \(an integer\), acc::range
#include <acc/parallel.hpp>

void f(float* y) {
  acc::parallel_loop(16.0, ACC_LAMBDA(int i) { y[i] = 0; });
}
