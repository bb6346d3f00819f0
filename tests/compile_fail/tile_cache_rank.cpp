// expect: acc::cache: the array.s rank exceeds the tile.s
#include <acc/parallel.hpp>

void f(acc::array<float, 2> a, acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::cache_bytes(1024), ACC_LAMBDA(const acc::tile_t<1>& t) {
    auto c = acc::cache(t, a, acc::fixed(0, 4));
    acc::tile_for(t, [&](int i) { y[i] = c(0, i); });
  });
}
