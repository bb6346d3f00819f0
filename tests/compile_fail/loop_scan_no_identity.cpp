// expect: acc::loop_scan: the operator needs an identity
#include <acc/parallel.hpp>

struct plain_max {
  ACC_ROUTINE int operator()(int a, int b) const { return a < b ? b : a; }
};

void f(const int* x, int* out) {
  acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop_scan(g, acc::vector, 100, plain_max{}, [&](int i, int& p, bool final) {
      if (final) out[i] = p;
      p = p < x[i] ? x[i] : p;
    });
  });
}
