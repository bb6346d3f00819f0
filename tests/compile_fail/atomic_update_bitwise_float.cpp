// expect: acc::atomic_update / atomic_capture: bit_and, bit_or, bit_xor, shift_left and shift_right need an integer x
#include <acc/parallel.hpp>

void f(float& x) { acc::atomic_update(x, acc::bit_or, 1.0f); }
