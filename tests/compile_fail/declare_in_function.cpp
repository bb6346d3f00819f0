// expect: ACC_DECLARE: the global scale is declared inside a function
#include <acc/parallel.hpp>

// A declare in a function would be a local variable: constructs capture a copy of it, and the
// present table would keep its address after the frame is gone.
void f(acc::array<float> y, int n) {
  ACC_DECLARE(float, scale);
  scale = 2;
  acc::update_device(scale);
  acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] *= scale; });
}
