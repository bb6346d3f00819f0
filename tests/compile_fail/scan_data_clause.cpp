// expect: acc::inclusive_scan / exclusive_scan: takes no data clauses
#include <acc/parallel.hpp>

void f(acc::view<float> y, acc::view<float> z) {
  acc::inclusive_scan(y, z, acc::copyin(y));
}
