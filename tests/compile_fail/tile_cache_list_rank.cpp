// expect: acc::cache: a section.s array has a higher rank than the tile
#include <acc/parallel.hpp>

void f(acc::array<float, 2> a, acc::array<float> x, acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::cache_bytes(2048), ACC_LAMBDA(const acc::tile_t<1>& t) {
    const auto v = acc::cache(t, acc::section(x, acc::fixed(0, 64)), acc::section(a, acc::fixed(0, 4), acc::fixed(0, 4)));
    acc::tile_for(t, [&](int i) { y[i] = v.get<0>()(i); });
  });
}
