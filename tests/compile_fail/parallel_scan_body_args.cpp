// expect: acc::parallel_scan: body must take \(i, T& partial, bool final\)
#include <acc/parallel.hpp>

template <class T>
struct two_args {
  ACC_ROUTINE void operator()(int, T&) const {}
};

long f() { return acc::parallel_scan<long>(10, two_args<long>{}); }
