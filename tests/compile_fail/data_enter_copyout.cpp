// expect: acc::enter_data: copyout and delete_ are acc::exit_data clauses
#include <acc/parallel.hpp>

void f(acc::array<double>& a) {
  acc::enter_data(acc::copyout(a));
}
