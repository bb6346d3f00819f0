// expect: acc: a long double reduction cannot run on a GPU
// only: cuda
#include <acc/parallel.hpp>

long double f(acc::array<long double> a, int n) {
  long double s = 0;
  acc::parallel_loop(n, acc::reduction(acc::plus, s), ACC_LAMBDA(int i, long double& t) { t += a[i]; });
  return s;
}
