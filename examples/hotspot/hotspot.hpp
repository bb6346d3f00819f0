//! @file Rodinia hotspot (transient 2D thermal simulation of a chip) for acc: the CPU reference,
//! the untiled acc version (one collapsed parallel_loop per step) and the tiled acc version (one
//! tile_loop per step, 16 x 16 tiles with a fetched halo of 1; or, as Rodinia's pyramid, one
//! tile_loop per `height` steps with a halo of `height`, the steps in shared memory). Shared by
//! examples/hotspot and bench/tiles.cu; the hand-written CUDA kernels of the same algorithm are
//! in hotspot_cuda.cuh.
#pragma once

#include <acc/parallel.hpp>
#include <acc/tile.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace hotspot {

// The model constants of Rodinia 3.1 hotspot (hotspot/hotspot.cu and openmp/hotspot/
// hotspot_openmp.cpp, "#define MAX_PD (3.0e6)" etc.), with their comments there:
inline constexpr double max_pd = 3.0e6;        // maximum power density possible (300 W for a 10 mm x 10 mm chip)
inline constexpr double precision = 0.001;     // required precision in degrees
inline constexpr double spec_heat_si = 1.75e6;
inline constexpr double k_si = 100;
inline constexpr double factor_chip = 0.5;     // capacitance fitting factor
inline constexpr double t_chip = 0.0005;       // chip thickness (m)
inline constexpr double chip_side = 0.016;     // chip height and width (m)
inline constexpr double amb_temp = 80.0;       // ambient temperature, assuming no package at all

/// The per-cell coefficients of one explicit step, as Rodinia's compute_tran_temp computes them
/// (Cap, Rx, Ry, Rz, step = PRECISION / max_slope) and its kernel uses them (step / Cap, 1 / R).
/// Rodinia's chip is 16 mm at every grid size, so its cells shrink with the grid, and beyond
/// 1024 x 1024 the step exceeds the explicit scheme's stability limit (step / (Cap Rx) > 1/4:
/// rounding noise then grows 16x a step and no two machines agree). Here a grid of any size has
/// the cells of Rodinia's 1024 x 1024 chip (a larger chip, not smaller cells), stable everywhere.
struct coefficients {
  float step_div_cap, rx_1, ry_1, rz_1, amb;
};

inline coefficients coefficients_of() {
  const double grid_height = chip_side / 1024, grid_width = chip_side / 1024;
  const double cap = factor_chip * spec_heat_si * t_chip * grid_width * grid_height;
  const double rx = grid_width / (2.0 * k_si * t_chip * grid_height);
  const double ry = grid_height / (2.0 * k_si * t_chip * grid_width);
  const double rz = t_chip / (k_si * grid_height * grid_width);
  const double max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);
  const double step = precision / max_slope;
  return {float(step / cap), float(1 / rx), float(1 / ry), float(1 / rz), float(amb_temp)};
}

/// One cell's new temperature from itself, its four neighbours (itself where the grid ends, as
/// Rodinia's edge cases) and its power: Rodinia's update, in float throughout (Rodinia writes
/// 2.0, a double, which costs FP64 throughput on GPUs for nothing). Every version calls this.
ACC_ROUTINE inline float cell(float t, float n, float s, float e, float w, float power, const coefficients& c) {
  return t + c.step_div_cap * (power + (s + n - 2.0f * t) * c.ry_1 + (e + w - 2.0f * t) * c.rx_1 +
                               (c.amb - t) * c.rz_1);
}

/// Deterministic inputs (Rodinia reads temp_N / power_N files): 320-340 K with noise, and power
/// in a few rectangular "units" of the floorplan over a small leakage background.
inline void make_input(int rows, int cols, float* temp, float* power) {
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  auto uniform = [&x] {  // splitmix64 -> [0, 1)
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  };
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const std::size_t k = std::size_t(i) * cols + j;
      temp[k] = float(320.0 + 20.0 * uniform());
      const bool unit = (i / 37 + j / 53) % 3 == 0;
      power[k] = float((unit ? 4e-3 : 2e-4) * uniform());
    }
}

/// The CPU reference: `iterations` steps from temp (row-major rows x cols); the result is left
/// in temp.
inline void reference(std::vector<float>& temp, const std::vector<float>& power, int rows, int cols, int iterations,
                      const coefficients& c) {
  std::vector<float> next(temp.size());
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        const float* t = temp.data();
        const std::size_t k = std::size_t(i) * cols + j;
        const std::size_t n = std::size_t(i > 0 ? i - 1 : i) * cols + j;
        const std::size_t s = std::size_t(i < rows - 1 ? i + 1 : i) * cols + j;
        const std::size_t e = std::size_t(i) * cols + (j < cols - 1 ? j + 1 : j);
        const std::size_t w = std::size_t(i) * cols + (j > 0 ? j - 1 : j);
        next[k] = cell(t[k], t[n], t[s], t[e], t[w], power[k], c);
      }
    std::swap(temp, next);
  }
}

// One step, untiled. OpenACC:
//   #pragma acc parallel loop collapse(2) present(temp, power, out)
//   for i, j: out[i][j] = cell(temp[i][j], temp[max(i-1,0)][j], ...)
// Neighbours are re-read from global memory (the L1/L2 caches absorb what they can).
inline void step_untiled(acc::view<const float, 2> temp, acc::view<const float, 2> power, acc::view<float, 2> out,
                         coefficients c, int queue) {
  const int rows = int(temp.extent(0)), cols = int(temp.extent(1));
  acc::parallel_loop(acc::collapse(rows, cols), acc::default_present, acc::async(queue), ACC_LAMBDA(int i, int j) {
    const int n = i > 0 ? i - 1 : i, s = i < rows - 1 ? i + 1 : i;
    const int w = j > 0 ? j - 1 : j, e = j < cols - 1 ? j + 1 : j;
    out(i, j) = cell(temp(i, j), temp(n, j), temp(s, j), temp(i, e), temp(i, w), power(i, j), c);
  });
}

// One step, tiled: each 16 x 16 tile fetches its temperatures with a halo of one cell on every
// side into shared memory (clipped at the grid's edges, where the clamped neighbour index stays
// inside), and the stencil reads them there. OpenACC + fcw:
//   #pragma acc parallel loop collapse(2) vector_length(16x16) fcw(fetch: temp[i-1:i+1][j-1:j+1])
inline void step_tiled(acc::view<const float, 2> temp, acc::view<const float, 2> power, acc::view<float, 2> out,
                       coefficients c, int queue) {
  const int rows = int(temp.extent(0)), cols = int(temp.extent(1));
  acc::tile_loop(acc::collapse(rows, cols), acc::tile_size(16, 16),
                 acc::cached(temp, acc::fetch, acc::halo(1, 1), acc::halo(1, 1)), acc::default_present,
                 acc::async(queue),
                 ACC_LAMBDA(int i, int j, const acc::cached_view<const float, 2>& t) {
                   const int n = i > 0 ? i - 1 : i, s = i < rows - 1 ? i + 1 : i;
                   const int w = j > 0 ? j - 1 : j, e = j < cols - 1 ? j + 1 : j;
                   out(i, j) = cell(t(i, j), t(n, j), t(s, j), t(i, e), t(i, w), power(i, j), c);
                 });
}

// `height` steps in one tile_loop (Rodinia's pyramid, pyramid_height in hotspot.cu): each
// 16 x 16 tile fetches the temperatures with a halo of `height` and the power with a halo of
// height - 1; step s computes, in shared memory, the tile's cells widened by height - s on every
// side (clipped at the grid), alternating between two channel buffers, and the last step writes
// the tile's own cells. A tile's 256 iterations share the widened cells (k = its rank in the
// tile, k + 256, ...); tile_for's barrier separates the steps. OpenACC + fcw:
//   fcw(fetch channel: temp[i-h:i+h][j-h:j+h]) fcw(channel: buffer[...]) fcw(fetch: power[...])
inline void pyramid_tiled(acc::view<float, 2> temp, acc::view<const float, 2> power, acc::view<float, 2> out,
                          coefficients c, int height, int queue) {
  const int rows = int(temp.extent(0)), cols = int(temp.extent(1)), h = height;
  // The second buffer takes its shape from `out` (channel only: never loaded, never stored).
  acc::tile_loop(acc::collapse(rows, cols), acc::tile_size(16, 16),
                 acc::cached(temp, acc::fetch | acc::channel, acc::halo(h, h), acc::halo(h, h)),
                 acc::cached(out, acc::channel, acc::halo(h - 1, h - 1), acc::halo(h - 1, h - 1)),
                 acc::cached(power, acc::fetch, acc::halo(h - 1, h - 1), acc::halo(h - 1, h - 1)),
                 acc::default_present, acc::async(queue),
                 ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<float, 2>& a,
                            const acc::cached_view<float, 2>& b, const acc::cached_view<const float, 2>& p) {
                   const int i0 = t.origin(0), j0 = t.origin(1), ni = t.count(0), nj = t.count(1);
                   // A generic lambda takes the buffers in either order (a reference chosen at run
                   // time would put both views in memory).
                   auto step = [&](const auto& in, const auto& to, int s) {
                     const int e = h - s;
                     const int r_lo = i0 - e > 0 ? i0 - e : 0, r_hi = i0 + ni + e < rows ? i0 + ni + e : rows;
                     const int c_lo = j0 - e > 0 ? j0 - e : 0, c_hi = j0 + nj + e < cols ? j0 + nj + e : cols;
                     const int wc = c_hi - c_lo, cells = (r_hi - r_lo) * wc;
                     acc::tile_for(t, [&](int i, int j) {
                       auto at = [&](int x, int y) {
                         const int n = x > 0 ? x - 1 : x, so = x < rows - 1 ? x + 1 : x;
                         const int w = y > 0 ? y - 1 : y, ea = y < cols - 1 ? y + 1 : y;
                         return cell(in(x, y), in(n, y), in(so, y), in(x, ea), in(x, w), p(x, y), c);
                       };
                       if (e == 0) {
                         out(i, j) = at(i, j);
                         return;
                       }
                       for (int k = (i - i0) * nj + (j - j0); k < cells; k += ni * nj) {
                         const int x = r_lo + k / wc, y = c_lo + k % wc;
                         to(x, y) = at(x, y);
                       }
                     });
                   };
                   for (int s = 1; s <= h; ++s) {
                     if (s & 1) step(a, b, s);
                     else step(b, a, s);
                   }
                 });
}

/// `iterations` untiled steps, queued on `queue` and waited for at the end (no host round trip
/// per step, as the hand-written version); temp holds the result (temp and next swap handles
/// each step). All three arrays must be present (acc::data or acc::enter_data).
inline void untiled(acc::array<float, 2>& temp, acc::array<float, 2>& next, const acc::array<float, 2>& power,
                    int iterations, coefficients c, int queue = 1) {
  for (int it = 0; it < iterations; ++it) {
    step_untiled(temp, power, next, c, queue);
    swap(temp, next);
  }
  acc::wait(queue);
}

/// `iterations` tiled steps, `height` per construct (1: step_tiled, more: pyramid_tiled); as
/// untiled() (temp and next swap handles per construct).
inline void tiled(acc::array<float, 2>& temp, acc::array<float, 2>& next, const acc::array<float, 2>& power,
                  int iterations, coefficients c, int height = 1, int queue = 1) {
  for (int it = 0; it < iterations; it += height) {
    const int h = iterations - it < height ? iterations - it : height;
    if (h == 1) step_tiled(temp, power, next, c, queue);
    else pyramid_tiled(temp, power, next, c, h, queue);
    swap(temp, next);
  }
  acc::wait(queue);
}

}  // namespace hotspot
