// expect: acc::parallel_reduce: a clause comes after the initial value; clauses come first
#include <acc/parallel.hpp>

long f(const long* x, int n) {
  return acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(int i) { return x[i]; }, 0L, acc::async(1));
}
