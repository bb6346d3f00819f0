// Rodinia 3.1 hotspot3D (transient thermal simulation of a stacked chip: a 7-point stencil on
// an nx x ny x nz grid, `iterations` explicit steps) with acc. Variants, all compared with a
// CPU run:
//   "untiled": Rodinia's OpenMP loop nest as one collapsed parallel_loop per step;
//   "zmarch":  Rodinia CUDA's hotspotOpt1: one iteration per (x, y) column, marching up z with
//              the cells below, at and above in registers;
//   "zmarch_tiled": the same with hotspotOpt1's gangs of 64 x 4 columns (a tile_loop);
//   "zmarch_flat": zmarch_tiled over flat arrays with int offsets, the top layer peeled, as
//              hotspotOpt1 indexes them;
//   "zmarch_flat_graph": zmarch_flat's steps recorded once as an acc::graph (untimed, as a
//              setup step) and replayed: one launch for all steps instead of one per step;
//   "tiled":   one tile_loop per step, 2 x 8 x 32 tiles with the temperatures fetched into
//              team memory with a halo of one cell in every direction.
//
//   hotspot3D [rows = cols = 512] [layers = 8] [iterations = 100]   (Rodinia: 3D 512 8 100 ...)
//
// Rodinia reads power_512x8 and temp_512x8; here temperatures are 320-340 K with noise and the
// power is concentrated in rectangular units over a small leakage background. As in Rodinia the
// chip is 16 mm wide whatever the grid, so cells shrink as it grows and ce, cn grow with rows^2
// (0.034 at 512): beyond about 1400 x 1400 cc = 1 - 2 ce - 2 cn - 3 ct turns negative, the
// explicit step is unstable and no two runs agree; keep rows <= 1024.
#include <acc/parallel.hpp>
#include <acc/tile.hpp>

#include "../common/hotspot3d.hpp"
#include "../common/rodinia.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

using hotspot3d::cell;
using hotspot3d::coefficients;
using hotspot3d::coefficients_of;

using grid = acc::view<float, 3>;          // (z, y, x)
using const_grid = acc::view<const float, 3>;

// #pragma acc parallel loop collapse(3) present(tin, p, tout)
void step_untiled(const_grid tin, const_grid p, grid tout, coefficients k, int queue) {
  const int nz = int(tin.extent(0)), ny = int(tin.extent(1)), nx = int(tin.extent(2));
  acc::parallel_loop(acc::collapse(nz, ny, nx), acc::default_present, acc::async(queue), ACC_LAMBDA(int z, int y, int x) {
    const int w = x > 0 ? x - 1 : x, e = x < nx - 1 ? x + 1 : x, n = y > 0 ? y - 1 : y, s = y < ny - 1 ? y + 1 : y;
    const int b = z > 0 ? z - 1 : z, t = z < nz - 1 ? z + 1 : z;
    tout(z, y, x) = cell(tin(z, y, x), tin(z, y, w), tin(z, y, e), tin(z, s, x), tin(z, n, x), tin(b, y, x),
                         tin(t, y, x), p(z, y, x), k);
  });
}

// #pragma acc parallel loop collapse(2), with a sequential z loop carrying below / at / above.
void step_zmarch(const_grid tin, const_grid p, grid tout, coefficients k, int queue) {
  const int nz = int(tin.extent(0)), ny = int(tin.extent(1)), nx = int(tin.extent(2));
  acc::parallel_loop(acc::collapse(ny, nx), acc::default_present, acc::async(queue), ACC_LAMBDA(int y, int x) {
    hotspot3d::march_column(tin, p, tout, y, x, nz, ny, nx, k);
  });
}

// #pragma acc parallel loop collapse(2) tile(64, 4), with a sequential z loop carrying below /
// at / above. As hotspotOpt1: gangs of 64 x 4 columns, so a gang's north and south neighbours
// are mostly its own rows (L1 hits, not three L2 reads of every row); a flat collapse(2) puts
// 256 consecutive cells of one row in a gang, so every row is fetched three times.
void step_zmarch_tiled(const_grid tin, const_grid p, grid tout, coefficients k, int queue) {
  const int nz = int(tin.extent(0)), ny = int(tin.extent(1)), nx = int(tin.extent(2));
  acc::tile_loop(acc::collapse(ny, nx), acc::tile_size(4, 64), acc::default_present, acc::async(queue),
                 ACC_LAMBDA(int y, int x) { hotspot3d::march_column(tin, p, tout, y, x, nz, ny, nx, k); });
}

// #pragma acc parallel loop collapse(2) tile(64, 4) over the flat arrays, as Rodinia's OpenMP
// and CUDA code index them: one int offset per column, moved up a layer with += nx * ny, and
// the top layer peeled off, so that every load of a layer is unconditional and independent of
// the others. With rank-3 views each neighbour's address is (z * ny + y) * nx + x in 64 bits
// (two 64-bit multiplies a load), and the conditional load of the layer above splits a
// layer's loads into several dependent rounds; here all six loads of a layer issue together.
void step_zmarch_flat(acc::view<const float> tin, acc::view<const float> p, acc::view<float> tout, int nx, int ny,
                      int nz, coefficients k, int queue) {
  acc::tile_loop(acc::collapse(ny, nx), acc::tile_size(4, 64), acc::default_present, acc::async(queue),
                 ACC_LAMBDA(int y, int x) {
                   const int layer = nx * ny;
                   const int w = x > 0 ? -1 : 0, e = x < nx - 1 ? 1 : 0;
                   const int n = y > 0 ? -nx : 0, s = y < ny - 1 ? nx : 0;
                   int c = y * nx + x;
                   float below = tin[c], at = below;
                   for (int z = 0; z < nz - 1; ++z, c += layer) {
                     const float above = tin[c + layer];
                     tout[c] = cell(at, tin[c + w], tin[c + e], tin[c + s], tin[c + n], below, above, p[c], k);
                     below = at;
                     at = above;
                   }
                   tout[c] = cell(at, tin[c + w], tin[c + e], tin[c + s], tin[c + n], below, at, p[c], k);
                 });
}

// OpenACC + fcw: tile 2 x 8 x 32, fcw(fetch: tin[z-1:z+1][y-1:y+1][x-1:x+1]).
void step_tiled(const_grid tin, const_grid p, grid tout, coefficients k, int queue) {
  const int nz = int(tin.extent(0)), ny = int(tin.extent(1)), nx = int(tin.extent(2));
  acc::tile_loop(acc::collapse(nz, ny, nx), acc::tile_size(2, 8, 32),
                 acc::cached(tin, acc::fetch, acc::halo(1, 1), acc::halo(1, 1), acc::halo(1, 1)), acc::default_present,
                 acc::async(queue), ACC_LAMBDA(int z, int y, int x, const acc::cached_view<const float, 3>& c) {
                   const int w = x > 0 ? x - 1 : x, e = x < nx - 1 ? x + 1 : x;
                   const int n = y > 0 ? y - 1 : y, s = y < ny - 1 ? y + 1 : y;
                   const int b = z > 0 ? z - 1 : z, t = z < nz - 1 ? z + 1 : z;
                   tout(z, y, x) = cell(c(z, y, x), c(z, y, w), c(z, y, e), c(z, s, x), c(z, n, x), c(b, y, x),
                                        c(t, y, x), p(z, y, x), k);
                 });
}

}  // namespace

int main(int argc, char** argv) try {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 512;
  const int layers = argc > 2 ? std::atoi(argv[2]) : 8;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 100;
  if (rows < 1 || layers < 1 || iterations < 0) {
    std::fprintf(stderr, "usage: hotspot3D [rows >= 1] [layers >= 1] [iterations >= 0]\n");
    return 2;
  }
  const int nx = rows, ny = rows, nz = layers;
  const std::size_t size = std::size_t(nx) * ny * nz;
  std::printf("hotspot3D: %d x %d x %d, %d iterations, on %s\n", nx, ny, nz, iterations,
              acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");
  const coefficients k = coefficients_of(rows, rows, layers);
  std::vector<float> temp0(size), power0(size);
  rodinia::random rng(11);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const std::size_t c = (std::size_t(z) * ny + y) * nx + x;
        temp0[c] = float(320 + 20 * rng.uniform());
        const bool unit = (y / 37 + x / 53 + z) % 3 == 0;
        power0[c] = float((unit ? 4e-3 : 2e-4) * rng.uniform());
      }
  // The CPU reference: Rodinia's computeTempCPU.
  std::vector<float> ref = temp0, next(size);
  for (int it = 0; it < iterations; ++it) {
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          auto at = [&](int zz, int yy, int xx) { return ref[(std::size_t(zz) * ny + yy) * nx + xx]; };
          const int w = x > 0 ? x - 1 : x, e = x < nx - 1 ? x + 1 : x, n = y > 0 ? y - 1 : y, s = y < ny - 1 ? y + 1 : y;
          const int b = z > 0 ? z - 1 : z, t = z < nz - 1 ? z + 1 : z;
          const std::size_t c = (std::size_t(z) * ny + y) * nx + x;
          next[c] = cell(at(z, y, x), at(z, y, w), at(z, y, e), at(z, s, x), at(z, n, x), at(b, y, x), at(t, y, x),
                         power0[c], k);
        }
    std::swap(ref, next);
  }

  acc::array<float, 3> power("power", nz, ny, nx), temp("temp", nz, ny, nx), out("temp_next", nz, ny, nx);
  std::copy(power0.begin(), power0.end(), power.begin());
  acc::data region{acc::copyin(power), acc::create(temp), acc::create(out)};
  bool ok = true;
  const char* names[] = {"untiled", "zmarch", "zmarch_tiled", "tiled", "zmarch_flat", "zmarch_flat_graph"};
  // zmarch_flat's steps, recorded: the views swap at recording, so the graph holds the same
  // alternation of temp and out as the loop below.
  acc::graph steps;
  steps.record(acc::async(1), [&] {
    acc::view<const float> pf(power.data(), size);
    acc::view<float> af(temp.data(), size), bf(out.data(), size);
    for (int it = 0; it < iterations; ++it) {
      step_zmarch_flat(af, pf, bf, nx, ny, nz, k, 1);
      std::swap(af, bf);
    }
  });
  for (int v = 0; v < 6; ++v) {
    // The result is in `temp` after an even number of steps, in `out` after an odd one.
    auto reset = [&] {
      std::copy(temp0.begin(), temp0.end(), temp.begin());
      acc::update_device(temp);
    };
    auto run = [&] {
      const_grid p = power;
      grid a = temp, b = out;
      acc::view<const float> pf(power.data(), size);
      acc::view<float> af(temp.data(), size), bf(out.data(), size);
      if (v == 5) {
        steps.replay();
        acc::wait(1);
        return;
      }
      for (int it = 0; it < iterations; ++it) {
        if (v == 4) {
          step_zmarch_flat(af, pf, bf, nx, ny, nz, k, 1);
          std::swap(af, bf);
          continue;
        }
        if (v == 0) step_untiled(a, p, b, k, 1);
        else if (v == 1) step_zmarch(a, p, b, k, 1);
        else if (v == 2) step_zmarch_tiled(a, p, b, k, 1);
        else step_tiled(a, p, b, k, 1);
        std::swap(a, b);
      }
      acc::wait(1);
    };
    rodinia::report(names[v], rodinia::median_seconds(reset, run));
    acc::array<float, 3>& result = iterations % 2 ? out : temp;
    acc::update_self(result);
    double d = 0;
    for (std::size_t c = 0; c < size; ++c) d = std::fmax(d, std::fabs(double(result.data()[c]) - ref[c]));
    // 330 K has a float ulp of 3e-5; the stable stencil damps what each step's rounding adds
    // (fused multiply-adds on a GPU, a different order of terms nowhere).
    std::printf("  %s: max |acc - cpu| = %.3g K\n", names[v], d);
    ok &= d <= 2e-3;
  }
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "hotspot3D: %s\n", e.what());
  return 1;
}
