// expect: acc::parallel_scan: the first argument must be an iteration count \(an integer\) or acc::range\(lo, hi\)
#include <acc/parallel.hpp>

long f() {
  return acc::parallel_scan(acc::collapse(4, 4), ACC_LAMBDA(int i, long& p, bool) { p += i; });
}
