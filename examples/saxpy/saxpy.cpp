// SAXPY, y = a * x + y: the smallest acc program. Verifies every element against a
// sequential loop and prints where it ran.
//   saxpy [n]   (default 2^24 + 3: not a multiple of any block size)
#include <acc/parallel.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

// Why the program ran where it did, for someone who expected a GPU.
const char* why_here(bool gpu) {
  if (gpu) return "";
#if !defined(__CUDACC__)
  return " (built without nvcc: this binary has only the host backend)";
#else
  const char* env = std::getenv("ACC_DEVICE_TYPE");
  if (env && std::strcmp(env, "host") == 0) return " (ACC_DEVICE_TYPE=host)";
  if (env && std::strcmp(env, "multicore") == 0) return " (ACC_DEVICE_TYPE=multicore)";
  if (acc::get_num_devices(acc::device_type::nvidia) == 0) return " (no NVIDIA GPU found: the CUDA build falls back to the host)";
  return " (acc::set_device_type chose the host)";
#endif
}

int main(int argc, char** argv) try {
  const long n = argc > 1 ? std::atol(argv[1]) : (1L << 24) + 3;
  const float a = 2.5f;
  acc::array<float> x("x", n), y("y", n);
  for (long i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000) * 0.5f;
    y[i] = static_cast<float>(i % 7);
  }

  {
    // OpenACC: #pragma acc data copyin(x[0:n]) copy(y[0:n])
    acc::data region{acc::copyin(x), acc::copy(y)};
    // OpenACC: #pragma acc parallel loop present(x, y)
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(long i) { y[i] = a * x[i] + y[i]; });
  }  // y is copied back here

  long wrong = 0;
  for (long i = 0; i < n; ++i) {
    // Each term is exact in float (multiples of 0.5 times 2.5, below 2^24), so fma or not,
    // every backend must produce the same bits.
    const float expect = a * (static_cast<float>(i % 1000) * 0.5f) + static_cast<float>(i % 7);
    wrong += y[i] != expect;
  }
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("saxpy: n = %ld on %s device %d%s: %s\n", n, gpu ? "nvidia" : "host",
              acc::get_device_num(acc::get_device_type()), why_here(gpu), wrong ? "FAILED" : "verified");
  if (wrong) std::printf("saxpy: %ld elements differ from the sequential result\n", wrong);
  return wrong ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "saxpy: %s\n", e.what());
  return 1;
}
