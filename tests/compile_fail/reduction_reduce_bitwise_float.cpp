// expect: acc::parallel_reduce: acc::bit_and, bit_or and bit_xor need an integer type
#include <acc/parallel.hpp>

double f(const double* x, int n) {
  return acc::parallel_reduce(n, acc::bit_and, ACC_LAMBDA(int i) { return x[i]; });
}
