/* The two error checks of the CUDA samples' helper_cuda.h that Rodinia's cfd uses (the samples
 * are not part of the CUDA toolkit). */
#pragma once
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

inline void bench_check_(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
    std::exit(1);
  }
}
#define checkCudaErrors(call) bench_check_((call), #call, __FILE__, __LINE__)
#define getLastCudaError(msg) bench_check_(cudaGetLastError(), (msg), __FILE__, __LINE__)
