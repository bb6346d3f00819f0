// expect: acc::loop_reduce: acc::bit_and, bit_or and bit_xor need an integer type
#include <acc/parallel.hpp>

void f(const double* x, int n) {
  acc::parallel(acc::num_gangs(2), ACC_LAMBDA(const acc::gang_t& g) {
    const double r = acc::loop_reduce(g, acc::vector, n, acc::bit_or, [&](int j) { return x[j]; });
    (void)r;
  });
}
