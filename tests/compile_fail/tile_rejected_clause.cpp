// expect: acc::tile_loop: num_workers, shared_bytes and reduction do not apply to tile_loop
#include <acc/parallel.hpp>

void f(acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::num_workers(4), ACC_LAMBDA(int i) { y[i] = 0; });
}
