// expect: acc::parallel_loop: delete_ is an acc::exit_data clause
#include <acc/parallel.hpp>

void f(acc::view<float> y) {
  acc::parallel_loop(16, acc::copy(y), acc::delete_(y), ACC_LAMBDA(int i) { y[i] = 0; });
}
