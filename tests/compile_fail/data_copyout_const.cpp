// expect: acc::copyout: the elements are const, so nothing may be copied into them
#include <acc/parallel.hpp>

void f(const double* p, int n) { acc::exit_data(acc::copyout(p, n)); }
