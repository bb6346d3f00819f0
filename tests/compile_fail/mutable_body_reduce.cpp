// expect: acc::parallel_reduce: the body is a mutable lambda.*read-only \(firstprivate\)
#include <acc/parallel.hpp>

long f(acc::view<const long> x, int n) {
  long seen = 0;
  return acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(int i) mutable { return x[i] + seen++; });
}
