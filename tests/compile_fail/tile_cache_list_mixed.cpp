// expect: acc::cache: in the list form every argument after the tile is an acc::section
#include <acc/parallel.hpp>

void f(acc::array<float, 2> a, acc::array<float, 2> b, acc::array<float, 2> y) {
  acc::tile_loop(acc::collapse(16, 16), acc::tile_size(16, 16), acc::cache_bytes(2048), ACC_LAMBDA(const acc::tile_t<2>& t) {
    const auto v = acc::cache(t, acc::section(a, acc::fixed(0, 16), acc::fixed(0, 16)), b, acc::fixed(0, 16));
    acc::tile_for(t, [&](int i, int j) { y(i, j) = v.get<0>()(i, j); });
  });
}
