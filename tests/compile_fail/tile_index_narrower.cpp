// expect: acc::tile_loop: the body's index parameter cannot hold every index.*acc: the body takes its index as int but the extent's index type is long
#include <acc/parallel.hpp>

void f(acc::array<float> y, long n) {
  acc::tile_loop(n, acc::tile_size(256), ACC_LAMBDA(int i) { y[i] = 0; });
}
