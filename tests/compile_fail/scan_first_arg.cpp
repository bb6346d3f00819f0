// expect: acc::inclusive_scan / exclusive_scan: the first argument must be a pointer \(first, n, out\) or an acc::array / acc::view \(a, b\)
#include <acc/parallel.hpp>

#include <vector>

void f(std::vector<int>& x, std::vector<int>& y) {
  acc::inclusive_scan(x, y);
}
