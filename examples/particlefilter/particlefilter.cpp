// Rodinia 3.1 particlefilter with acc: tracking a disk moving through noisy video frames with a
// sequential-importance-resampling particle filter (Rodinia's ex_particle_OPENMP_seq.c): per
// frame a random-walk motion step, the likelihood of each particle from the pixels under a disk
// around it, weight update and normalisation, the estimated location, and systematic resampling
// through the weights' CDF. Two variants:
//   parallel_loop  as an OpenACC user writes Rodinia's OpenMP loops: one construct per loop,
//                  parallel reduces for the weights' sum and the estimate, acc::inclusive_scan
//                  for the CDF;
//   team_memory    Rodinia's CUDA layout (likelihood_kernel): a gang per 256 particles moves
//                  them, computes their likelihoods and new weights and sums the weights in
//                  team memory, leaving one partial sum per gang; the rest as parallel_loop.
// The video is generated as Rodinia's videoSequence does (a disk of radius 5 at 228 on a
// background of 100, moving +1, -2 pixels a frame, noise 5 N(0, 1)); Rodinia's per-particle
// generator is its LCG seeded from the clock, here seeded from the particle's index. Checked
// against a sequential host run: the estimated location in every frame.
//
//   particlefilter [x = 128] [y = 128] [frames = 10] [particles = 10000]   (Rodinia's run script)
#include "../common/particlefilter.hpp"
#include "../common/rodinia.hpp"

#include <acc/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

constexpr double pi = 3.1415926535897932;
constexpr int radius = 5;  // Rodinia's strelDisk radius
constexpr int block = 256;  // particles per gang in the team-memory variant

// Rodinia's LCG (GCC's constants A = 1103515245, C = 12345, M = INT_MAX), with the int
// multiplication wrapping as it does there (in unsigned arithmetic, so it is defined here).
ACC_ROUTINE inline double randu(int& seed) {
  const int num = int(1103515245u * unsigned(seed) + 12345u);
  seed = num % 2147483647;
  return fabs(seed / 2147483647.0);
}

// Box-Muller, as Rodinia's randn.
ACC_ROUTINE inline double randn(int& seed) {
  const double u = randu(seed), v = randu(seed);
  return sqrt(-2.0 * log(u)) * cos(2.0 * pi * v);
}

// Rodinia's roundDouble truncates (its `return newValue++` returns the value before the
// increment), and the filter's pixel indices depend on that.
ACC_ROUTINE inline int truncate(double x) { return int(x); }

struct problem {
  int nx, ny, nfr, np, ones;
  std::vector<int> video;  // video[(x * ny + y) * nfr + k]
  std::vector<int> disk;   // disk offsets (dx, dy) pairs, Rodinia's objxy
};

problem make_problem(int nx, int ny, int nfr, int np) {
  problem p{nx, ny, nfr, np, 0, std::vector<int>(std::size_t(nx) * ny * nfr), {}};
  // The disk: offsets within distance < radius of the centre of a (2 radius - 1)^2 square.
  for (int a = -(radius - 1); a <= radius - 1; ++a)
    for (int b = -(radius - 1); b <= radius - 1; ++b)
      if (std::sqrt(double(a * a + b * b)) < radius) {
        p.disk.push_back(b);  // offset along x (Rodinia: objxy[2y + 1])
        p.disk.push_back(a);  // offset along y (objxy[2y])
      }
  p.ones = int(p.disk.size() / 2);
  const int x0 = ny / 2, y0 = nx / 2;  // Rodinia: x0 = round(IszY / 2), y0 = round(IszX / 2)
  int seed = 1;
  for (int k = 0; k < nfr; ++k) {
    const int cx = k == 0 ? x0 : x0 + (k - 1), cy = k == 0 ? y0 : y0 - 2 * (k - 1);
    for (int x = 0; x < nx; ++x)
      for (int y = 0; y < ny; ++y) {
        const double d = std::sqrt(double((x - cx) * (x - cx) + (y - cy) * (y - cy)));
        p.video[(std::size_t(x) * ny + y) * nfr + k] = d < radius ? 228 : 100;
      }
  }
  for (auto& v : p.video) v += int(5 * randn(seed));
  return p;
}

// Likelihood of particle at (px, py) in frame k: the mean over the disk of
// ((I - 100)^2 - (I - 228)^2) / 50, pixels outside the video read as pixel 0 (Rodinia).
template <class Video, class Disk>
ACC_ROUTINE inline double likelihood(const Video& video, const Disk& disk, int ones, double px, double py, int k,
                                     int ny, int nfr, int size) {
  double s = 0.0;
  for (int d = 0; d < ones; ++d) {
    const int ix = truncate(px) + disk(2 * d), iy = truncate(py) + disk(2 * d + 1);
    const int raw = ix * ny * nfr + iy * nfr + k;
    int at = raw < 0 ? -raw : raw;
    if (at >= size) at = 0;
    const double v = video(at);
    s += ((v - 100) * (v - 100) - (v - 228) * (v - 228)) / 50.0;
  }
  return s / ones;
}

using rodinia_particlefilter::find_index;

ACC_ROUTINE inline int initial_seed(int i) { return i * 7919 + 1; }

// The sequential reference; returns the estimates (xe, ye) of frames 1..nfr-1.
std::vector<double> reference(const problem& p) {
  const int np = p.np, size = p.nx * p.ny * p.nfr;
  std::vector<double> ax(np, p.ny / 2), ay(np, p.nx / 2), w(np, 1.0 / np), cdf(np), xj(np), yj(np), est;
  std::vector<int> seed(np);
  for (int i = 0; i < np; ++i) seed[i] = initial_seed(i);
  auto video = [&](int at) { return p.video[at]; };
  auto disk = [&](int d) { return p.disk[d]; };
  for (int k = 1; k < p.nfr; ++k) {
    for (int i = 0; i < np; ++i) {
      ax[i] += 1 + 5 * randn(seed[i]);
      ay[i] += -2 + 2 * randn(seed[i]);
    }
    for (int i = 0; i < np; ++i) w[i] *= std::exp(likelihood(video, disk, p.ones, ax[i], ay[i], k, p.ny, p.nfr, size));
    double sum = 0;
    for (int i = 0; i < np; ++i) sum += w[i];
    for (int i = 0; i < np; ++i) w[i] /= sum;
    double xe = 0, ye = 0;
    for (int i = 0; i < np; ++i) xe += ax[i] * w[i], ye += ay[i] * w[i];
    est.push_back(xe);
    est.push_back(ye);
    cdf[0] = w[0];
    for (int i = 1; i < np; ++i) cdf[i] = cdf[i - 1] + w[i];
    const double u1 = randu(seed[0]) / np;
    for (int j = 0; j < np; ++j) {
      const int i = find_index([&](int x) { return cdf[x]; }, np, u1 + double(j) / np);
      xj[j] = ax[i];
      yj[j] = ay[i];
    }
    ax = xj;
    ay = yj;
    std::fill(w.begin(), w.end(), 1.0 / np);
  }
  return est;
}

// The device state of the filter.
struct filter {
  acc::array<int> video, disk, seed;
  acc::array<double> ax, ay, w, cdf, xj, yj, u1, partial;
  filter(const problem& p)
      : video("video", p.video.size()), disk("disk", p.disk.size()), seed("seed", p.np), ax("array_x", p.np),
        ay("array_y", p.np), w("weights", p.np), cdf("cdf", p.np), xj("xj", p.np), yj("yj", p.np), u1("u1", 1),
        partial("partial_sums", (p.np + block - 1) / block) {
    std::copy(p.video.begin(), p.video.end(), video.begin());
    std::copy(p.disk.begin(), p.disk.end(), disk.begin());
  }
};

// The steps after the weights' update, the same in both variants; returns (xe, ye).
void normalise_estimate_resample(filter& f, double sum, int np, std::vector<double>& est) {
  acc::view<double> w = f.w, ax = f.ax, ay = f.ay, cdf = f.cdf, xj = f.xj, yj = f.yj, u1 = f.u1;
  acc::view<int> seed = f.seed;
  acc::parallel_loop(np, acc::default_present, ACC_LAMBDA(int i) { w[i] /= sum; });
  double xe = 0, ye = 0;
  acc::parallel_loop(np, acc::reduction(acc::plus, xe), acc::reduction(acc::plus, ye), acc::default_present,
                     ACC_LAMBDA(int i, double& x, double& y) {
                       x += ax[i] * w[i];
                       y += ay[i] * w[i];
                     });
  est.push_back(xe);
  est.push_back(ye);
  acc::inclusive_scan(f.w, f.cdf);
  // Rodinia draws u1 from particle 0's generator, on the host; here one iteration on the device.
  acc::parallel_loop(1, acc::default_present, ACC_LAMBDA(int) { u1[0] = randu(seed[0]) / np; });
  acc::parallel_loop(np, acc::default_present, ACC_LAMBDA(int j) {
    const int i = find_index([&](int x) { return cdf[x]; }, np, u1[0] + double(j) / np);
    xj[j] = ax[i];
    yj[j] = ay[i];
  });
  acc::parallel_loop(np, acc::default_present, ACC_LAMBDA(int i) {
    ax[i] = xj[i];
    ay[i] = yj[i];
    w[i] = 1.0 / np;
  });
}

void reset(filter& f, const problem& p) {
  acc::view<double> w = f.w, ax = f.ax, ay = f.ay;
  acc::view<int> seed = f.seed;
  const int np = p.np;
  const double x0 = p.ny / 2, y0 = p.nx / 2;
  acc::parallel_loop(np, acc::default_present, ACC_LAMBDA(int i) {
    ax[i] = x0;
    ay[i] = y0;
    w[i] = 1.0 / np;
    seed[i] = initial_seed(i);
  });
}

// OpenACC, per frame: `parallel loop` for the motion, the likelihoods and weights,
// `parallel loop reduction(+:sum)`, ... as the OpenMP loops.
std::vector<double> run_parallel_loop(filter& f, const problem& p) {
  std::vector<double> est;
  reset(f, p);
  acc::view<const int> video = f.video, disk = f.disk;
  acc::view<double> w = f.w, ax = f.ax, ay = f.ay;
  acc::view<int> seed = f.seed;
  const int np = p.np, ones = p.ones, ny = p.ny, nfr = p.nfr, size = p.nx * p.ny * p.nfr;
  for (int k = 1; k < p.nfr; ++k) {
    acc::parallel_loop(np, acc::default_present, ACC_LAMBDA(int i) {
      ax[i] += 1 + 5 * randn(seed[i]);
      ay[i] += -2 + 2 * randn(seed[i]);
    });
    acc::parallel_loop(np, acc::default_present, ACC_LAMBDA(int i) {
      w[i] *= exp(likelihood([&](int a) { return video[a]; }, [&](int d) { return disk[d]; }, ones, ax[i], ay[i], k,
                             ny, nfr, size));
    });
    const double sum = acc::parallel_reduce(np, acc::plus, ACC_LAMBDA(int i) { return w[i]; });
    normalise_estimate_resample(f, sum, np, est);
  }
  return est;
}

// Per frame, one gang per 256 particles: motion, likelihood and weight in a vector loop, the
// weights also into team memory, halved there 128, 64, ..., 1 at a time to the gang's partial
// sum (Rodinia's likelihood_kernel with its shared buffer); then the partial sums are added.
std::vector<double> run_team_memory(filter& f, const problem& p) {
  std::vector<double> est;
  reset(f, p);
  acc::view<const int> video = f.video, disk = f.disk;
  acc::view<double> w = f.w, ax = f.ax, ay = f.ay, partial = f.partial;
  acc::view<int> seed = f.seed;
  const int np = p.np, ones = p.ones, ny = p.ny, nfr = p.nfr, size = p.nx * p.ny * p.nfr;
  const int blocks = (np + block - 1) / block;
  for (int k = 1; k < p.nfr; ++k) {
    acc::parallel(acc::num_gangs(blocks), acc::vector_length(block), acc::shared_bytes(block * sizeof(double)),
                  acc::default_present, ACC_LAMBDA(const acc::gang_t& g) {
                    const auto s = g.shared<double>(block);
                    acc::loop(g, acc::gang, blocks, [&](int b) {
                      acc::loop(g, acc::vector, int(block), [&](int t) {
                        const int i = b * block + t;
                        double wi = 0.0;
                        if (i < np) {
                          const double x = ax[i] + 1 + 5 * randn(seed[i]);
                          const double y = ay[i] + -2 + 2 * randn(seed[i]);
                          ax[i] = x;
                          ay[i] = y;
                          wi = w[i] * exp(likelihood([&](int a) { return video[a]; }, [&](int d) { return disk[d]; },
                                                     ones, x, y, k, ny, nfr, size));
                          w[i] = wi;
                        }
                        s[t] = wi;
                      });
                      for (int half = block / 2; half >= 1; half /= 2)
                        acc::loop(g, acc::vector, half, [&](int t) { s[t] += s[t + half]; });
                      acc::single(g, acc::per_gang, [&] { partial[b] = s[0]; });
                    });
                  });
    const double sum = acc::parallel_reduce(blocks, acc::plus, ACC_LAMBDA(int b) { return partial[b]; });
    normalise_estimate_resample(f, sum, np, est);
  }
  return est;
}

}  // namespace

int main(int argc, char** argv) try {
  const int nx = argc > 1 ? std::atoi(argv[1]) : 128;
  const int ny = argc > 2 ? std::atoi(argv[2]) : 128;
  const int nfr = argc > 3 ? std::atoi(argv[3]) : 10;
  const int np = argc > 4 ? std::atoi(argv[4]) : 10000;
  if (nx < 1 || ny < 1 || nfr < 1 || np < 1) {
    std::fprintf(stderr, "usage: particlefilter [x >= 1] [y >= 1] [frames >= 1] [particles >= 1]\n");
    return 2;
  }
  std::printf("particlefilter: %d x %d x %d frames, %d particles\n", nx, ny, nfr, np);
  const problem p = make_problem(nx, ny, nfr, np);
  const std::vector<double> ref = reference(p);
  filter f(p);
  acc::data region{acc::copyin(f.video), acc::copyin(f.disk), acc::create(f.seed), acc::create(f.ax),
                   acc::create(f.ay),    acc::create(f.w),    acc::create(f.cdf),  acc::create(f.xj),
                   acc::create(f.yj),    acc::create(f.u1),   acc::create(f.partial)};
  struct variant {
    const char* name;
    std::vector<double> (*run)(filter&, const problem&);
  };
  bool ok = true;
  for (const variant v : {variant{"parallel_loop", run_parallel_loop}, variant{"team_memory", run_team_memory}}) {
    std::vector<double> est;
    const double s = rodinia::median_seconds([&] { est = v.run(f, p); });
    rodinia::report(v.name, s);
    double d = 0;
    for (std::size_t k = 0; k < ref.size(); ++k) d = std::max(d, std::fabs(est[k] - ref[k]));
    if (std::isnan(d) || est.size() != ref.size()) d = INFINITY;
    std::printf("    %s: last estimate (%.4f, %.4f), reference (%.4f, %.4f), max |acc - reference| = %.3g\n", v.name,
                est.empty() ? 0.0 : est[est.size() - 2], est.empty() ? 0.0 : est.back(),
                ref.empty() ? 0.0 : ref[ref.size() - 2], ref.empty() ? 0.0 : ref.back(), d);
    // The weights' sum, the estimate and the CDF are added in another order than the reference
    // (and a GPU's libm rounds randn's log and cos differently), so a particle near a CDF step or
    // a pixel edge may be resampled or scored differently: one particle in 10^4 moves the
    // estimate by about 10^-3 pixel.
    ok &= d <= 1e-2;
  }
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "particlefilter: %s\n", e.what());
  return 1;
}
