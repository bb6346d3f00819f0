// expect: acc::parallel_scan: the body takes its partial by value, so what it adds is lost
#include <acc/parallel.hpp>

// The partial is a copy: the additions would never reach the scan.
long f() {
  return acc::parallel_scan<long>(100, ACC_LAMBDA(int, long p, bool) { p += 1; });
}
