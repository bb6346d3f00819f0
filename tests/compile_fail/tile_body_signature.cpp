// expect: acc::tile_loop: the body must take the indices and then one cached_view per cached\(\) clause
#include <acc/parallel.hpp>

void f(acc::array<float, 2> a, acc::array<float, 2> b) {
  // The view of the cached clause is missing from the body's parameters.
  acc::tile_loop(acc::collapse(64, 64), acc::tile_size(16, 16), acc::cached(a, acc::fetch, acc::halo(1, 1), acc::halo(1, 1)),
                 ACC_LAMBDA(int i, int j) { b(i, j) = 0; });
}
