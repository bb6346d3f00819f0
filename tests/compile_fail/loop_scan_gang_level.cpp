// expect: acc::loop_scan: the level must be acc::worker, acc::vector or acc::worker_vector; scan across gangs with acc::parallel_scan
#include <acc/parallel.hpp>

void f(const int* x, int* out) {
  acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop_scan(g, acc::gang, 100, acc::plus, [&](int i, int& p, bool final) {
      if (final) out[i] = p;
      p += x[i];
    });
  });
}
