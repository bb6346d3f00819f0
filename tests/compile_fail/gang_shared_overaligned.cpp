// expect: acc::gang_t::shared: T is aligned to more than 16 bytes, which team memory does not guarantee
#include <acc/parallel.hpp>

// Team memory starts on 16 bytes; a 32-byte aligned type placed there would be misaligned.
struct alignas(32) quad {
  double v[4];
};

void f() {
  acc::parallel(acc::num_gangs(1), acc::shared_bytes(64), ACC_LAMBDA(const acc::gang_t& g) {
    auto q = g.shared<quad>(1);
    q[0].v[0] = 1;
  });
}
