// expect: acc::exit_data: copyin and create are acc::enter_data clauses
#include <acc/parallel.hpp>

void f(acc::array<double>& a) {
  acc::exit_data(acc::copyin(a));
}
