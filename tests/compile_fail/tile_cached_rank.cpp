// expect: acc::tile_loop: a cached array's rank differs from the iteration space's
#include <acc/parallel.hpp>

void f(acc::array<float, 2> a, acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::cached(a, acc::fetch),
                 ACC_LAMBDA(int i, const acc::cached_view<float, 2>& c) { y[i] = c(i, 0); });
}
