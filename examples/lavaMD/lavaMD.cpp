// Rodinia 3.1 lavaMD (particle potentials and forces: space divided into boxes1d^3 boxes of
// 100 particles, each particle interacting with every particle of its own and the up to 26
// neighbouring boxes) with acc. Variant "particles": Rodinia's OpenMP loop nest as one
// parallel_loop over (home box, particle); variant "team": Rodinia CUDA's kernel, one gang per
// home box with the home box's particles and each neighbour box's particles and charges staged
// in team memory (g.shared) and one vector lane per home particle. Compared with a CPU run.
//
//   lavaMD [boxes1d = 10]   (Rodinia: lavaMD -boxes1d 10)
//
// Positions and charges are drawn from Rodinia's set (1..10) / 10 by a fixed generator instead
// of rand() seeded with the time.
#include <acc/parallel.hpp>

#include "../common/rodinia.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

constexpr int per_box = 100;  // Rodinia's NUMBER_PAR_PER_BOX
constexpr double alpha = 0.5;  // Rodinia's par.alpha
constexpr int max_neighbours = 26;

struct four_vector {
  double v, x, y, z;
};

// What particle b contributes to particle a's potential and force (Rodinia's inner loop body).
ACC_ROUTINE inline void interact(four_vector& f, const four_vector& a, const four_vector& b, double q) {
  const double a2 = 2.0 * alpha * alpha;
  const double r2 = a.v + b.v - (a.x * b.x + a.y * b.y + a.z * b.z);
  const double vij = std::exp(-a2 * r2);
  const double fs = 2.0 * vij;
  f.v += q * vij;
  f.x += q * (fs * (a.x - b.x));
  f.y += q * (fs * (a.y - b.y));
  f.z += q * (fs * (a.z - b.z));
}

}  // namespace

int main(int argc, char** argv) try {
  const int b1 = argc > 1 ? std::atoi(argv[1]) : 10;
  if (b1 < 1) {
    std::fprintf(stderr, "usage: lavaMD [boxes1d >= 1]\n");
    return 2;
  }
  const int boxes = b1 * b1 * b1, n = boxes * per_box;
  std::printf("lavaMD: %d boxes of %d particles on %s\n", boxes, per_box,
              acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");
  // Neighbour lists as Rodinia's main builds them: offsets z, y, x from -1 to 1, in that
  // nesting, inside the space, the home box itself left out (it is processed first).
  acc::array<int> count("neighbour_count", boxes);
  acc::array<int, 2> neighbour("neighbours", boxes, max_neighbours);
  for (int z = 0; z < b1; ++z)
    for (int y = 0; y < b1; ++y)
      for (int x = 0; x < b1; ++x) {
        const int h = (z * b1 + y) * b1 + x;
        int c = 0;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int zz = z + dz, yy = y + dy, xx = x + dx;
              if ((dz || dy || dx) && zz >= 0 && yy >= 0 && xx >= 0 && zz < b1 && yy < b1 && xx < b1)
                neighbour(h, c++) = (zz * b1 + yy) * b1 + xx;
            }
        count[h] = c;
      }
  acc::array<four_vector> rv("rv", n), fv("fv", n);
  acc::array<double> qv("qv", n);
  rodinia::random rng(5);
  auto tenth = [&] { return double(rng.below(10) + 1) / 10.0; };
  for (int i = 0; i < n; ++i) {
    rv[i].v = tenth();
    rv[i].x = tenth();
    rv[i].y = tenth();
    rv[i].z = tenth();
  }
  for (int i = 0; i < n; ++i) qv[i] = tenth();

  // The CPU reference: Rodinia's kernel_cpu.
  std::vector<four_vector> ref(n, four_vector{0, 0, 0, 0});
  for (int l = 0; l < boxes; ++l)
    for (int k = 0; k <= count[l]; ++k) {
      const int other = k == 0 ? l : neighbour(l, k - 1);
      for (int i = 0; i < per_box; ++i)
        for (int j = 0; j < per_box; ++j)
          interact(ref[l * per_box + i], rv[l * per_box + i], rv[other * per_box + j], qv[other * per_box + j]);
    }

  acc::data region{acc::copyin(count), acc::copyin(neighbour), acc::copyin(rv), acc::copyin(qv), acc::create(fv)};
  acc::view<const int> nn = count;
  acc::view<const int, 2> nei = neighbour;
  acc::view<const four_vector> r = rv;
  acc::view<const double> q = qv;
  acc::view<four_vector> f = fv;
  bool ok = true;
  auto reset = [&] {
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(int i) { f[i] = four_vector{0, 0, 0, 0}; });
  };
  // #pragma acc parallel loop collapse(2) present(...): one iteration per home particle.
  auto particles = [&] {
    acc::parallel_loop(acc::collapse(boxes, per_box), acc::default_present, ACC_LAMBDA(int l, int i) {
      const int a = l * per_box + i;
      const four_vector ra = r[a];
      four_vector fa = f[a];
      for (int k = 0; k <= nn[l]; ++k) {
        const int first = (k == 0 ? l : nei(l, k - 1)) * per_box;
        for (int j = 0; j < per_box; ++j) interact(fa, ra, r[first + j], q[first + j]);
      }
      f[a] = fa;
    });
  };
  // One gang per home box (Rodinia: 128 threads per block).
  auto team = [&] {
    acc::parallel(acc::num_gangs(boxes), acc::vector_length(128),
                  acc::shared_bytes(2 * per_box * sizeof(four_vector) + per_box * sizeof(double)), acc::default_present,
                  ACC_LAMBDA(const acc::gang_t& g) {
                    const auto ra = g.shared<four_vector>(per_box);
                    const auto rb = g.shared<four_vector>(per_box);
                    const auto qb = g.shared<double>(per_box);
                    const int np = per_box;  // acc::loop binds its extent to a reference
                    acc::loop(g, acc::gang, boxes, [&](int l) {
                      acc::loop(g, acc::vector, np, [&](int i) { ra[i] = r[l * per_box + i]; });
                      for (int k = 0; k <= nn[l]; ++k) {
                        const int first = (k == 0 ? l : nei(l, k - 1)) * per_box;
                        acc::loop(g, acc::vector, np, [&](int j) {
                          rb[j] = r[first + j];
                          qb[j] = q[first + j];
                        });
                        acc::loop(g, acc::vector, np, [&](int i) {
                          four_vector fa = f[l * per_box + i];
                          for (int j = 0; j < per_box; ++j) interact(fa, ra[i], rb[j], qb[j]);
                          f[l * per_box + i] = fa;
                        });
                      }
                    });
                  });
  };
  for (const bool shared : {false, true}) {
    const char* name = shared ? "team" : "particles";
    rodinia::report(name, shared ? rodinia::median_seconds(reset, team) : rodinia::median_seconds(reset, particles));
    acc::update_self(fv);
    // Sums of up to 2700 positive terms of O(1): relative rounding far below 1e-10 in any order,
    // with or without fused multiply-adds and whatever exp's last bit.
    double d = 0;
    for (int i = 0; i < n; ++i) {
      const four_vector& a = fv[i];
      const four_vector& b = ref[i];
      for (double e : {a.v - b.v, a.x - b.x, a.y - b.y, a.z - b.z}) d = std::fmax(d, std::fabs(e) / (1 + std::fabs(b.v)));
    }
    std::printf("  %s: max relative difference from the CPU's %.3g\n", name, d);
    ok &= d <= 1e-10;
  }
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "lavaMD: %s\n", e.what());
  return 1;
}
