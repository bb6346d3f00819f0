// expect: acc::parallel_reduce: the body returns bool, so acc::plus adds bools in bool, which gives at most 1
// warning
#include <acc/parallel.hpp>

long f(acc::view<const double> x, int n) {
  return acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(int i) { return x[i] >= 50; }, 0L);
}
