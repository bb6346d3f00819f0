// expect: acc::parallel: the body is a plain lambda, which nvcc cannot make a kernel of
// only: cuda
#include <acc/parallel.hpp>

void f(acc::array<float> y, int n) {
  acc::parallel([=](const acc::gang_t& g) { acc::loop(g, acc::gang, n, [&](int i) { y[i] = 0; }); });
}
