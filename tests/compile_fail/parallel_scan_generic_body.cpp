// expect: acc::parallel_scan: cannot tell the scanned type from the body
#include <acc/parallel.hpp>

struct generic {
  template <class P>
  ACC_ROUTINE void operator()(int, P& p, bool) const { p += 1; }
};

long f() { return acc::parallel_scan(10, generic{}); }
