// expect: acc::parallel_loop: shared_bytes applies to acc::parallel regions
#include <acc/parallel.hpp>

void f(double* out) {
  acc::parallel_loop(16, acc::shared_bytes(1024), ACC_LAMBDA(int i) { out[i] = 0; });
}
