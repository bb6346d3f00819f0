// expect: acc::parallel_loop: the body's reduction parameters must be references it can write, T& s or auto& s
// only: serial
#include <acc/parallel.hpp>

// A generic reduction parameter taken by value would add into a copy and leave the sum 0.
// g++ only: nvcc does not take a generic extended lambda here.
double f(acc::view<const double> x, int n) {
  double s = 0;
  acc::parallel_loop(n, acc::reduction(acc::plus, s), [=](int i, auto r) { r += x[i]; });
  return s;
}
