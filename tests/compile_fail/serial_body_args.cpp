// expect: acc::serial: the body takes no arguments
#include <acc/parallel.hpp>

void f(int* out) {
  acc::serial(ACC_LAMBDA(int i) { out[i] = 1; });
}
