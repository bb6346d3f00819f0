// expect: acc::parallel_loop: the body is a device-only lambda, which the host cannot run
// only: cuda
#include <acc/parallel.hpp>

// A CUDA habit: acc runs every body on the host too (no GPU, if_(false), ACC_DEVICE_TYPE=host).
void f(acc::array<double> x, int n) { acc::parallel_loop(n, [=] __device__(int i) { x[i] = 1; }); }
