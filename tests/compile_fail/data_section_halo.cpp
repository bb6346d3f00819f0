// expect: acc::section: a section with acc::halo ranges is relative to a tile's iterations
#include <acc/parallel.hpp>

// A halo range names elements around each tile's iterations, so no data clause can map it.
void f(acc::array<double, 2> a) {
  acc::data region{acc::copyin(acc::section(a, acc::halo(1, 1), acc::fixed(0, 8)))};
}
