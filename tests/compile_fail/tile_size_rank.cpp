// expect: acc::tile_loop: tile_size must have one extent per dimension of the iteration space
#include <acc/parallel.hpp>

void f(acc::array<float, 2> b) {
  acc::tile_loop(acc::collapse(64, 64), acc::tile_size(256), ACC_LAMBDA(int i, int j) { b(i, j) = 0; });
}
