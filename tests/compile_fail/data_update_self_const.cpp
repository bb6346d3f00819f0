// expect: acc::update_self: the elements are const, so nothing may be copied into them
#include <acc/parallel.hpp>

// update_self writes host memory: a view of const elements is read-only data.
void f(acc::view<const double> input) { acc::update_self(input, acc::async(1)); }
