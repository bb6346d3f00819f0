// The benchmarks' CUDA error check: a failed call ends the run with its file, line and error,
// since a number measured after an error means nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                      \
  do {                                                                                                   \
    if (cudaError_t e_ = (call); e_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                                      \
    }                                                                                                    \
  } while (0)
