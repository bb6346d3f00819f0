// Uses the globals that defines.cpp defines, through their ACC_DECLARE_EXTERN declarations.
#include "declared.hpp"

void scale_on_device(acc::array<double> x, acc::array<double> y) {
  const int n = static_cast<int>(x.size());
  acc::parallel_loop(n, ACC_LAMBDA(int i) { y[i] = shared_scale * x[i] + shared_table[i % 16]; });
}
