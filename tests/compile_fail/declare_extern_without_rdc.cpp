// expect: ACC_DECLARE_EXTERN: the global tolerance is shared between source files, and under nvcc that needs relocatable device code
// only: cuda
#include <acc/parallel.hpp>

// Another file defines ACC_DECLARE(double, tolerance); without -rdc=true no kernel of this file
// could read its device copy.
ACC_DECLARE_EXTERN(double, tolerance);

void f(acc::array<double> y, int n) {
  acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] *= tolerance; });
}
