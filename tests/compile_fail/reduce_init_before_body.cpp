// expect: acc::parallel_reduce: the initial value comes last: parallel_reduce\(extent, op, body, init\)
#include <acc/parallel.hpp>

double f(acc::array<double> x, int n) {
  return acc::parallel_reduce(n, acc::plus, 0.0, ACC_LAMBDA(int i) { return x[i]; });
}
