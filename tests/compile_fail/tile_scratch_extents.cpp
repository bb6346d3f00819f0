// expect: acc::scratch: extents must be integers
#include <acc/parallel.hpp>

void f(acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::scratch<float>(64.0),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<float, 1>& s) {
                   acc::tile_for(t, [&](int i) { y[i] = s(i - t.origin()); });
                 });
}
