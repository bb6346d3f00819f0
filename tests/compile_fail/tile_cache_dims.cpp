// expect: acc::cache: acc::tile_dims<...> must name distinct dimensions of the tile, each below its rank
#include <acc/parallel.hpp>

void f(acc::array<float> x, acc::array<float, 2> y) {
  acc::tile_loop(acc::collapse(64, 64), acc::tile_size(16, 16), acc::cache_bytes(1024),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   auto c = acc::cache(t, acc::tile_dims<2>, x, acc::halo(1, 1));
                   acc::tile_for(t, [&](int i, int j) { y(i, j) = c(j); });
                 });
}
