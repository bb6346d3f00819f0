// expect: acc::array: index with one integer per dimension
#include <acc/parallel.hpp>

// A rank-2 array indexed with one index.
double f(const acc::array<double, 2>& m) {
  return m(1);
}
