// expect: acc::parallel: the body must take the gang: ACC_LAMBDA\(const acc::gang_t& g\)
#include <acc/parallel.hpp>

void f(double* out) {
  acc::parallel(acc::num_gangs(4), ACC_LAMBDA(int i) { out[i] = 0; });
}
