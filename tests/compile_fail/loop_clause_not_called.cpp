// expect: acc::parallel_loop: an argument is a function, not a clause: call it, e.g. acc::async\(q\)
#include <acc/parallel.hpp>

void f(acc::array<double> x, int n) { acc::parallel_loop(n, acc::async, ACC_LAMBDA(int i) { x[i] = 1; }); }
