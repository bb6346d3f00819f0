// expect: acc::parallel_loop: the body must take each reduction variable by reference \(T&\), in clause order
#include <acc/parallel.hpp>

// `double s` receives a copy of the private sum: the loop would compile and reduce nothing.
void f(const double* x, double& sum) {
  acc::parallel_loop(16, acc::reduction(acc::plus, sum), ACC_LAMBDA(int i, double s) { s += x[i]; });
}
