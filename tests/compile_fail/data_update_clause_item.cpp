// expect: acc::update_self: a list takes acc::array, acc::view, acc::section
#include <acc/parallel.hpp>

// finalize is a clause of exit_data, not something to update: acc's clause objects are not
// ACC_DECLARE variables.
void f(acc::array<double>& a) {
  acc::update_self(a, acc::finalize);
}
