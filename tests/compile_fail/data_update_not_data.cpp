// expect: acc::update_device: takes an acc::array, acc::view or acc::section
#include <acc/parallel.hpp>

// update_device names present data by array, view or section, not by a bare pointer.
void f(double* p) {
  acc::update_device(p);
}
