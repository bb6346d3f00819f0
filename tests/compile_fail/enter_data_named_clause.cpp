// expect: acc::enter_data: takes at least one data clause \(copyin or create\).*write acc::enter_data\{c\}
#include <acc/parallel.hpp>

// C++ reads acc::enter_data(c); as the declaration of a variable c (acc::enter_data is a class
// template so that the call site can follow the clause pack): an enter_data of no clause.
void f(acc::array<int> a) {
  const auto c = acc::copyin(a);
  {
    acc::enter_data(c);
  }
}
