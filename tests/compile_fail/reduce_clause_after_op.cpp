// expect: acc::parallel_reduce: a clause comes after the operator; clauses come first
#include <acc/parallel.hpp>

double f(const double* x, int n) {
  return acc::parallel_reduce(n, acc::plus, acc::async(1), ACC_LAMBDA(int i) { return x[i]; }, 0.0);
}
