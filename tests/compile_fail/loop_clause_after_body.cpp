// expect: acc::parallel_loop: a clause comes after the body; clauses come first
#include <acc/parallel.hpp>

void f(acc::array<double> x, int n) { acc::parallel_loop(n, ACC_LAMBDA(int i) { x[i] = 1; }, acc::async(1)); }
