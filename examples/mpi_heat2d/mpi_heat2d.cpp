// 2-D heat equation by Jacobi iteration over MPI ranks: the grid is split by rows, each rank
// keeps its rows plus one halo row above and below on its device for the whole run (one
// acc::data region), and before every sweep the ranks swap their edge rows. The halo exchange
// takes one of two paths, chosen at run time:
//   cuda-aware  MPI reads and writes device memory directly: the buffers are acc::deviceptr
//               addresses (OpenACC's host_data use_device), no copy through the host;
//   staged      acc::update_self of the two edge rows, MPI on host memory, acc::update_device
//               of the two halo rows (any MPI).
// Rank 0 gathers the grid, checks it against a sequential run of the whole grid, and prints a
// checksum that does not depend on the number of ranks (the same additions in the same order).
//
//   mpirun -np P mpi_heat2d [n = 256] [iterations = 500] [auto | staged | cuda-aware]
//   (or ACC_MPI_HALO=staged|cuda-aware in the environment; an argument wins)
// Each rank uses GPU (local rank mod GPUs per node); without a GPU every rank runs on the host.
#include <acc/parallel.hpp>

// The C API is all this program uses; OpenMPI's and MPICH's C++ bindings only slow nvcc down.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#  include <mpi-ext.h>  // OpenMPI: MPIX_Query_cuda_support
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

// Hot top edge, a warm left edge, a hot square in the middle that spreads, the rest cold
// (examples/heat2d's initial state, so the two programs can be compared).
double initial(int i, int j, int n) {
  if (i == 0) return 100.0;
  if (j == 0) return 50.0 * (n - 1 - i) / (n - 1);
  const int r = n / 8 + 1;
  if (std::abs(i - n / 2) < r && std::abs(j - n / 2) < r) return 100.0;
  return 0.0;
}

enum class halo_path { staged, cuda_aware };

// Whether this MPI library can take device pointers; unknown (not OpenMPI) counts as no.
bool mpi_is_cuda_aware() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

// One rank's rows: global rows [lo, hi) live in local rows 1..rows; local rows 0 and rows + 1
// are the halo, copies of the neighbours' edge rows.
struct slab {
  int n, lo, hi, rows, up, down;  // up/down: neighbour ranks or MPI_PROC_NULL
};

// Swaps edge rows with both neighbours: my first row goes up while the row above mine arrives
// in halo row 0, and the mirror image downwards.
void exchange_halo(acc::array<double, 2>& t, const slab& s, halo_path path) {
  const int n = s.n;
  if (path == halo_path::cuda_aware) {
    // Device addresses of the present grid (host addresses when the device is the host).
    double* d = acc::deviceptr(t);
    MPI_Sendrecv(d + std::size_t(1) * n, n, MPI_DOUBLE, s.up, 0, d + std::size_t(s.rows + 1) * n, n, MPI_DOUBLE,
                 s.down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(d + std::size_t(s.rows) * n, n, MPI_DOUBLE, s.down, 1, d, n, MPI_DOUBLE, s.up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    return;
  }
  if (s.up != MPI_PROC_NULL) acc::update_self(acc::section(t, 1, 1));
  if (s.down != MPI_PROC_NULL) acc::update_self(acc::section(t, s.rows, 1));
  double* h = t.data();
  MPI_Sendrecv(h + std::size_t(1) * n, n, MPI_DOUBLE, s.up, 0, h + std::size_t(s.rows + 1) * n, n, MPI_DOUBLE, s.down,
               0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(h + std::size_t(s.rows) * n, n, MPI_DOUBLE, s.down, 1, h, n, MPI_DOUBLE, s.up, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  if (s.up != MPI_PROC_NULL) acc::update_device(acc::section(t, 0, 1));
  if (s.down != MPI_PROC_NULL) acc::update_device(acc::section(t, s.rows + 1, 1));
}

// One sweep over this rank's interior points (global rows 1..n-2, columns 1..n-2).
void sweep(acc::view<const double, 2> t, acc::view<double, 2> next, const slab& s) {
  const int first = std::max(s.lo, 1) - s.lo + 1, last = std::min(s.hi, s.n - 1) - s.lo + 1;  // local rows
  acc::parallel_loop(acc::collapse(acc::range(first, last), acc::range(1, s.n - 1)), acc::default_present,
                     ACC_LAMBDA(int i, int j) {
                       next(i, j) = 0.25 * (t(i - 1, j) + t(i + 1, j) + t(i, j - 1) + t(i, j + 1));
                     });
}

// The whole grid on one process, the order of additions as in sweep.
std::vector<double> sequential(int n, int iterations) {
  std::vector<double> a(std::size_t(n) * n), b;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a[std::size_t(i) * n + j] = initial(i, j, n);
  b = a;
  for (int it = 0; it < iterations; ++it) {
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        b[std::size_t(i) * n + j] = 0.25 * (a[std::size_t(i - 1) * n + j] + a[std::size_t(i + 1) * n + j] +
                                             a[std::size_t(i) * n + j - 1] + a[std::size_t(i) * n + j + 1]);
    std::swap(a, b);
  }
  return a;
}

int run(int argc, char** argv, int rank, int size) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 500;
  std::string mode = argc > 3 ? argv[3] : (std::getenv("ACC_MPI_HALO") ? std::getenv("ACC_MPI_HALO") : "auto");
  if (n < 3 || iterations < 0 || n < size || (mode != "auto" && mode != "staged" && mode != "cuda-aware")) {
    if (rank == 0)
      std::fprintf(stderr, "usage: mpirun -np P mpi_heat2d [n >= max(3, P)] [iterations >= 0] "
                           "[auto | staged | cuda-aware]\n");
    return 2;
  }

  // One GPU per rank on each node, round robin when there are more ranks than GPUs.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local_rank = 0;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_free(&node);
  const int gpus = acc::get_num_devices(acc::device_type::nvidia);
  if (gpus > 0 && acc::get_device_type() == acc::device_type::nvidia)
    acc::set_device_num(local_rank % gpus, acc::device_type::nvidia);
  const bool on_gpu = acc::get_device_type() == acc::device_type::nvidia;

  // auto: device pointers when MPI takes them, or when the "device" is the host anyway.
  halo_path path = halo_path::staged;
  if (mode == "cuda-aware") {
    if (on_gpu && !mpi_is_cuda_aware()) {
      if (rank == 0)
        std::fprintf(stderr, "mpi_heat2d: this MPI is not CUDA-aware (MPIX_Query_cuda_support); use staged\n");
      return 2;
    }
    path = halo_path::cuda_aware;
  } else if (mode == "auto" && (!on_gpu || mpi_is_cuda_aware())) {
    path = halo_path::cuda_aware;
  }

  slab s{n, int(std::int64_t(n) * rank / size), int(std::int64_t(n) * (rank + 1) / size), 0,
         rank > 0 ? rank - 1 : MPI_PROC_NULL, rank + 1 < size ? rank + 1 : MPI_PROC_NULL};
  s.rows = s.hi - s.lo;

  acc::array<double, 2> t("temperature", s.rows + 2, n), next("temperature_next", s.rows + 2, n);
  for (int li = 0; li < s.rows + 2; ++li) {
    const int i = s.lo + li - 1;
    for (int j = 0; j < n; ++j) t(li, j) = next(li, j) = (i >= 0 && i < n) ? initial(i, j, n) : 0.0;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  {
    acc::data grids{acc::copy(t), acc::copy(next)};
    for (int it = 0; it < iterations; ++it) {
      exchange_halo(t, s, path);
      sweep(t, next, s);
      swap(t, next);  // handles only: both grids stay present
    }
  }
  double seconds = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

  // Rank 0 gathers every rank's own rows.
  std::vector<int> counts(size), displs(size);
  for (int r = 0; r < size; ++r) {
    const int lo = int(std::int64_t(n) * r / size), hi = int(std::int64_t(n) * (r + 1) / size);
    counts[r] = (hi - lo) * n;
    displs[r] = lo * n;
  }
  std::vector<double> grid(rank == 0 ? std::size_t(n) * n : 0);
  MPI_Gatherv(t.data() + n, s.rows * n, MPI_DOUBLE, grid.data(), counts.data(), displs.data(), MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  if (rank != 0) return 0;

  double checksum = 0.0;
  for (double v : grid) checksum += v;
  const double cells = double(n) * n * iterations;
  std::printf("mpi_heat2d: %dx%d, %d iterations, %d ranks on %s, halo %s: %.3f s (%.3f Gcell/s)\n", n, n, iterations,
              size, on_gpu ? "nvidia" : "host", path == halo_path::staged ? "staged" : "cuda-aware", seconds,
              seconds > 0 ? cells / seconds * 1e-9 : 0.0);
  std::printf("mpi_heat2d: checksum %.17g centre %.17g\n", checksum, grid[std::size_t(n / 2) * n + n / 2]);
  // The sequential check costs n * n * iterations host operations; skipped for big runs.
  if (cells > 4e9) {
    std::printf("mpi_heat2d: not verified (n * n * iterations > 4e9)\n");
    return 0;
  }
  const std::vector<double> ref = sequential(n, iterations);
  double max_diff = 0.0;
  for (std::size_t k = 0; k < ref.size(); ++k) max_diff = std::fmax(max_diff, std::fabs(grid[k] - ref[k]));
  std::printf("mpi_heat2d: max |acc - cpu| = %.3g\n", max_diff);
  if (!(max_diff <= 1e-12)) {
    std::fprintf(stderr, "mpi_heat2d: FAILED, the result differs from the sequential run\n");
    return 1;
  }
  std::printf("mpi_heat2d: OK\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  try {
    status = run(argc, argv, rank, size);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_heat2d: rank %d: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  // Usage errors are seen by every rank alike; a failed check only by rank 0.
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
