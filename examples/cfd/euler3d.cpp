// Rodinia 3.1 cfd (euler3d) with acc: a finite-volume solver of the 3D Euler equations for
// compressible flow on an unstructured grid (each element has 4 neighbours, a wing wall or the
// far field), explicit third-order Runge-Kutta with artificial viscosity, as Rodinia's
// euler3d_cpu.cpp. One variant, as an OpenACC user writes Rodinia's OpenMP loops (Rodinia's CUDA
// version uses constant memory, no shared memory):
//   parallel_loop  per iteration: copy the state, the step factors, then three times the fluxes
//                  (one gathered pass over the neighbours per element) and the RK update; one
//                  construct per loop, all on one async queue inside one data region.
// Rodinia reads fvcorr.domn.193K (193474 elements); here a synthetic mesh of the same size:
// quadrilateral cells of a 512-wide strip, numbered in a random order (so that neighbours are
// gathered through the index as in a real unstructured mesh), the outer faces far field and a
// vertical plate in the middle the wall the supersonic free stream hits. Checked against a
// sequential host run of the same element functions.
//
//   euler3d [elements = 193474] [iterations = 100]   (Rodinia runs 2000 iterations)
#include "../common/rodinia.hpp"

#include <acc/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <numeric>
#include <vector>

namespace {

// Rodinia's euler3d_cpu.cpp options: GAMMA 1.4, NDIM 3, NNB 4, RK 3, ff_mach 1.2, angle of
// attack 0, smoothing coefficient 0.2; the state is density, momentum (3), density energy.
constexpr float gamma_ = 1.4f;
constexpr int ndim = 3, nnb = 4, rk = 3, nvar = 5;
constexpr int var_density = 0, var_momentum = 1, var_density_energy = 4;
constexpr float ff_mach = 1.2f, smoothing = 0.2f;
constexpr int wall = -1, far = -2;  // neighbour codes, as Rodinia's after its renumbering

struct vec3 {
  float x, y, z;
};

ACC_ROUTINE inline float root(float x) {
#if defined(__CUDA_ARCH__)
  return sqrtf(x);
#else
  return std::sqrt(x);
#endif
}

// An element's primitive quantities and flux contributions (Rodinia's compute_velocity,
// compute_pressure, compute_speed_of_sound, compute_flux_contribution).
struct state {
  float density, density_energy, pressure, speed_sqd, speed_of_sound;
  vec3 momentum, velocity, fc_mx, fc_my, fc_mz, fc_de;
};

ACC_ROUTINE inline state state_of(float density, vec3 m, float density_energy) {
  state s;
  s.density = density;
  s.momentum = m;
  s.density_energy = density_energy;
  s.velocity = {m.x / density, m.y / density, m.z / density};
  const vec3 v = s.velocity;
  s.speed_sqd = v.x * v.x + v.y * v.y + v.z * v.z;
  s.pressure = (gamma_ - 1.0f) * (density_energy - 0.5f * density * s.speed_sqd);
  s.speed_of_sound = root(gamma_ * s.pressure / density);
  s.fc_mx = {v.x * m.x + s.pressure, v.x * m.y, v.x * m.z};
  s.fc_my = {s.fc_mx.y, v.y * m.y + s.pressure, v.y * m.z};
  s.fc_mz = {s.fc_mx.z, s.fc_my.z, v.z * m.z + s.pressure};
  const float de_p = density_energy + s.pressure;
  s.fc_de = {v.x * de_p, v.y * de_p, v.z * de_p};
  return s;
}

// The far-field state, Rodinia's "set far field conditions".
struct far_field {
  float var[nvar];
  state s;
};

far_field make_far_field() {
  far_field f;
  const float density = 1.4f, pressure = 1.0f;
  const float speed = ff_mach * float(std::sqrt(double(gamma_) * pressure / density));
  f.var[var_density] = density;
  f.var[var_momentum + 0] = density * speed;  // angle of attack 0: along x
  f.var[var_momentum + 1] = 0.0f;
  f.var[var_momentum + 2] = 0.0f;
  f.var[var_density_energy] = density * (0.5f * speed * speed) + pressure / (gamma_ - 1.0f);
  f.s = state_of(density, {f.var[1], f.var[2], f.var[3]}, f.var[4]);
  return f;
}

template <class Var>
ACC_ROUTINE inline state load(const Var& var, int e) {
  return state_of(var(var_density, e), {var(1, e), var(2, e), var(3, e)}, var(var_density_energy, e));
}

// Rodinia's compute_step_factor for one element.
template <class Var>
ACC_ROUTINE inline float step_factor(const Var& var, float area, int i) {
  const state s = load(var, i);
  return 0.5f / (root(area) * (root(s.speed_sqd) + s.speed_of_sound));
}

// Rodinia's compute_flux for one element: var(v, e) reads the state, nb(j) the neighbours of i,
// normal(d, j) the (inward) normals of its faces; the flux goes to flux[0..4].
template <class Var, class Nb, class Normal>
ACC_ROUTINE inline void element_flux(const Var& var, const Nb& nb, const Normal& normal, const far_field& ff, int i,
                                     float* flux) {
  const state si = load(var, i);
  const float speed_i = root(si.speed_sqd);
  float f_density = 0.0f, f_de = 0.0f;
  vec3 f_m = {0.0f, 0.0f, 0.0f};
  // One axis of the central flux: factor times (neighbour's + own) contribution.
  auto central = [&](float factor, float m_nb, float m_i, const vec3& de, const vec3& mx, const vec3& my,
                     const vec3& mz, int axis) {
    auto pick = [axis](const vec3& v) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; };
    const vec3& ide = si.fc_de;
    f_density += factor * (m_nb + m_i);
    f_de += factor * (pick(de) + pick(ide));
    f_m.x += factor * (pick(mx) + pick(si.fc_mx));
    f_m.y += factor * (pick(my) + pick(si.fc_my));
    f_m.z += factor * (pick(mz) + pick(si.fc_mz));
  };
  for (int j = 0; j < nnb; ++j) {
    const vec3 n = {normal(0, j), normal(1, j), normal(2, j)};
    const float normal_len = root(n.x * n.x + n.y * n.y + n.z * n.z);
    const int e = nb(j);
    if (e >= 0) {
      const state sn = load(var, e);
      // artificial viscosity
      const float factor =
          -normal_len * smoothing * 0.5f * (speed_i + root(sn.speed_sqd) + si.speed_of_sound + sn.speed_of_sound);
      f_density += factor * (si.density - sn.density);
      f_de += factor * (si.density_energy - sn.density_energy);
      f_m.x += factor * (si.momentum.x - sn.momentum.x);
      f_m.y += factor * (si.momentum.y - sn.momentum.y);
      f_m.z += factor * (si.momentum.z - sn.momentum.z);
      central(0.5f * n.x, sn.momentum.x, si.momentum.x, sn.fc_de, sn.fc_mx, sn.fc_my, sn.fc_mz, 0);
      central(0.5f * n.y, sn.momentum.y, si.momentum.y, sn.fc_de, sn.fc_mx, sn.fc_my, sn.fc_mz, 1);
      central(0.5f * n.z, sn.momentum.z, si.momentum.z, sn.fc_de, sn.fc_mx, sn.fc_my, sn.fc_mz, 2);
    } else if (e == wall) {
      f_m.x += n.x * si.pressure;
      f_m.y += n.y * si.pressure;
      f_m.z += n.z * si.pressure;
    } else if (e == far) {
      const state& sf = ff.s;
      central(0.5f * n.x, sf.momentum.x, si.momentum.x, sf.fc_de, sf.fc_mx, sf.fc_my, sf.fc_mz, 0);
      central(0.5f * n.y, sf.momentum.y, si.momentum.y, sf.fc_de, sf.fc_mx, sf.fc_my, sf.fc_mz, 1);
      central(0.5f * n.z, sf.momentum.z, si.momentum.z, sf.fc_de, sf.fc_mx, sf.fc_my, sf.fc_mz, 2);
    }
  }
  flux[var_density] = f_density;
  flux[var_momentum + 0] = f_m.x;
  flux[var_momentum + 1] = f_m.y;
  flux[var_momentum + 2] = f_m.z;
  flux[var_density_energy] = f_de;
}

// The synthetic mesh: cell (r, c) of a strip `width` cells wide; faces +x, -x, +y, -y with
// inward normals of length 0.5 (z components 0); the strip's outer faces far field; a plate
// across rows [rows/4, 3 rows/4) between columns width/2 - 1 and width/2 is a wall. Cells get a
// random permutation of the element numbers; areas vary by +-10%.
struct mesh {
  int nel;
  std::vector<float> areas, normals;  // normals[(d * nnb + j) * nel + i]
  std::vector<int> nb;                // nb[j * nel + i]
};

mesh make_mesh(int nel) {
  mesh m{nel, std::vector<float>(nel), std::vector<float>(std::size_t(ndim) * nnb * nel, 0.0f),
         std::vector<int>(std::size_t(nnb) * nel)};
  const int width = std::min(nel, 512), rows = (nel + width - 1) / width;
  rodinia::random r(193474);
  std::vector<int> id(nel);
  std::iota(id.begin(), id.end(), 0);
  for (int k = nel - 1; k > 0; --k) std::swap(id[k], id[r.below(k + 1)]);
  auto cell = [&](int row, int col) { return row * width + col; };
  for (int row = 0; row < rows; ++row)
    for (int col = 0; col < width && cell(row, col) < nel; ++col) {
      const int i = id[cell(row, col)];
      m.areas[i] = float(r.uniform(0.9, 1.1));
      const bool plate_rows = row >= rows / 4 && row < 3 * rows / 4;
      const int dr[nnb] = {0, 0, 1, -1}, dc[nnb] = {1, -1, 0, 0};
      for (int j = 0; j < nnb; ++j) {
        const int rr = row + dr[j], cc = col + dc[j];
        int e = far;
        if (rr >= 0 && rr < rows && cc >= 0 && cc < width && cell(rr, cc) < nel) e = id[cell(rr, cc)];
        if (plate_rows && ((col == width / 2 - 1 && j == 0) || (col == width / 2 && j == 1))) e = wall;
        m.nb[std::size_t(j) * nel + i] = e;
        m.normals[(std::size_t(0) * nnb + j) * nel + i] = -0.5f * float(dc[j]);
        m.normals[(std::size_t(1) * nnb + j) * nel + i] = -0.5f * float(dr[j]);
      }
    }
  return m;
}

// The sequential reference: Rodinia's main loop over plain vectors.
std::vector<float> reference(const mesh& m, const far_field& ff, int iterations) {
  const int nel = m.nel;
  std::vector<float> var(std::size_t(nvar) * nel), old(var.size()), flux(var.size()), step(nel);
  for (int v = 0; v < nvar; ++v) std::fill_n(var.begin() + std::size_t(v) * nel, nel, ff.var[v]);
  auto at = [&](int v, int e) { return var[std::size_t(v) * nel + e]; };
  for (int it = 0; it < iterations; ++it) {
    old = var;
    for (int i = 0; i < nel; ++i) step[i] = step_factor(at, m.areas[i], i);
    for (int j = 0; j < rk; ++j) {
      for (int i = 0; i < nel; ++i) {
        float f[nvar];
        element_flux(
            at, [&](int k) { return m.nb[std::size_t(k) * nel + i]; },
            [&](int d, int k) { return m.normals[(std::size_t(d) * nnb + k) * nel + i]; }, ff, i, f);
        for (int v = 0; v < nvar; ++v) flux[std::size_t(v) * nel + i] = f[v];
      }
      for (int i = 0; i < nel; ++i) {
        const float factor = step[i] / float(rk + 1 - j);
        for (int v = 0; v < nvar; ++v)
          var[std::size_t(v) * nel + i] = old[std::size_t(v) * nel + i] + factor * flux[std::size_t(v) * nel + i];
      }
    }
  }
  return var;
}

// The acc version; every array present. OpenACC: the same loops, each `#pragma acc parallel
// loop present(...) async(1)`, inside `#pragma acc data` around the iteration loop, and one
// `#pragma acc wait(1)` at the end: like Rodinia's CUDA launches, the 8 constructs of an
// iteration are queued without a host synchronisation between them (a synchronous construct
// costs a host round trip, several microseconds, against kernels of 5-30 us). The gathers read
// the state through a const view (read-only loads).
void solve(acc::view<float, 2> var, acc::view<float, 2> old, acc::view<float, 2> flux, acc::view<float> step,
           acc::view<const float> areas, acc::view<const int, 2> nb, acc::view<const float, 2> normals,
           const far_field ff, int iterations, int queue) {
  const int nel = int(var.extent(1));
  const acc::view<const float, 2> cur = var;
  acc::parallel_loop(acc::collapse(nvar, nel), acc::default_present, acc::async(queue),
                     ACC_LAMBDA(int v, int i) { var(v, i) = ff.var[v]; });
  for (int it = 0; it < iterations; ++it) {
    acc::parallel_loop(acc::collapse(nvar, nel), acc::default_present, acc::async(queue),
                       ACC_LAMBDA(int v, int i) { old(v, i) = cur(v, i); });
    acc::parallel_loop(nel, acc::default_present, acc::async(queue), ACC_LAMBDA(int i) {
      step[i] = step_factor([&](int v, int e) { return cur(v, e); }, areas[i], i);
    });
    for (int j = 0; j < rk; ++j) {
      acc::parallel_loop(nel, acc::default_present, acc::async(queue), ACC_LAMBDA(int i) {
        float f[nvar];
        element_flux([&](int v, int e) { return cur(v, e); }, [&](int k) { return nb(k, i); },
                     [&](int d, int k) { return normals(d * nnb + k, i); }, ff, i, f);
        for (int v = 0; v < nvar; ++v) flux(v, i) = f[v];
      });
      const float divisor = float(rk + 1 - j);
      acc::parallel_loop(nel, acc::default_present, acc::async(queue), ACC_LAMBDA(int i) {
        const float factor = step[i] / divisor;
        for (int v = 0; v < nvar; ++v) var(v, i) = old(v, i) + factor * flux(v, i);
      });
    }
  }
  acc::wait(queue);
}

}  // namespace

int main(int argc, char** argv) try {
  const int nel = argc > 1 ? std::atoi(argv[1]) : 193474;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 100;
  if (nel < 1 || iterations < 0) {
    std::fprintf(stderr, "usage: euler3d [elements >= 1] [iterations >= 0]\n");
    return 2;
  }
  std::printf("euler3d: %d elements, %d iterations\n", nel, iterations);
  const far_field ff = make_far_field();
  const mesh m = make_mesh(nel);
  const std::vector<float> ref = reference(m, ff, iterations);

  acc::array<float, 2> var("variables", nvar, nel), old("old_variables", nvar, nel), flux("fluxes", nvar, nel);
  acc::array<float> step("step_factors", nel), areas("areas", nel);
  acc::array<int, 2> nb("neighbours", nnb, nel);
  acc::array<float, 2> normals("normals", ndim * nnb, nel);
  std::copy(m.areas.begin(), m.areas.end(), areas.begin());
  std::copy(m.nb.begin(), m.nb.end(), nb.begin());
  std::copy(m.normals.begin(), m.normals.end(), normals.begin());
  {
    acc::data region{acc::copyin(areas), acc::copyin(nb), acc::copyin(normals), acc::create(old),
                     acc::create(flux),  acc::create(step), acc::copyout(var)};
    const double s = rodinia::median_seconds([&] { solve(var, old, flux, step, areas, nb, normals, ff, iterations, 1); });
    rodinia::report("parallel_loop", s);
  }
  // Per variable, the largest difference relative to the variable's largest magnitude: exact
  // on the host (the same float operations); a GPU's fused multiply-adds drift a little per step.
  double d = 0;
  for (int v = 0; v < nvar; ++v) {
    double scale = 0, dv = 0;
    for (int i = 0; i < nel; ++i) {
      const double x = ref[std::size_t(v) * nel + i];
      scale = std::max(scale, std::fabs(x));
      dv = std::max(dv, std::fabs(double(var(v, i)) - x));
    }
    d = std::max(d, dv / std::max(scale, 1e-30));
  }
  if (std::isnan(d)) d = INFINITY;
  double rho_min = INFINITY, rho_max = 0;
  for (int i = 0; i < nel; ++i) rho_min = std::min(rho_min, double(var(0, i))), rho_max = std::max(rho_max, double(var(0, i)));
  std::printf("    parallel_loop: density in [%.4f, %.4f], max relative |acc - reference| = %.3g\n", rho_min, rho_max, d);
  return rodinia::verdict(d <= 1e-3);
} catch (const std::exception& e) {
  std::fprintf(stderr, "euler3d: %s\n", e.what());
  return 1;
}
