// expect: acc::parallel_scan: takes no data clauses
#include <acc/parallel.hpp>

long f(acc::view<long> y) {
  return acc::parallel_scan(16, acc::copyin(y), ACC_LAMBDA(int i, long& partial, bool) { partial += y[i]; });
}
