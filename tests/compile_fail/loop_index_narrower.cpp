// expect: acc::parallel_loop: the body's index parameter cannot hold every index.*acc: the body takes its index as int but the extent's index type is long; a narrower index would wrap: take long
#include <acc/parallel.hpp>

// Above 2^31 iterations an int index would go negative.
void f(acc::array<float> y, long n) {
  acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] = 0; });
}
