// expect: acc::parallel_reduce: acc::reduction is not a clause of this construct; it accepts num_gangs
#include <acc/parallel.hpp>

double f(const double* x) {
  double m = 0;
  return acc::parallel_reduce(16, acc::reduction(acc::maximum, m), acc::plus, ACC_LAMBDA(int i) { return x[i]; });
}
