// expect: acc::parallel_loop: the body's index parameter cannot hold every index.*acc: the body takes its index as short but the extent's index type is long
#include <acc/parallel.hpp>

void f(acc::array<float, 2> y, long ni, long nj) {
  acc::parallel_loop(acc::collapse(ni, nj), ACC_LAMBDA(long i, short j) { y(i, j) = 0; });
}
