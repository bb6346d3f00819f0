// expect: acc::loop_scan: body must take \(i, T& partial, bool final\)
#include <acc/parallel.hpp>

void f(const int* x, int* out) {
  acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
    const int total = acc::loop_scan<int>(g, acc::vector, 100, acc::plus, [&](int i) { (void)x[i]; });
    acc::single(g, acc::per_gang, [&] { out[0] = total; });
  });
}
