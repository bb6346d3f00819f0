// expect: acc::parallel_reduce: the body returns bool, and the reduction is computed in the type the body returns, so acc::plus would give at most 1
#include <acc/parallel.hpp>

long f(acc::view<const double> x, int n) {
  return acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(int i) { return x[i] >= 50; }, 0L);
}
