// STREAM-style memory bandwidth: acc::parallel_loop against a hand-written CUDA kernel and
// Thrust, on the kernels of BabelStream (https://github.com/UoB-HPC/BabelStream); the same
// kernels with BabelStream's OpenACC model's intptr_t index against CUDA twins (best and median);
// and its dot: the reduction clause and acc::parallel_reduce, each in its single-pass and
// two-kernel forms, against BabelStream's CUDA dot.
//   bench_stream [--log2 25,28] [--runs N] [--warmup N] [--dot-only]
// Exits 1 if any implementation computes a wrong result, 0 without a GPU (nothing to measure).
#include <acc/loop.hpp>
#include <acc/reduce.hpp>
#include <acc/runtime.hpp>
#include <acc/backend/cuda/single_pass.hpp>  // the reductions' form, switched per row of the dot table

#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

#include <cuda_runtime.h>

#include "check.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <utility>
#include <vector>


namespace {

// Initial values and scalar as BabelStream defines them, so results compare with its reports.
constexpr double init_a = 0.1, init_b = 0.2, init_c = 0.0, scalar = 0.4;
constexpr double tolerance = 1e-8;

enum kernel { copy, mul, add, triad, nstream, kernel_count };
constexpr const char* kernel_name[] = {"copy", "mul", "add", "triad", "nstream"};
// Arrays each kernel reads or writes once, BabelStream's byte count (nstream: a, b, c read, a written).
constexpr int arrays_moved[] = {2, 2, 3, 3, 4};

enum impl { acc_default, acc_vl1024, acc_vl256, cuda, thrust_, impl_count };
constexpr const char* impl_name[] = {"acc", "acc vl1024", "acc vl256", "cuda", "thrust"};

// acc's synchronous queue; every implementation runs on it so that they pay the same stream.
const cudaStream_t stream = cudaStreamPerThread;

struct arrays {
  double *a, *b, *c;
  int n;
};

// Baseline: one element per thread, as BabelStream's CUDA version, but in blocks of 256 rather
// than its 1024: on the H100, 256 was as fast or faster for every kernel (copy at 2^28: 2900
// against 2700 GB/s), so acc is held to the stronger hand-written kernel. Plain pointers, not
// __restrict__, because acc's lambdas capture plain pointers too.
constexpr int cuda_block = 256;

__global__ void init_k(double* a, double* b, double* c, int n) {
  if (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n) a[i] = init_a, b[i] = init_b, c[i] = init_c;
}
__global__ void copy_k(const double* a, double* c, int n) {
  if (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n) c[i] = a[i];
}
__global__ void mul_k(double* b, const double* c, double s, int n) {
  if (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n) b[i] = s * c[i];
}
__global__ void add_k(const double* a, const double* b, double* c, int n) {
  if (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n) c[i] = a[i] + b[i];
}
__global__ void triad_k(double* a, const double* b, const double* c, double s, int n) {
  if (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n) a[i] = b[i] + s * c[i];
}
__global__ void nstream_k(double* a, const double* b, const double* c, double s, int n) {
  if (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n) a[i] += b[i] + s * c[i];
}

template <class... Clauses>
void run_acc(kernel k, const arrays& d, Clauses... clauses) {
  double *a = d.a, *b = d.b, *c = d.c;
  const double s = scalar;
  switch (k) {
    case copy: acc::parallel_loop(d.n, clauses..., ACC_LAMBDA(int i) { c[i] = a[i]; }); break;
    case mul: acc::parallel_loop(d.n, clauses..., ACC_LAMBDA(int i) { b[i] = s * c[i]; }); break;
    case add: acc::parallel_loop(d.n, clauses..., ACC_LAMBDA(int i) { c[i] = a[i] + b[i]; }); break;
    case triad: acc::parallel_loop(d.n, clauses..., ACC_LAMBDA(int i) { a[i] = b[i] + s * c[i]; }); break;
    default: acc::parallel_loop(d.n, clauses..., ACC_LAMBDA(int i) { a[i] += b[i] + s * c[i]; }); break;
  }
}

void run_cuda(kernel k, const arrays& d) {
  const int grid = (d.n + cuda_block - 1) / cuda_block;
  switch (k) {
    case copy: copy_k<<<grid, cuda_block, 0, stream>>>(d.a, d.c, d.n); break;
    case mul: mul_k<<<grid, cuda_block, 0, stream>>>(d.b, d.c, scalar, d.n); break;
    case add: add_k<<<grid, cuda_block, 0, stream>>>(d.a, d.b, d.c, d.n); break;
    case triad: triad_k<<<grid, cuda_block, 0, stream>>>(d.a, d.b, d.c, scalar, d.n); break;
    default: nstream_k<<<grid, cuda_block, 0, stream>>>(d.a, d.b, d.c, scalar, d.n); break;
  }
  CHECK(cudaGetLastError());
}

void run_thrust(kernel k, const arrays& d) {
  const auto on = thrust::cuda::par_nosync.on(stream);  // synchronised by the caller, as the others
  double *a = d.a, *b = d.b, *c = d.c, *end = d.a + d.n;
  const double s = scalar;
  using triple = thrust::tuple<double, double, double>;
  switch (k) {
    case copy: thrust::transform(on, a, end, c, [] __host__ __device__(double x) { return x; }); break;
    case mul: thrust::transform(on, c, c + d.n, b, [=] __host__ __device__(double x) { return s * x; }); break;
    case add: thrust::transform(on, a, end, b, c, [] __host__ __device__(double x, double y) { return x + y; }); break;
    case triad:
      thrust::transform(on, b, b + d.n, c, a, [=] __host__ __device__(double x, double y) { return x + s * y; });
      break;
    default: {
      auto abc = thrust::make_zip_iterator(thrust::make_tuple(a, b, c));
      thrust::transform(on, abc, abc + d.n, a, [=] __host__ __device__(triple t) {
        return thrust::get<0>(t) + thrust::get<1>(t) + s * thrust::get<2>(t);
      });
    }
  }
  CHECK(cudaGetLastError());
}

// Each run ends synchronised: acc::parallel_loop without async returns only when its kernel
// is done, so the others wait too, and every time includes the same launch and sync latency.
void run(impl m, kernel k, const arrays& d) {
  switch (m) {
    case acc_default: run_acc(k, d); return;
    case acc_vl1024: run_acc(k, d, acc::vector_length(1024)); return;
    case acc_vl256: run_acc(k, d, acc::vector_length(256)); return;
    case cuda: run_cuda(k, d); break;
    default: run_thrust(k, d); break;
  }
  CHECK(cudaStreamSynchronize(stream));
}

// The values every element must hold, advanced by the same kernels in the same order.
struct gold {
  double a = init_a, b = init_b, c = init_c;
  void apply(kernel k) {
    switch (k) {
      case copy: c = a; break;
      case mul: b = scalar * c; break;
      case add: c = a + b; break;
      case triad: a = b + scalar * c; break;
      default: a += b + scalar * c; break;
    }
  }
};

// Elements off by more than `tolerance`, relatively; NaN counts as wrong.
long long wrong(const double* p, int n, double expected) {
  return thrust::count_if(thrust::cuda::par.on(stream), p, p + n, [=] __host__ __device__(double x) {
    return !(fabs(x - expected) <= tolerance * fabs(expected));
  });
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (double(v[m - 1]) + v[m]);
}

// Median milliseconds per kernel for one implementation; false if its arrays end up wrong.
bool measure(impl m, const arrays& d, int warmup, int runs, double (&ms)[kernel_count]) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  init_k<<<(d.n + cuda_block - 1) / cuda_block, cuda_block, 0, stream>>>(d.a, d.b, d.c, d.n);
  CHECK(cudaGetLastError());
  std::vector<float> times[kernel_count];
  gold g;
  // The five kernels take turns within an iteration, as BabelStream runs them, so that the
  // numbers are comparable with its reports.
  for (int it = 0; it < warmup + runs; ++it)
    for (int k = 0; k < kernel_count; ++k) {
      CHECK(cudaEventRecord(start, stream));
      run(m, kernel(k), d);
      CHECK(cudaEventRecord(stop, stream));
      CHECK(cudaEventSynchronize(stop));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (it >= warmup) times[k].push_back(t);
      g.apply(kernel(k));
    }
  for (int k = 0; k < kernel_count; ++k) ms[k] = median(times[k]);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  bool ok = true;
  const struct { const char* name; const double* p; double expected; } checks[] = {
      {"a", d.a, g.a}, {"b", d.b, g.b}, {"c", d.c, g.c}};
  for (const auto& [name, p, expected] : checks)
    if (long long bad = wrong(p, d.n, expected)) {
      std::fprintf(stderr, "%s, n=%d: %lld elements of %s differ from %.17g by more than %g relative\n",
                   impl_name[m], d.n, bad, name, expected, tolerance);
      ok = false;
    }
  return ok;
}

bool bench_size(int log2n, int warmup, int runs) {
  arrays d{nullptr, nullptr, nullptr, 1 << log2n};
  for (double** p : {&d.a, &d.b, &d.c}) CHECK(cudaMalloc(p, sizeof(double) * d.n));
  double ms[impl_count][kernel_count];
  bool ok = true;
  for (int m = 0; m < impl_count; ++m) ok &= measure(impl(m), d, warmup, runs, ms[m]);
  for (double* p : {d.a, d.b, d.c}) CHECK(cudaFree(p));

  auto gbs = [&](int m, int k) { return arrays_moved[k] * sizeof(double) * double(d.n) / (ms[m][k] * 1e6); };
  for (int k = 0; k < kernel_count; ++k)
    for (int m : {acc_default, acc_vl1024, acc_vl256})
      std::printf("%-8s 2^%-4d %-11s %10.1f %10.1f %10.1f %9.3f\n", kernel_name[k], log2n, impl_name[m], gbs(m, k),
                  gbs(cuda, k), gbs(thrust_, k), gbs(m, k) / gbs(cuda, k));
  std::fflush(stdout);
  return ok;
}

// ---- BabelStream's OpenACC model ------------------------------------------------------------
// copy, mul, add and triad as BabelStream's OpenACC version writes them: `parallel loop` over an
// intptr_t index (64-bit arithmetic in every address), against their CUDA twins with the same
// index type: BabelStream's CUDA shape (one element per thread, blocks of 1024, no bounds test,
// so n must be a multiple of 1024) and the 256-thread blocks of the table above. BabelStream
// reports the best run; both the best and the median of `runs` are printed.
constexpr int babel_block = 1024;
enum babel_impl { babel_acc, babel_cuda1024, babel_cuda256, babel_impl_count };
constexpr const char* babel_name[] = {"acc", "cuda 1024", "cuda 256"};

__global__ void babel_copy_k(const double* a, double* c) {
  const intptr_t i = intptr_t(blockIdx.x) * blockDim.x + threadIdx.x;
  c[i] = a[i];
}
__global__ void babel_mul_k(double* b, const double* c, double s) {
  const intptr_t i = intptr_t(blockIdx.x) * blockDim.x + threadIdx.x;
  b[i] = s * c[i];
}
__global__ void babel_add_k(const double* a, const double* b, double* c) {
  const intptr_t i = intptr_t(blockIdx.x) * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
__global__ void babel_triad_k(double* a, const double* b, const double* c, double s) {
  const intptr_t i = intptr_t(blockIdx.x) * blockDim.x + threadIdx.x;
  a[i] = b[i] + s * c[i];
}

void run_babel(babel_impl m, kernel k, double* a, double* b, double* c, intptr_t n) {
  const double s = scalar;
  if (m == babel_acc) {
    switch (k) {
      case copy: acc::parallel_loop(n, ACC_LAMBDA(intptr_t i) { c[i] = a[i]; }); break;
      case mul: acc::parallel_loop(n, ACC_LAMBDA(intptr_t i) { b[i] = s * c[i]; }); break;
      case add: acc::parallel_loop(n, ACC_LAMBDA(intptr_t i) { c[i] = a[i] + b[i]; }); break;
      default: acc::parallel_loop(n, ACC_LAMBDA(intptr_t i) { a[i] = b[i] + s * c[i]; }); break;
    }
    return;
  }
  const int block = m == babel_cuda1024 ? babel_block : cuda_block;
  const unsigned grid = unsigned(n / block);
  switch (k) {
    case copy: babel_copy_k<<<grid, block, 0, stream>>>(a, c); break;
    case mul: babel_mul_k<<<grid, block, 0, stream>>>(b, c, s); break;
    case add: babel_add_k<<<grid, block, 0, stream>>>(a, b, c); break;
    default: babel_triad_k<<<grid, block, 0, stream>>>(a, b, c, s); break;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));
}

bool bench_babel(int log2n, int warmup, int runs) {
  const intptr_t n = intptr_t(1) << log2n;  // a multiple of both blocks
  double *a = nullptr, *b = nullptr, *c = nullptr;
  for (double** p : {&a, &b, &c}) CHECK(cudaMalloc(p, sizeof(double) * n));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  constexpr int kernels = triad + 1;
  std::vector<float> times[babel_impl_count][kernels];
  bool ok = true;
  for (int m = 0; m < babel_impl_count; ++m) {
    init_k<<<int((n + cuda_block - 1) / cuda_block), cuda_block, 0, stream>>>(a, b, c, int(n));
    CHECK(cudaGetLastError());
    gold g;
    // The kernels take turns within an iteration, as in BabelStream's main loop.
    for (int it = 0; it < warmup + runs; ++it)
      for (int k = 0; k < kernels; ++k) {
        CHECK(cudaEventRecord(start, stream));
        run_babel(babel_impl(m), kernel(k), a, b, c, n);
        CHECK(cudaEventRecord(stop, stream));
        CHECK(cudaEventSynchronize(stop));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        if (it >= warmup) times[m][k].push_back(t);
        g.apply(kernel(k));
      }
    const struct { const char* name; const double* p; double expected; } checks[] = {
        {"a", a, g.a}, {"b", b, g.b}, {"c", c, g.c}};
    for (const auto& [name, p, expected] : checks)
      if (long long bad = wrong(p, int(n), expected)) {
        std::fprintf(stderr, "BabelStream %s, n=2^%d: %lld elements of %s differ from %.17g by more than %g relative\n",
                     babel_name[m], log2n, bad, name, expected, tolerance);
        ok = false;
      }
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  for (double* p : {a, b, c}) CHECK(cudaFree(p));

  for (int k = 0; k < kernels; ++k) {
    const double bytes = arrays_moved[k] * sizeof(double) * double(n);
    double best[babel_impl_count], med[babel_impl_count];
    for (int m = 0; m < babel_impl_count; ++m) {
      best[m] = *std::min_element(times[m][k].begin(), times[m][k].end());
      med[m] = median(times[m][k]);
    }
    const auto gbs = [&](double ms) { return bytes / (ms * 1e6); };
    std::printf("%-6s 2^%-4d best %8.1f %8.1f %8.1f  median %8.1f %8.1f %8.1f  acc/1024 best %6.3f median %6.3f"
                "  acc/256 best %6.3f median %6.3f\n",
                kernel_name[k], log2n, gbs(best[babel_acc]), gbs(best[babel_cuda1024]), gbs(best[babel_cuda256]),
                gbs(med[babel_acc]), gbs(med[babel_cuda1024]), gbs(med[babel_cuda256]),
                best[babel_cuda1024] / best[babel_acc], med[babel_cuda1024] / med[babel_acc],
                best[babel_cuda256] / best[babel_acc], med[babel_cuda256] / med[babel_acc]);
  }
  std::fflush(stdout);
  return ok;
}

// ---- dot ------------------------------------------------------------------------------------
// As BabelStream 5.0's CUDA version runs it: a 64-bit (intptr_t) index, a fixed grid of 4 blocks
// of 1024 threads per SM ("Reduction kernel config: 528 groups of (fixed) size 1024" on a
// 132-SM H100), each block's sum written to pinned host memory and added up on the host after
// a synchronisation. acc: the reduction clause (BabelStream's OpenACC dot) and parallel_reduce,
// both synchronous, so each call includes its own wait for the value.
constexpr int dot_block = 1024;

__global__ void dot_k(const double* a, const double* b, double* sums, intptr_t n) {
  __shared__ double part[dot_block];
  double s = 0;
  for (intptr_t i = intptr_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += intptr_t(blockDim.x) * gridDim.x)
    s += a[i] * b[i];
  part[threadIdx.x] = s;
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    __syncthreads();
    if (int(threadIdx.x) < half) part[threadIdx.x] += part[threadIdx.x + half];
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}

// acc's reductions run in one of two forms (single_pass.hpp): the single pass (the kernel's
// last block combines the blocks' partials) and the two-kernel form (a second kernel combines
// them); both are timed here, taking turns with the CUDA dot, so that one run decides between
// them. "bs shape" is the single pass in BabelStream's grid: num_gangs(4 x SMs), vector_length(1024).
enum dot_impl { dot_clause, dot_clause_two, dot_clause_bs, dot_reduce, dot_reduce_two, dot_cuda, dot_impl_count };
constexpr const char* dot_name[] = {"clause single pass", "clause two kernels", "clause 1-pass bs shape",
                                    "reduce single pass", "reduce two kernels", "cuda"};

bool bench_dot(int log2n, int warmup, int runs, int sms) {
  const intptr_t n = intptr_t(1) << log2n;
  double *a = nullptr, *b = nullptr, *c = nullptr, *sums = nullptr;
  for (double** p : {&a, &b, &c}) CHECK(cudaMalloc(p, sizeof(double) * n));
  const int blocks = 4 * sms;
  CHECK(cudaMallocHost(&sums, sizeof(double) * blocks));
  init_k<<<int((n + cuda_block - 1) / cuda_block), cuda_block, 0, stream>>>(a, b, c, int(n));
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(stream));

  const auto dot = [&](int m) {
    double sum = 0;
    acc::detail::cuda::single_pass_reductions = m != dot_clause_two && m != dot_reduce_two;
    if (m == dot_clause || m == dot_clause_two) {
      acc::parallel_loop(n, acc::reduction(acc::plus, sum), ACC_LAMBDA(intptr_t i, double& s) { s += a[i] * b[i]; });
    } else if (m == dot_clause_bs) {
      acc::parallel_loop(n, acc::num_gangs(blocks), acc::vector_length(dot_block), acc::reduction(acc::plus, sum),
                         ACC_LAMBDA(intptr_t i, double& s) { s += a[i] * b[i]; });
    } else if (m == dot_reduce || m == dot_reduce_two) {
      sum = acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(intptr_t i) { return a[i] * b[i]; });
    } else {
      dot_k<<<blocks, dot_block, 0, stream>>>(a, b, sums, n);
      CHECK(cudaGetLastError());
      CHECK(cudaStreamSynchronize(stream));
      for (int k = 0; k < blocks; ++k) sum += sums[k];
    }
    acc::detail::cuda::single_pass_reductions = true;
    return sum;
  };
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times[dot_impl_count];
  const double expected = init_a * init_b * double(n);
  bool ok = true;
  // The implementations take turns within every iteration.
  for (int it = 0; it < warmup + runs; ++it)
    for (int m = 0; m < dot_impl_count; ++m) {
      CHECK(cudaEventRecord(start, stream));
      const double sum = dot(m);
      CHECK(cudaEventRecord(stop, stream));
      CHECK(cudaEventSynchronize(stop));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (it >= warmup) times[m].push_back(t);
      if (!(std::fabs(sum - expected) <= tolerance * expected)) {
        if (ok) std::fprintf(stderr, "dot, %s, n=2^%d: %.17g, expected %.17g\n", dot_name[m], log2n, sum, expected);
        ok = false;
      }
    }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  for (double* p : {a, b, c}) CHECK(cudaFree(p));
  CHECK(cudaFreeHost(sums));

  const double bytes = 2 * sizeof(double) * double(n);
  double best[dot_impl_count], med[dot_impl_count];
  for (int m = 0; m < dot_impl_count; ++m) {
    best[m] = *std::min_element(times[m].begin(), times[m].end());
    med[m] = median(times[m]);
  }
  for (int m = 0; m < dot_cuda; ++m)
    std::printf("%-8s 2^%-4d %-23s best %8.1f median %8.1f GB/s (%7.1f us); cuda best %8.1f median %8.1f (%7.1f us);"
                " acc/cuda best %6.3f median %6.3f\n",
                "dot", log2n, dot_name[m], bytes / (best[m] * 1e6), bytes / (med[m] * 1e6), med[m] * 1e3,
                bytes / (best[dot_cuda] * 1e6), bytes / (med[dot_cuda] * 1e6), med[dot_cuda] * 1e3,
                best[dot_cuda] / best[m], med[dot_cuda] / med[m]);
  for (auto [one, two] : {std::pair{dot_clause, dot_clause_two}, std::pair{dot_reduce, dot_reduce_two}})
    std::printf("dot      2^%-4d %s / %s: best %6.3f median %6.3f (time of two kernels / time of one pass)\n", log2n,
                dot_name[one], dot_name[two], best[two] / best[one], med[two] / med[one]);
  std::fflush(stdout);
  return ok;
}

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: bench_stream [--log2 25,28] [--runs N] [--warmup N] [--dot-only]\n"
                       "  --log2   array sizes as powers of two (10..30), comma-separated\n"
                       "  --runs   timed runs per kernel (default 100 up to 2^25, 50 above)\n"
                       "  --dot-only  only the dot table\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) try {
  std::vector<int> sizes{25, 28};
  int runs = 0, warmup = 5;
  bool dot_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--dot-only") {
      dot_only = true;
      continue;
    }
    if (i + 1 >= argc) usage();
    if (arg == "--log2") {
      sizes.clear();
      for (char* s = argv[++i]; *s;) {
        const long v = std::strtol(s, &s, 10);
        if (v < 10 || v > 30 || (*s && *s != ',')) usage();  // 2^30 still fits the int index
        sizes.push_back(int(v));
        s += *s == ',';
      }
    } else if (arg == "--runs") {
      if ((runs = std::atoi(argv[++i])) < 1) usage();
    } else if (arg == "--warmup") {
      if ((warmup = std::atoi(argv[++i])) < 0) usage();
    } else {
      usage();
    }
  }

  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: nothing to measure\n");
    return 0;
  }
  const int device = acc::get_device_num(acc::device_type::nvidia);  // the GPU acc launches on
  CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("device %d: %s, %d SMs, %.1f GiB\n", device, prop.name, prop.multiProcessorCount,
              prop.totalGlobalMem / double(1 << 30));
  std::printf("GB/s = 1e9 bytes/s from the median of the timed runs; cuda = one element per thread, block %d\n",
              cuda_block);
  bool ok = true;
  if (!dot_only) {
    std::printf("%-8s %-6s %-11s %10s %10s %10s %9s\n", "kernel", "size", "variant", "acc", "cuda", "thrust",
                "acc/cuda");
    for (int log2n : sizes) ok &= bench_size(log2n, warmup, runs ? runs : log2n <= 25 ? 100 : 50);
    std::printf("\nBabelStream's OpenACC model (intptr_t index) against CUDA twins with the same index, GB/s "
                "(acc, cuda blocks of 1024 as BabelStream's CUDA, cuda blocks of 256), %d timed runs\n",
                runs ? runs : 100);
    for (int log2n : sizes) ok &= bench_babel(log2n, warmup, runs ? runs : 100);
    std::printf("\n");
  }
  for (int log2n : sizes) ok &= bench_dot(log2n, warmup, runs ? runs : 100, prop.multiProcessorCount);
  if (!ok) std::fprintf(stderr, "FAILED: wrong results (see above)\n");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_stream: %s\n", e.what());
  return 1;
}
