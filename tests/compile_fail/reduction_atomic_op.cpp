// expect: acc::reduction: acc::minus, divides, shift_left and shift_right are atomic_update operators, not reduction operators
#include <acc/parallel.hpp>

// minus is not associative: it can update one location atomically but not reduce.
void f(const double* x, double& s) {
  acc::parallel_loop(16, acc::reduction(acc::minus, s), ACC_LAMBDA(int i, double& p) { p -= x[i]; });
}
