// expect: acc::data: an array or view was passed without a data clause
#include <acc/parallel.hpp>

// A data region names what to do with each array: acc::copy(a), not a.
void f(acc::array<double>& a) {
  acc::data region{a};
}
