// expect: acc::parallel_loop: with reduction clauses the body takes the indices and then one T& per reduction
#include <acc/parallel.hpp>

void f(const double* x, double& sum) {
  acc::parallel_loop(16, acc::reduction(acc::plus, sum), ACC_LAMBDA(int i) { (void)x[i]; });
}
