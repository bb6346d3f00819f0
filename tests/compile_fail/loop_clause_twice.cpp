// expect: acc::parallel_loop: a clause is given twice; give each once
#include <acc/parallel.hpp>

void f(double* out) {
  acc::parallel_loop(16, acc::async(1), acc::async(2), ACC_LAMBDA(int i) { out[i] = 0; });
}
