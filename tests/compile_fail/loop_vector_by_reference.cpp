// expect: acc::parallel_loop: the body is a plain lambda, which nvcc cannot make a kernel of; write it with ACC_LAMBDA
// only: cuda
#include <acc/parallel.hpp>

#include <vector>

void f(std::vector<float>& y) {
  acc::parallel_loop(int(y.size()), [&](int i) { y[i] = 0; });
}
