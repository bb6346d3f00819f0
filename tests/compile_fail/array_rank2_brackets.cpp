// expect: acc::array: a\[i\] is for rank 1; write a\(i, j\) for rank 2
#include <acc/parallel.hpp>

// C's a[i][j] on a rank-2 array: the message comes before the compiler's error on [j].
void f(acc::array<double, 2> a, int n) {
  acc::parallel_loop(acc::collapse(n, n), ACC_LAMBDA(int i, int j) { a[i][j] = 0; });
}
