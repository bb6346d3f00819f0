// expect: acc::cached: give one range per dimension of the array
#include <acc/parallel.hpp>

void f(acc::array<float, 2> a) {
  (void)acc::cached(a, acc::fetch, acc::halo(1, 1));
}
