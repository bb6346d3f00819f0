// expect: acc::scratch: the element type must be a non-const object type
#include <acc/parallel.hpp>

void f(acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::scratch<const float>(64),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<const float, 1>& s) {
                   acc::tile_for(t, [&](int i) { y[i] = s(i - t.origin()); });
                 });
}
