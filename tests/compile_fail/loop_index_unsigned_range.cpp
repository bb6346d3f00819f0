// expect: acc::parallel_loop: the body's index parameter cannot hold every index.*acc: the body takes its index as unsigned int but the extent's index type is int; a narrower index would wrap
#include <acc/parallel.hpp>

// A range of a signed type may start below 0, which unsigned cannot hold.
void f(acc::array<float> y, int lo, int hi) {
  acc::parallel_loop(acc::range(lo, hi), ACC_LAMBDA(unsigned i) { y[i] = 0; });
}
