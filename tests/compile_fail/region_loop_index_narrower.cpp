// expect: acc::loop: the body's index parameter cannot hold every index.*acc: the body takes its index as int but the extent's index type is long
#include <acc/parallel.hpp>

void f(acc::array<float> y, long n) {
  acc::parallel(ACC_LAMBDA(const acc::gang_t& g) { acc::loop(g, acc::gang_vector, n, [&](int i) { y[i] = 0; }); });
}
