// expect: acc::parallel_loop: the body returns a value, which parallel_loop would discard
#include <acc/parallel.hpp>

// Meant as a reduction: the values would be thrown away.
void f(acc::array<double> x, int n) { acc::parallel_loop(n, ACC_LAMBDA(int i) { return x[i] * 2; }); }
