// expect: acc::parallel_loop: the body takes its index by reference; indices are values
#include <acc/parallel.hpp>

void f(acc::array<double> x, int n) { acc::parallel_loop(n, ACC_LAMBDA(int& i) { x[i] = 1; }); }
