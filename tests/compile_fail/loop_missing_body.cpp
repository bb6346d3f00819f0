// expect: acc::parallel_loop: the loop body is missing
#include <acc/parallel.hpp>

void f() { acc::parallel_loop(16); }
