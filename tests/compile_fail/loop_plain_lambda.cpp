// expect: acc::parallel_loop: the body is a plain lambda, which nvcc cannot make a kernel of; write it with ACC_LAMBDA
// only: cuda
#include <acc/parallel.hpp>

void f(acc::array<float> y, int n) {
  acc::parallel_loop(n, [=](int i) { y[i] = 0; });
}
