// A shared library built with hidden visibility (as pybind11 modules are) that compiles acc
// inline: it must share the program's runtime, so that data the program entered is present here
// and data entered here is present to the program.
#include <acc/parallel.hpp>

#define EXPORTED __attribute__((visibility("default")))

EXPORTED void library_enter(acc::array<double> a) { acc::enter_data(acc::copyin(a)); }

EXPORTED double library_sum_present(acc::array<double> a) {
  return acc::parallel_reduce(a.size(), acc::default_present, acc::plus, ACC_LAMBDA(std::size_t i) { return a[i]; });
}
