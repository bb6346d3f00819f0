// Accumulating into a captured array element in a loop that reads team memory, the shape of
// Rodinia lavaMD's CUDA kernel (`fA[wtx].v += qB[j] * rB[j].x` over the neighbour box's
// particles): acc::parallel with g.shared and acc::tile_loop with acc::cache, the output
// captured as an acc::array and as an acc::view, against the hand-written CUDA kernel.
// The forms take turns in every run; the median of each is printed with its ratio to CUDA.
// Every form must keep out[k] in a register across the inner loop (one store per element
// and repetition); a ratio well above 1 means it stores on every iteration.
// Exits 0 without a GPU (nothing to measure).
#include <acc/parallel.hpp>
#include <acc/tile.hpp>

#include "timing.cuh"

#include <cmath>
#include <cstdio>
#include <exception>

namespace {

struct particle {
  double v, x, y, z;
};
constexpr int per_box = 100;  // particles per box, as lavaMD
constexpr int boxes = 1000;   // lavaMD's default 10^3 boxes
constexpr int repeat = 27;    // neighbour boxes each box visits in lavaMD
constexpr std::size_t team_bytes = per_box * (sizeof(particle) + sizeof(double));

__global__ void cuda_kernel(const particle* in, const double* q, particle* out) {
  extern __shared__ unsigned char raw[];
  particle* rb = reinterpret_cast<particle*>(raw);
  double* qb = reinterpret_cast<double*>(raw + per_box * sizeof(particle));
  const int i = threadIdx.x, b = blockIdx.x;
  if (i < per_box) {
    rb[i] = in[b * per_box + i];
    qb[i] = q[b * per_box + i];
  }
  __syncthreads();
  for (int r = 0; r < repeat; ++r) {
    if (i < per_box)
      for (int j = 0; j < per_box; ++j) out[b * per_box + i].v += qb[j] * rb[j].x;
    __syncthreads();
  }
}

template <class Out>
void in_parallel(acc::array<particle> in, acc::array<double> q, Out out) {
  acc::parallel(acc::num_gangs(boxes), acc::vector_length(128), acc::shared_bytes(team_bytes), acc::default_present,
                ACC_LAMBDA(const acc::gang_t& g) {
                  particle* rb = g.shared<particle>(per_box).data();
                  double* qb = g.shared<double>(per_box).data();
                  acc::loop(g, acc::gang, boxes, [&](int b) {
                    acc::loop(g, acc::vector, per_box, [&](int i) {
                      rb[i] = in[b * per_box + i];
                      qb[i] = q[b * per_box + i];
                    });
                    for (int r = 0; r < repeat; ++r)
                      acc::loop(g, acc::vector, per_box, [&](int i) {
                        for (int j = 0; j < per_box; ++j) out[b * per_box + i].v += qb[j] * rb[j].x;
                      });
                  });
                });
}

// One tile of 128 iterations per box; its first per_box iterations are the box's particles.
template <class Out>
void in_tile_loop(acc::array<particle> in, acc::array<double> q, Out out) {
  acc::tile_loop(boxes * 128, acc::tile_size(128), acc::cache_bytes(team_bytes + 64), acc::default_present,
                 ACC_LAMBDA(const acc::tile_t<1>& t) {
                   const int b = t.origin(0) / 128;
                   const auto rb = acc::cache(t, in, acc::fixed(b * per_box, per_box));
                   const auto qb = acc::cache(t, q, acc::fixed(b * per_box, per_box));
                   for (int r = 0; r < repeat; ++r)
                     acc::tile_for(t, [&](int it) {
                       const int i = it - b * 128;
                       if (i < per_box)
                         for (int j = b * per_box; j < (b + 1) * per_box; ++j)
                           out[b * per_box + i].v += qb(j) * rb(j).x;
                     });
                 });
}

}  // namespace

int main(int argc, char** argv) try {
  if (!bench::have_gpu()) return 0;
  const int runs = bench::int_arg(argc, argv, "--runs", 50);
  const int device = acc::get_device_num(acc::device_type::nvidia);
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("device %d: %s\n", device, prop.name);

  const int n = boxes * per_box;
  acc::array<particle> in("in", n), out("out", n);
  acc::array<double> q("q", n);
  for (int k = 0; k < n; ++k) {
    in[k] = particle{1.0 + k % 7, 0.5 + k % 3, 0.25, 0.125};
    q[k] = 0.1 * (k % 10 + 1);
  }
  acc::data region{acc::copyin(in), acc::copyin(q), acc::create(out)};
  const acc::view<particle> out_view = out;
  particle* const d_out = acc::deviceptr(out);
  const auto zero = [&] { CHECK(cudaMemsetAsync(d_out, 0, n * sizeof(particle), bench::stream)); };

  // Each form once from zero, checked against the CUDA kernel's result.
  const char* names[] = {"hand-written CUDA", "parallel, out an array", "parallel, out a view", "tile_loop, out an array",
                         "tile_loop, out a view"};
  const auto cuda = [&] {
    cuda_kernel<<<boxes, 128, team_bytes, bench::stream>>>(acc::deviceptr(in), acc::deviceptr(q), d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(bench::stream));
  };
  const auto p_array = [&] { in_parallel(in, q, out); };
  const auto p_view = [&] { in_parallel(in, q, out_view); };
  const auto t_array = [&] { in_tile_loop(in, q, out); };
  const auto t_view = [&] { in_tile_loop(in, q, out_view); };
  std::vector<double> want;
  bool ok = true;
  const auto check = [&](int which, auto f) {
    zero();
    f();
    acc::update_self(out);
    if (which == 0) {
      for (int k = 0; k < n; ++k) want.push_back(out[k].v);
      return;
    }
    for (int k = 0; k < n; ++k)
      if (std::abs(out[k].v - want[k]) > 1e-9 * std::abs(want[k])) {
        std::printf("%s: out[%d].v = %.17g, CUDA %.17g\n", names[which], k, out[k].v, want[k]);
        ok = false;
        return;
      }
  };
  check(0, cuda);
  check(1, p_array);
  check(2, p_view);
  check(3, t_array);
  check(4, t_view);
  if (!ok) return 1;

  // Accumulating on without resetting: the values grow but the work is the same.
  const auto ms = bench::time_each(runs, cuda, p_array, p_view, t_array, t_view);
  std::printf("%d boxes x %d particles, %d repetitions; ms, median of %d\n", boxes, per_box, repeat, runs);
  std::printf("%-26s %9s %9s\n", "form", "ms", "vs CUDA");
  for (int k = 0; k < 5; ++k) std::printf("%-26s %9.4f %9.3f\n", names[k], ms[k], ms[k] / ms[0]);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_team_accumulate: %s\n", e.what());
  return 1;
}
