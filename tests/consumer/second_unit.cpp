// A second translation unit of the header-only consumer: the runtime defined inline in both
// must link as one, with one present table (main checks the array entered here).
#include <acc/parallel.hpp>

const int* entered_elsewhere() {
  static acc::array<int> a("elsewhere", 100);
  acc::enter_data(acc::copyin(a));
  return a.data();
}
