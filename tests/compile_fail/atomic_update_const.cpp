// expect: acc::atomic_update / atomic_capture: x is const; they need a modifiable lvalue
#include <acc/parallel.hpp>

void f(const double& x) { acc::atomic_update(x, acc::plus, 1.0); }
