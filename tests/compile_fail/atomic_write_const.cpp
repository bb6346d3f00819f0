// expect: acc::atomic_write: x is const; an atomic write needs a modifiable lvalue
#include <acc/parallel.hpp>

void f(const int& x) { acc::atomic_write(x, 4); }
