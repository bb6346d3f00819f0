// expect: acc::tile_for: the function must take one index per dimension of the tile
#include <acc/parallel.hpp>

void f(acc::array<float, 2> y) {
  acc::tile_loop(acc::collapse(64, 64), acc::tile_size(16, 16), ACC_LAMBDA(const acc::tile_t<2>& t) {
    acc::tile_for(t, [&](int i) { y(i, 0) = 0; });
  });
}
