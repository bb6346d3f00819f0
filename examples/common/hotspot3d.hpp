// Rodinia 3.1 hotspot3D's cell update, shared by examples/hotspot3D and bench_tuned (which
// times its z-marching step): the coefficients Rodinia derives for a grid, one cell's update
// and one (y, x) column marched up z.
#pragma once

#include <acc/parallel.hpp>

namespace hotspot3d {

// Rodinia 3.1 hotspot3D's constants (3D.c: MAX_PD, PRECISION, SPEC_HEAT_SI, K_SI, FACTOR_CHIP,
// t_chip, chip_height, chip_width, amb_temp).
constexpr double max_pd = 3.0e6, precision = 0.001, spec_heat_si = 1.75e6, k_si = 100, factor_chip = 0.5;
constexpr float t_chip = 0.0005f, chip_height = 0.016f, chip_width = 0.016f, amb_temp = 80.0f;

struct coefficients {
  float cc, cw, ce, cs, cn, cb, ct, sdc;
};

// As Rodinia's main and computeTempOMP derive them (floats from double expressions).
inline coefficients coefficients_of(int rows, int cols, int layers) {
  const float dx = chip_height / rows, dy = chip_width / cols, dz = t_chip / layers;
  const float cap = float(factor_chip * spec_heat_si * t_chip * dx * dy);
  const float rx = float(dy / (2.0 * k_si * t_chip * dx)), ry = float(dx / (2.0 * k_si * t_chip * dy));
  const float rz = float(dz / (k_si * dx * dy));
  const float max_slope = float(max_pd / (factor_chip * t_chip * spec_heat_si));
  const float dt = float(precision / max_slope);
  const float sdc = dt / cap;
  coefficients c{};
  c.ce = c.cw = sdc / rx;
  c.cn = c.cs = sdc / ry;
  c.ct = c.cb = sdc / rz;
  c.cc = float(1.0 - (2.0 * c.ce + 2.0 * c.cn + 3.0 * c.ct));
  c.sdc = sdc;
  return c;
}

// One cell from itself, its six neighbours (itself at the grid's faces) and its power, in
// Rodinia's order of terms.
ACC_ROUTINE inline float cell(float c, float w, float e, float s, float n, float b, float t, float p,
                              const coefficients& k) {
  return k.cc * c + k.cw * w + k.ce * e + k.cs * s + k.cn * n + k.cb * b + k.ct * t + k.sdc * p + k.ct * amb_temp;
}

// Column (y, x) of an nz x ny x nx grid (rank-3 views or anything indexed (z, y, x)), marching
// up z with the cells below, at and above in registers, as Rodinia CUDA's hotspotOpt1.
template <class In, class Out>
ACC_ROUTINE inline void march_column(const In& tin, const In& p, const Out& tout, int y, int x, int nz, int ny, int nx,
                                     const coefficients& k) {
  const int w = x > 0 ? x - 1 : x, e = x < nx - 1 ? x + 1 : x, n = y > 0 ? y - 1 : y, s = y < ny - 1 ? y + 1 : y;
  float below = tin(0, y, x), at = below;
  for (int z = 0; z < nz; ++z) {
    const float above = z < nz - 1 ? tin(z + 1, y, x) : at;
    tout(z, y, x) = cell(at, tin(z, y, w), tin(z, y, e), tin(z, s, x), tin(z, n, x), below, above, p(z, y, x), k);
    below = at;
    at = above;
  }
}

}  // namespace hotspot3d
