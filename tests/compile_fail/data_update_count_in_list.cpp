// expect: acc::update_device: a number in a list must be an ACC_DECLARE variable, not a temporary
#include <acc/parallel.hpp>

void f(acc::view<double> v) { acc::update_device(v, v.size()); }
