// expect: acc::section: give either only ranges after the array
#include <acc/parallel.hpp>

void f(acc::array<float, 2> a, acc::array<float, 2> y) {
  acc::tile_loop(acc::collapse(16, 16), acc::tile_size(16, 16), acc::cache_bytes(1024), ACC_LAMBDA(const acc::tile_t<2>& t) {
    const auto v = acc::cache(t, acc::section(a, acc::fixed(0, 16), 16));
    acc::tile_for(t, [&](int i, int j) { y(i, j) = v.get<0>()(i, j); });
  });
}
