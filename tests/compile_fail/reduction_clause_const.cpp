// expect: acc::reduction: the reduction variable is const
#include <acc/parallel.hpp>

int f(const int* x, int n) {
  const int s = 0;
  acc::parallel_loop(n, acc::reduction(acc::plus, s), ACC_LAMBDA(int i, int& v) { v += x[i]; });
  return s;
}
