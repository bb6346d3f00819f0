// expect: acc::reduction: the variable's type is an array
#include <acc/parallel.hpp>

// OpenACC's reduction(+:hist[0:8]): acc reduces scalars and structs, not arrays.
void f(acc::array<int> hist, int n) {
  acc::parallel_loop(n, acc::reduction(acc::plus, hist), ACC_LAMBDA(int i, acc::array<int>& h) { h[i % 8] += 1; });
}
