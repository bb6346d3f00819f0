// ACC_BOUNDS_CHECK builds (the whole program must be built with it, like NDEBUG): an index
// outside its array is reported with the array's label, the index and the extent.
//   bounds_check host     index on the host: acc::error, printed; exits 0 if it was thrown
//   bounds_check host_loop    index in a parallel_loop body on the host (OpenMP threads when
//                         built with OpenMP): the report carries the construct's call site
//   bounds_check device   index inside a kernel: the GPU prints the report and traps, which
//                         the construct turns into acc::device_error (prints "no GPU" without one)
//   bounds_check tile_host    a cached_view (acc::tile_loop) read outside its cached range, on the host
//   bounds_check tile_device  the same inside a kernel (prints "no GPU" without one)
//   bounds_check tile_rank    a per_iteration indexed p(i) in a 2D tile, on the host: the
//                         report says the index count is wrong (not that i is outside the tile)
#include <acc/parallel.hpp>

#include <cstdio>
#include <cstring>
#include <exception>

namespace {
void write_outside(acc::array<double, 2> t) {
  acc::parallel_loop(1, ACC_LAMBDA(int) { t(1, 7) = 1.0; });
}
// Iteration 1000 of 4096 reads past the end of 'density' (1000 elements), on the host.
void read_outside_on_host(acc::array<double> d) {
  acc::parallel_loop(4096, acc::if_(false), ACC_LAMBDA(int i) {
    if (i == 999 || i == 1000) d(i) = 1.0;
  });
}
// Tile 1 caches [3, 8) of 'pressure' (halo 1 before, 0 after); iteration 5 reads element 8.
void read_outside_cache(acc::array<double> p, bool on_device) {
  acc::tile_loop(8, acc::tile_size(4), acc::if_(on_device), acc::cached(p, acc::fetch, acc::halo(1, 0)),
                 ACC_LAMBDA(int i, const acc::cached_view<double, 1>& c) {
                   if (i == 5) p(i) = c(i + 3);
                 });
}
// p(i) where the 2D tile's iterations are (i, j).
void per_iteration_one_index(acc::array<int, 2> out) {
  acc::tile_loop(acc::collapse(8, 8), acc::tile_size(4, 4), acc::if_(false), ACC_LAMBDA(const acc::tile_t<2>& t) {
    acc::per_iteration<int> p(t);
    acc::tile_for(t, [&](int i, int) { p(i) += 1; });
    acc::tile_for(t, [&](int i, int j) { out(i, j) = p(i, j); });
  });
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  acc::array<double, 2> t("temperature", 4, 5);
  if (std::strcmp(argv[1], "tile_rank") == 0) {
    acc::array<int, 2> out("out", 8, 8);
    try {
      per_iteration_one_index(out);
    } catch (const acc::error& e) {
      std::printf("caught: %s\n", e.what());
      return 0;
    }
    std::printf("no error for p(i) in a 2D tile\n");
    return 1;
  }
  if (std::strncmp(argv[1], "tile_", 5) == 0) {
    const bool on_device = std::strcmp(argv[1], "tile_device") == 0;
    if (on_device && acc::get_device_type() != acc::device_type::nvidia) {
      std::printf("no GPU: the device report is not exercised\n");
      return 0;
    }
    acc::array<double> p("pressure", 12);
    try {
      read_outside_cache(p, on_device);
    } catch (const std::exception& e) {
      std::printf("caught: %s\n", e.what());
      return 0;
    }
    std::printf("no error for c(8) outside the cached range [3, 8)\n");
    return 1;
  }
  if (std::strcmp(argv[1], "host_loop") == 0) {
    acc::array<double> d("density", 1000);
    try {
      read_outside_on_host(d);
    } catch (const acc::error& e) {
      std::printf("caught: %s\n", e.what());
      return 0;
    }
    std::printf("no error for d(1000) in a parallel_loop on the host\n");
    return 1;
  }
  if (std::strcmp(argv[1], "host") == 0) {
    try {
      t(1, 2) = 3.0;  // inside: no error
      (void)t(4, 0);
    } catch (const acc::error& e) {
      std::printf("caught: %s\n", e.what());
      return 0;
    }
    std::printf("no error for t(4, 0)\n");
    return 1;
  }
  if (acc::get_device_type() != acc::device_type::nvidia) {
    std::printf("no GPU: the device report is not exercised\n");
    return 0;
  }
  try {
    write_outside(t);
  } catch (const std::exception& e) {
    std::printf("caught: %s\n", e.what());
    return 0;
  }
  std::printf("no error for t(1, 7) in a kernel\n");
  return 1;
}
