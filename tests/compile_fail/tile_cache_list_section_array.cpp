// expect: acc::section: with ranges the array must be an acc::array or acc::view
#include <acc/parallel.hpp>

void f(float* p, acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::cache_bytes(1024), ACC_LAMBDA(const acc::tile_t<1>& t) {
    const auto v = acc::cache(t, acc::section(p, acc::fixed(0, 64)));
    acc::tile_for(t, [&](int i) { y[i] = v.get<0>()(i); });
  });
}
