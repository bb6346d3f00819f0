// expect: acc::parallel_loop: the body is a mutable lambda.*drop mutable and change a local copy
#include <acc/parallel.hpp>

void f(acc::array<int> a, int n) {
  int step = 1;
  acc::parallel_loop(n, ACC_LAMBDA(int i) mutable { a[i] = step++; });
}
