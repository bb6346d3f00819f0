// expect: acc::parallel_loop: data clauses do not go with acc::devices
#include <acc/parallel.hpp>

void f(acc::view<float> y) {
  acc::parallel_loop(16, acc::devices(0, 1), acc::copy(y), ACC_LAMBDA(int i) { y[i] = 0; });
}
