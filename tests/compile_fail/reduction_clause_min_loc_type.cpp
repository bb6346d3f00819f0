// expect: acc::reduction: acc::min_loc and max_loc reduce an acc::loc_t<T, Index>
#include <acc/parallel.hpp>

void f(const double* x, int n, double& lowest) {
  acc::parallel_loop(n, acc::reduction(acc::min_loc, lowest), ACC_LAMBDA(int i, double& m) { m = x[i] < m ? x[i] : m; });
}
