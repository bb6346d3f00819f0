// expect: acc::loop_scan: acc::seq has no threads to scan across
#include <acc/parallel.hpp>

void f(const int* x, int* out) {
  acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop_scan(g, acc::seq, 100, acc::plus, [&](int i, int& p, bool final) {
      if (final) out[i] = p;
      p += x[i];
    });
  });
}
