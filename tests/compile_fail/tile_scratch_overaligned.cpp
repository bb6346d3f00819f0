// expect: acc::scratch: T is aligned to more than 16 bytes, which team memory does not guarantee
#include <acc/parallel.hpp>

// Team memory starts on 16 bytes; a 64-byte aligned type placed there would be misaligned.
struct alignas(64) line {
  double v[8];
};

void f() {
  acc::tile_loop(64, acc::tile_size(8), acc::scratch<line>(2),
                 ACC_LAMBDA(const acc::tile_t<1>&, const acc::cached_view<line, 1>&) {});
}
