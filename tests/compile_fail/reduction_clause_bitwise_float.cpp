// expect: acc::reduction: acc::bit_and, bit_or and bit_xor need an integer type
#include <acc/parallel.hpp>

void f(const double* x, int n, double& s) {
  acc::parallel_loop(n, acc::reduction(acc::bit_xor, s), ACC_LAMBDA(int i, double& v) { v += x[i]; });
}
