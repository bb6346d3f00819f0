// expect: acc::tile_loop: acc::num_workers is not a clause of this construct; it accepts tile_size, cached
#include <acc/parallel.hpp>

void f(acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::num_workers(4), ACC_LAMBDA(int i) { y[i] = 0; });
}
