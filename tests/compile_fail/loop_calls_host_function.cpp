// expect: calling a __host__ function\("weight\(double\)"\) from a __host__ __device__ function
// only: cuda
#include <acc/parallel.hpp>

// Not ACC_ROUTINE: nvcc alone only warns (20011) and compiles the kernel without the call;
// acc makes it an error in every unit that includes it (detail/config.hpp), as acc::headers'
// --Werror cross-execution-space-call does.
double weight(double v) { return v * 0.5; }

void f(acc::array<double> x, int n) {
  acc::parallel_loop(n, ACC_LAMBDA(int i) { x[i] = weight(x[i]); });
}
