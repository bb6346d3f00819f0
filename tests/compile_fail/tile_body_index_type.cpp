// expect: acc::tile_loop: the iteration space's index type is long, so the tile-level body takes const acc::tile_t<1, long>&
#include <acc/parallel.hpp>

void f(acc::array<float> a, long n) {
  // The extent is a long, so the tile is tile_t<1, long>; tile_t<1> is tile_t<1, int>.
  acc::tile_loop(n, acc::tile_size(128), ACC_LAMBDA(const acc::tile_t<1>& t) {
    acc::tile_for(t, [&](int i) { a[i] = 0; });
  });
}
