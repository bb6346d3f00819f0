// expect: acc::serial: delete_ is an acc::exit_data clause
#include <acc/parallel.hpp>

void f(acc::view<float> y) {
  acc::serial(acc::delete_(y), ACC_LAMBDA() { y[0] = 0; });
}
