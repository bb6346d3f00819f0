// expect: acc::parallel: with reduction clauses the body takes the gang and then one T& per reduction
#include <acc/parallel.hpp>

void f(const double* x, int n) {
  double sum = 0;
  acc::parallel(acc::reduction(acc::plus, sum), ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, n, [&](int i) { (void)x[i]; });
  });
}
