/* Kernel-section timer that bench/rodinia.sh patches into scratch copies of Rodinia's CUDA
 * programs: bench_start() and bench_stop() bracket each kernel section, as acc's ports time
 * theirs (steady clock, the device idle at the start and drained at the end, transfers outside).
 * The sections of one translation unit add up; at exit each unit that timed something prints
 * "bench-kernel-seconds: S", and the script adds the lines up. Plain C, for .c and .cu files. */
#ifndef BENCH_TIMER_H
#define BENCH_TIMER_H

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double bench_t0_, bench_total_;
static int bench_sections_;

static double bench_now_(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void bench_report_(void) {
  printf("bench-kernel-seconds: %.6f (%d sections)\n", bench_total_, bench_sections_);
  fflush(stdout);
}

/* Drains the device; a failure (no device, a failed launch) is printed for the script to see. */
static void bench_drain_(void) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaPeekAtLastError();
  if (e != cudaSuccess) printf("bench-kernel-error: %s\n", cudaGetErrorString(e));
}

static void bench_start(void) {
  if (bench_sections_++ == 0) atexit(bench_report_);
  bench_drain_();
  bench_t0_ = bench_now_();
}

static void bench_stop(void) {
  bench_drain_();
  bench_total_ += bench_now_() - bench_t0_;
}

#endif
