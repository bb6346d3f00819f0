// expect: acc::parallel_loop: the body must take each reduction variable by reference \(T&\), in clause order
#include <acc/parallel.hpp>

// The second reduction is taken as const&: it can only be read, so nothing would be reduced.
void f(const double* x, double& sum, double& top) {
  acc::parallel_loop(16, acc::reduction(acc::plus, sum), acc::reduction(acc::maximum, top),
                     ACC_LAMBDA(int i, double& s, const double& t) { s += x[i] + t; });
}
