// expect: assignment of read-only location|expression must be a modifiable lvalue
#include <acc/parallel.hpp>

// acc::cache's view is read-only: on a GPU a write would stay in shared memory, on the host it
// would reach the array.
void f(acc::array<int> a, acc::array<int> out) {
  acc::tile_loop(16, acc::tile_size(8), acc::cache_bytes(64), ACC_LAMBDA(const acc::tile_t<1>& t) {
    auto c = acc::cache(t, a, acc::halo(0, 0));
    acc::tile_for(t, [&](int i) {
      c(i) = 100 + i;
      out[i] = c(i);
    });
  });
}
