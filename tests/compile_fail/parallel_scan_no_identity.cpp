// expect: acc::parallel_scan: the operator has no identity
#include <acc/parallel.hpp>

struct plain_max {
  ACC_ROUTINE long operator()(long a, long b) const { return a < b ? b : a; }
};

long f(const long* x) {
  return acc::parallel_scan(10, plain_max{}, ACC_LAMBDA(int i, long& p, bool) { p = p < x[i] ? x[i] : p; });
}
