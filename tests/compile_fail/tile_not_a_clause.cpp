// expect: acc::tile_loop: an argument between the extent and the body is not a tile_loop clause
#include <acc/parallel.hpp>

void f(acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), 3, ACC_LAMBDA(int i) { y[i] = 0; });
}
