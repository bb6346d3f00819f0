// expect: acc::parallel_reduce: the initial value's type holds values that the type the body returns cannot
// warning
#include <acc/parallel.hpp>

double f(acc::view<const int> x, int n) {
  return acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(int i) { return x[i]; }, 0.5);
}
