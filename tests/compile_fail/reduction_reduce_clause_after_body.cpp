// expect: acc::parallel_reduce: a clause comes after the body; clauses come first
#include <acc/parallel.hpp>

double f(const double* x, int n) {
  return acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(int i) { return x[i]; }, acc::num_gangs(2));
}
