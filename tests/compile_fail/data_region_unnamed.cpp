// expect: acc::data: an unnamed region ends at once; name it: acc::data region
// warning
#include <acc/parallel.hpp>

// The temporary region is destroyed at the semicolon, before the loop it was meant to cover.
void f(acc::array<float> y, int n) {
  acc::data{acc::copy(y)};
  acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] = 0; });
}
