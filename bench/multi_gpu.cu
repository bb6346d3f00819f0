// Several GPUs in one process: strong and weak scaling of a stream triad and of a 2-D Jacobi
// stencil whose halo rows move between devices with acc::update_peer, over 1..G devices (G from
// the runtime), and the cost of the acc::devices clause on one device against a plain
// parallel_loop (the same loop, device 0). Wall-clock medians: one CUDA event stream cannot
// time work on several devices. bench/multi_gpu.sh also runs examples/mpi_heat2d on 1..G ranks.
//
//   bench_multi_gpu [--triad-log2 27] [--rows 16384] [--cols 16384] [--iters 20]
#include <acc/parallel.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

// The first k devices, as the clause acc::devices(0, 1, ..., k - 1) would say.
acc::devices_t first_devices(int k) {
  acc::devices_t d{k, {}};
  for (int i = 0; i < k; ++i) d.ids[i] = i;
  return d;
}

template <class F>
double median_seconds(int runs, F f) {
  for (int i = 0; i < 2; ++i) f();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// a = b + s c over n elements on the first k devices; returns GB/s (3 arrays of doubles).
double triad(long n, int k, bool clause) {
  acc::array<double> a("a", n), b("b", n), c("c", n);
  for (long i = 0; i < n; ++i) {
    b[i] = 1.0 + double(i % 7);
    c[i] = 2.0;
  }
  for (int d = 0; d < k; ++d) {
    const auto r = acc::device_part(n, d, k);
    const std::size_t len = std::size_t(r.hi - r.lo);
    acc::enter_data(acc::create(acc::section(a, r.lo, len)), acc::copyin(acc::section(b, r.lo, len)),
                    acc::copyin(acc::section(c, r.lo, len)), acc::device_num(d));
  }
  acc::view<double> av = a;
  acc::view<const double> bv = b, cv = c;
  const double s = 3.0;
  const acc::devices_t devs = first_devices(k);
  const double sec = median_seconds(10, [&] {
    if (clause)
      acc::parallel_loop(n, devs, ACC_LAMBDA(long i) { av[i] = bv[i] + s * cv[i]; });
    else
      acc::parallel_loop(n, ACC_LAMBDA(long i) { av[i] = bv[i] + s * cv[i]; });
  });
  for (int d = 0; d < k; ++d) {
    const auto r = acc::device_part(n, d, k);
    const std::size_t len = std::size_t(r.hi - r.lo);
    acc::exit_data(acc::copyout(acc::section(a, r.lo, len)), acc::delete_(acc::section(b, r.lo, len)),
                   acc::delete_(acc::section(c, r.lo, len)), acc::device_num(d));
  }
  for (long i = 0; i < n; i += n / 97 + 1)
    if (a[i] != b[i] + s * c[i]) {
      std::fprintf(stderr, "triad: wrong result at %ld\n", i);
      std::exit(1);
    }
  return 3.0 * 8.0 * double(n) / sec * 1e-9;
}

// `iters` Jacobi sweeps of a rows x cols grid split by rows over the first k devices, with the
// edge rows sent to the neighbours by update_peer after each sweep; returns Gcell/s.
double stencil(int rows, int cols, int iters, int k) {
  acc::array<double, 2> t("t", rows, cols), u("u", rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) t(i, j) = u(i, j) = (i == 0 ? 100.0 : 0.0);
  const auto inner = acc::range(1, rows - 1);
  for (int d = 0; d < k; ++d) {
    const auto r = acc::device_part(inner, d, k);
    const std::size_t len = std::size_t(r.hi - r.lo + 2);
    acc::enter_data(acc::copyin(acc::section(t, r.lo - 1, len)), acc::copyin(acc::section(u, r.lo - 1, len)),
                    acc::device_num(d));
  }
  const acc::devices_t devs = first_devices(k);
  const double sec = median_seconds(3, [&] {
    for (int it = 0; it < iters; ++it) {
      acc::view<const double, 2> src = t;
      acc::view<double, 2> dst = u;
      acc::parallel_loop(acc::collapse(inner, acc::range(1, cols - 1)), devs, ACC_LAMBDA(int i, int j) {
        dst(i, j) = 0.25 * (src(i - 1, j) + src(i + 1, j) + src(i, j - 1) + src(i, j + 1));
      });
      for (int d = 0; d + 1 < k; ++d) {
        const auto up = acc::device_part(inner, d, k), down = acc::device_part(inner, d + 1, k);
        acc::update_peer(acc::section(u, std::size_t(up.hi - 1), 1), d, d + 1, acc::async(1));
        acc::update_peer(acc::section(u, std::size_t(down.lo), 1), d + 1, d, acc::async(1));
      }
      for (int d = 0; d < k; ++d) {
        acc::set_device_num(d, acc::device_type::nvidia);
        acc::wait(1);
      }
      acc::set_device_num(-1, acc::device_type::nvidia);
      swap(t, u);
    }
  });
  for (int d = 0; d < k; ++d) {
    const auto r = acc::device_part(inner, d, k);
    const std::size_t len = std::size_t(r.hi - r.lo + 2);
    acc::exit_data(acc::delete_(acc::section(t, r.lo - 1, len)), acc::delete_(acc::section(u, r.lo - 1, len)),
                   acc::device_num(d));
  }
  return double(rows - 2) * double(cols - 2) * iters / sec * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  int triad_log2 = 27, rows = 16384, cols = 16384, iters = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--triad-log2")) triad_log2 = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rows")) rows = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--cols")) cols = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--iters")) iters = std::atoi(argv[i + 1]);
  }
  const int gpus = acc::get_num_devices(acc::device_type::nvidia);
  if (gpus == 0 || acc::get_device_type() != acc::device_type::nvidia) {
    std::printf("multi_gpu: no GPU; nothing to measure\n");
    return 0;
  }
  const long n = 1L << triad_log2;
  std::printf("multi_gpu: %d GPUs\n", gpus);

  // The clause on one device must cost nothing against the plain loop (same device, same data).
  const double plain = triad(n, 1, false), one = triad(n, 1, true);
  std::printf("triad one device: plain %.1f GB/s, devices(0) %.1f GB/s, ratio %.3f\n", plain, one, one / plain);

  std::printf("%-8s %4s %12s %10s %10s\n", "kernel", "gpus", "size", "rate", "efficiency");
  double base = 0;
  for (int k = 1; k <= gpus; ++k) {
    const double r = triad(n, k, true);
    if (k == 1) base = r;
    std::printf("%-8s %4d %12ld %7.1f GB/s %9.2f  (strong)\n", "triad", k, n, r, r / (base * k));
  }
  for (int k = 1; k <= gpus; ++k) {
    const double r = triad(n * k, k, true);
    if (k == 1) base = r;
    std::printf("%-8s %4d %12ld %7.1f GB/s %9.2f  (weak)\n", "triad", k, n * k, r, r / (base * k));
  }
  for (int k = 1; k <= gpus; ++k) {
    const double r = stencil(rows, cols, iters, k);
    if (k == 1) base = r;
    std::printf("%-8s %4d %6dx%-5d %5.2f Gcell/s %6.2f  (strong)\n", "stencil", k, rows, cols, r, r / (base * k));
  }
  for (int k = 1; k <= gpus; ++k) {
    const double r = stencil(rows * k, cols, iters, k);
    if (k == 1) base = r;
    std::printf("%-8s %4d %6dx%-5d %5.2f Gcell/s %6.2f  (weak)\n", "stencil", k, rows * k, cols, r, r / (base * k));
  }
  return 0;
}
