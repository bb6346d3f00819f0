// acc::tuned against an exhaustive sweep of fixed launch shapes and against the default shape,
// on fifteen kernels (data resident on the GPU, so only the kernel is timed). Thirteen are shaped
// after the examples: saxpy (examples/saxpy), a hotspot step (examples/hotspot), hotspot3D's
// z-marching step (examples/hotspot3D), a matrix product (examples/matmul), an n-body force sum
// (examples/nbody), a CG sparse matrix-vector product (examples/npb_cg), a dot product (npb_cg's
// norms, parallel_reduce), a b+tree search (examples/b+tree), per-instance ODE integrations
// (examples/myocyte), NPB EP's slices (examples/npb_ep, a parallel_reduce of a struct),
// k-means' membership step (examples/kmeans), particlefilter's resampling search
// (examples/particlefilter) and NPB BT's x_solve (examples/npb_bt, its own code). Two are loops
// of few, heavy iterations, where the default launch is poor: it gives each block up to 256
// iterations (one per thread), so 4096 or 8192 iterations fill 16 or 32 blocks and leave most
// of the GPU's SMs (132 on the H100) idle; 32 or 64 lanes spread them over every SM:
//   few heavy: 4096 iterations of eight logistic-map orbits of 2^14 steps each (compute bound);
//   row sums: 8192 rows of 4096 doubles, one row per iteration (bound by memory latency).
// The sweep: vector_length in {32 .. 1024} x {default gangs, 1 .. 64 iterations per thread}, less
// the vector lengths a kernel cannot have (more threads a gang than its registers allow).
// tuned: called until its search is done (its shapes, trials and their cost are in acc's report
// at the end). Then the default, the sweep's best shape and tuned are timed again taking turns
// run by run, and those medians are printed: the sweep's best is the lowest of some fifty
// medians, so its own median is lucky by the spread of a few runs, and an 18 us kernel's time
// drifts by several percent over the sweep's seconds (both would count against tuned, timed
// last, alone). Prints per kernel: default, best fixed (and its shape),
// tuned, tuned / best fixed (OVER 3%: above 1.03) and default / tuned (the gain; 1.2x or more is
// marked "default poor").
//   bench_tuned [--runs N] [--kernel NAME]   (NAME as printed, quoted where it has a space)
// Exits 1 on a wrong result or a tuned shape more than 3% slower than the sweep's best; 0
// without a GPU (nothing to measure).
#include <acc/parallel.hpp>
#include <acc/detail/selection.hpp>

#include "../examples/common/hotspot3d.hpp"
#include "../examples/common/kmeans.hpp"
#include "../examples/common/npb_bt.hpp"
#include "../examples/common/npb_ep.hpp"
#include "../examples/common/particlefilter.hpp"
#include "check.cuh"
#include "timing.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int vector_lengths[] = {32, 64, 128, 256, 512, 1024};
constexpr int gang_factors[] = {0, 1, 2, 4, 8, 16, 32, 64};

/// A kernel's three ways of being launched: default shape, a fixed one, tuned. Each kernel's
/// launch(v, g) writes `acc::parallel_loop(space, shape..., body)` once per way, so that the
/// shapes compare the same body.
struct shape {
  int vector_length = 0, num_gangs = 0;  // 0: not given
  bool tuned = false;
};

template <class Space, class Body>
void loop(const Space& space, shape s, const Body& body) {
  if (s.tuned) acc::parallel_loop(space, acc::tuned, body);
  else if (s.vector_length && s.num_gangs)
    acc::parallel_loop(space, acc::vector_length(s.vector_length), acc::num_gangs(s.num_gangs), body);
  else if (s.vector_length) acc::parallel_loop(space, acc::vector_length(s.vector_length), body);
  else acc::parallel_loop(space, body);
}

/// f(clauses...) with the clauses of shape s: for kernels whose example function takes launch
/// clauses and writes the construct itself.
template <class F>
void with_shape(shape s, F f) {
  if (s.tuned) f(acc::tuned);
  else if (s.vector_length && s.num_gangs) f(acc::vector_length(s.vector_length), acc::num_gangs(s.num_gangs));
  else if (s.vector_length) f(acc::vector_length(s.vector_length));
  else f();
}

template <class Body>
double reduce(std::int64_t n, shape s, const Body& body) {
  if (s.tuned) return acc::parallel_reduce(n, acc::tuned, acc::plus, body);
  if (s.vector_length && s.num_gangs)
    return acc::parallel_reduce(n, acc::vector_length(s.vector_length), acc::num_gangs(s.num_gangs), acc::plus, body);
  if (s.vector_length) return acc::parallel_reduce(n, acc::vector_length(s.vector_length), acc::plus, body);
  return acc::parallel_reduce(n, acc::plus, body);
}

struct saxpy {
  static constexpr const char* name = "saxpy";
  std::int64_t n = 1 << 24;
  acc::array<float> x{n}, y{n};
  saxpy() {
    for (std::int64_t i = 0; i < n; ++i) x[i] = float(i % 7), y[i] = 1;
  }
  std::int64_t size() const { return n; }
  void run(shape s) {
    acc::view<const float> x = this->x;
    auto y = this->y;
    loop(n, s, ACC_LAMBDA(std::int64_t i) { y[i] = 2.0f * x[i] + y[i] * 0.5f; });
  }
  template <class F> void each(F f) { f(x); f(y); }
  bool check() const { return std::isfinite(y[n - 1]); }
};

struct hotspot {
  static constexpr const char* name = "hotspot";
  static constexpr int side = 4096;
  acc::array<float, 2> temp{side, side}, power{side, side}, out{side, side};
  hotspot() {
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) temp(i, j) = 300 + float((i + j) % 13), power(i, j) = float((i * j) % 5) * 0.01f;
  }
  std::int64_t size() const { return std::int64_t(side - 2) * (side - 2); }
  void run(shape s) {
    acc::view<const float, 2> t = temp, p = power;
    auto o = out;
    loop(acc::collapse(acc::range(1, side - 1), acc::range(1, side - 1)), s, ACC_LAMBDA(int i, int j) {
      o(i, j) = t(i, j) + 0.1f * (p(i, j) + (t(i - 1, j) + t(i + 1, j) - 2 * t(i, j)) +
                                  (t(i, j - 1) + t(i, j + 1) - 2 * t(i, j)) + 0.01f * (80 - t(i, j)));
    });
  }
  template <class F> void each(F f) { f(temp); f(power); f(out); }
  bool check() const { return std::isfinite(out(side / 2, side / 2)); }
};

// examples/hotspot3D's "zmarch" step at Rodinia's 512 x 512 x 8: one iteration per (y, x) column
// marching up z (hotspot3d::march_column). Over a flat collapse(2) of 512-wide rows, whether a
// gang's north and south neighbours are its own rows (L1) or other gangs' (L2) depends on the
// gang's shape: the example's tiled variant takes gangs of 64 x 4 columns for that.
struct hotspot3D {
  static constexpr const char* name = "hotspot3D";
  static constexpr int nz = 8, ny = 512, nx = 512;
  acc::array<float, 3> tin{nz, ny, nx}, power{nz, ny, nx}, tout{nz, ny, nx};
  hotspot3d::coefficients k = hotspot3d::coefficients_of(ny, nx, nz);
  hotspot3D() {
    std::mt19937 rng(512);
    std::uniform_real_distribution<float> u(0, 1);
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) tin(z, y, x) = 320 + 20 * u(rng), power(z, y, x) = 0.001f * u(rng);
  }
  std::int64_t size() const { return std::int64_t(ny) * nx; }
  void run(shape s) {
    acc::view<const float, 3> t = tin, p = power;
    acc::view<float, 3> o = tout;
    const hotspot3d::coefficients c = k;
    loop(acc::collapse(ny, nx), s, ACC_LAMBDA(int y, int x) { hotspot3d::march_column(t, p, o, y, x, nz, ny, nx, c); });
  }
  template <class F> void each(F f) { f(tin); f(power); f(tout); }
  // Some columns, the faces and corners among them, as the host computes them (a GPU's fused
  // multiply-adds round differently: a relative 1e-5).
  bool check() const {
    std::vector<float> want(std::size_t(nz) * ny * nx);
    const auto w = [&](int z, int y, int x) -> float& { return want[(std::size_t(z) * ny + y) * nx + x]; };
    for (int y : {0, 1, 255, ny - 1})
      for (int x : {0, 7, 300, nx - 1}) {
        hotspot3d::march_column(tin, power, w, y, x, nz, ny, nx, k);
        for (int z = 0; z < nz; ++z)
          if (!(std::fabs(tout(z, y, x) - w(z, y, x)) <= 1e-5f * std::fabs(w(z, y, x)))) return false;
      }
    return true;
  }
};

struct matmul {
  static constexpr const char* name = "matmul";
  static constexpr int n = 1024;
  acc::array<float, 2> a{n, n}, b{n, n}, c{n, n};
  matmul() {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) a(i, j) = float((i + j) % 3), b(i, j) = float((i * j) % 4);
  }
  std::int64_t size() const { return std::int64_t(n) * n; }
  void run(shape s) {
    acc::view<const float, 2> a = this->a, b = this->b;
    auto c = this->c;
    loop(acc::collapse(n, n), s, ACC_LAMBDA(int i, int j) {
      float sum = 0;
      for (int k = 0; k < n; ++k) sum += a(i, k) * b(k, j);
      c(i, j) = sum;
    });
  }
  template <class F> void each(F f) { f(a); f(b); f(c); }
  bool check() const {
    float sum = 0;
    for (int k = 0; k < n; ++k) sum += a(3, k) * b(k, 5);
    return c(3, 5) == sum;
  }
};

struct nbody {
  static constexpr const char* name = "nbody";
  static constexpr int n = 16384;
  acc::array<float> px{n}, py{n}, pz{n}, ax{n};
  nbody() {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> d(-1, 1);
    for (int i = 0; i < n; ++i) px[i] = d(rng), py[i] = d(rng), pz[i] = d(rng);
  }
  std::int64_t size() const { return n; }
  void run(shape s) {
    acc::view<const float> x = px, y = py, z = pz;
    auto a = ax;
    loop(n, s, ACC_LAMBDA(int i) {
      float f = 0;
      for (int j = 0; j < n; ++j) {
        const float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
        const float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
        f += dx / (r2 * sqrtf(r2));
      }
      a[i] = f;
    });
  }
  template <class F> void each(F f) { f(px); f(py); f(pz); f(ax); }
  bool check() const { return std::isfinite(ax[7]); }
};

struct spmv {
  static constexpr const char* name = "cg spmv";
  static constexpr int rows = 1 << 20, per_row = 16;
  acc::array<int> cols{std::int64_t(rows) * per_row};
  acc::array<double> vals{std::int64_t(rows) * per_row}, x{rows}, y{rows};
  spmv() {
    std::mt19937 rng(2);
    for (std::int64_t k = 0; k < std::int64_t(rows) * per_row; ++k) cols[k] = int(rng() % rows), vals[k] = 1.0 / (1 + k % 9);
    for (int i = 0; i < rows; ++i) x[i] = 1.0 + i % 3;
  }
  std::int64_t size() const { return rows; }
  void run(shape s) {
    acc::view<const int> c = cols;
    acc::view<const double> v = vals, xv = x;
    auto yv = y;
    loop(rows, s, ACC_LAMBDA(int i) {
      double sum = 0;
      for (int k = 0; k < per_row; ++k) sum += v[std::int64_t(i) * per_row + k] * xv[c[std::int64_t(i) * per_row + k]];
      yv[i] = sum;
    });
  }
  template <class F> void each(F f) { f(cols); f(vals); f(x); f(y); }
  bool check() const {
    double sum = 0;
    for (int k = 0; k < per_row; ++k) sum += vals[9 * per_row + k] * x[cols[9 * per_row + k]];
    return y[9] == sum;
  }
};

struct dot {
  static constexpr const char* name = "dot";
  std::int64_t n = 1 << 24;
  acc::array<double> x{n};
  double result = 0;
  dot() {
    for (std::int64_t i = 0; i < n; ++i) x[i] = double(i % 17) - 8;
  }
  std::int64_t size() const { return n; }
  void run(shape s) {
    acc::view<const double> x = this->x;
    result = reduce(n, s, ACC_LAMBDA(std::int64_t i) { return x[i] * 2; });
  }
  template <class F> void each(F f) { f(x); }
  bool check() const { return result == 2.0 * double(bench::sum_mod17(n)); }
};

// examples/b+tree's k search (Rodinia's kernel_cpu): 10,000 queries, each walking a tree of
// order 508 over 10^6 keys from the root to a leaf, scanning every key slot of one node a level.
// The leaves' rows differ from query to query, so a warp's loads touch 32 rows: bound by how many
// loads each SM has in flight, as row sums; the default's 40 blocks of 256 use 40 SMs.
struct btree {
  static constexpr const char* name = "b+tree";
  static constexpr int order = 508, fill = order * 3 / 4, records = 1000000, queries = 10000;
  static constexpr int empty = 0x7fffffff;  // a free key slot: above every key
  int nodes = 0, height = 0;                // height: inner levels above the leaves
  acc::array<int, 2> keys, indices;
  acc::array<int> q{queries}, ans{queries};
  // Bulk-loaded bottom up as the example's tree: `fill` keys a leaf (a record's key is twice its
  // index), `fill` children an inner node, whose slot s holds child s's first key and the slot
  // after its last child `empty`; the root is node 0, each level after the one above it.
  static std::vector<std::vector<int>> levels() {
    std::vector<std::vector<int>> first_keys{{}};  // per level, each node's first key
    for (int r = 0; r < records; r += fill) first_keys[0].push_back(2 * r);
    while (first_keys.back().size() > 1) {
      std::vector<int> up;
      for (std::size_t c = 0; c < first_keys.back().size(); c += fill) up.push_back(first_keys.back()[c]);
      first_keys.push_back(up);
    }
    return first_keys;
  }
  btree() : btree(levels()) {}
  explicit btree(const std::vector<std::vector<int>>& lv) : height(int(lv.size()) - 1) {
    std::vector<int> offset(lv.size());  // node id of each level's first node, root first
    for (int l = int(lv.size()) - 1; l >= 0; --l) {
      offset[std::size_t(l)] = nodes;
      nodes += int(lv[std::size_t(l)].size());
    }
    keys = acc::array<int, 2>(nodes, order + 1);
    indices = acc::array<int, 2>(nodes, order + 1);
    for (int n = 0; n < nodes; ++n)
      for (int s = 0; s <= order; ++s) keys(n, s) = empty, indices(n, s) = nodes;
    for (int r = 0; r < records; ++r) {
      keys(offset[0] + r / fill, r % fill) = 2 * r;
      indices(offset[0] + r / fill, r % fill) = r;
    }
    for (std::size_t l = 1; l < lv.size(); ++l)
      for (std::size_t c = 0; c < lv[l - 1].size(); ++c) {
        const int n = offset[l] + int(c / fill), s = int(c % fill);
        keys(n, s) = lv[l - 1][c];
        indices(n, s) = offset[l - 1] + int(c);
      }
    std::mt19937 rng(3);
    for (int b = 0; b < queries; ++b) q[b] = int(rng() % (2u * records));
  }
  std::int64_t size() const { return queries; }
  void run(shape s) {
    acc::view<const int, 2> k = keys, ix = indices;
    acc::view<const int> qv = q;
    auto a = ans;
    const int nodes = this->nodes, height = this->height;
    loop(queries, s, ACC_LAMBDA(int b) {
      int node = 0;
      for (int level = 0; level < height; ++level) {
        int next = node;
        for (int t = 0; t < order; ++t)
          if (k(node, t) <= qv[b] && k(node, t + 1) > qv[b] && ix(node, t) < nodes) next = ix(node, t);
        node = next;
      }
      int found = -1;
      for (int t = 0; t < order; ++t)
        if (k(node, t) == qv[b]) found = ix(node, t);
      a[b] = found;
    });
  }
  template <class F> void each(F f) { f(keys); f(indices); f(q); f(ans); }
  bool check() const {
    for (int b = 0; b < queries; ++b)
      if (ans[b] != (q[b] % 2 ? -1 : q[b] / 2)) return false;
    return true;
  }
};

// examples/myocyte's per_instance variant: Rodinia's 1024 instances of an ODE system, each
// integrated by one iteration with its stages in its own slice of a global array, so that a
// warp's accesses touch 32 slices. The system is a stand-in (32 coupled equations, classic
// Runge-Kutta over 100 steps from a fixed start; the example's is the 91-equation ECC/CaM model
// under RKF 7(8)): the same shape of work, few iterations each of ~10^5 dependent floating-point
// operations. The default's 4 blocks of 256 run on 4 SMs (the example says so where it passes
// vector_length(32) and (8) in its other variants).
ACC_ROUTINE inline void myocyte_rhs(const double* y, double* dy, int equations, int m) {
  for (int i = 0; i < equations; ++i)
    dy[i] = -0.5 * y[i] + 0.3 * sin(y[(i + 1) % equations]) + 0.1 * cos(y[(i + 5) % equations]) + 1e-4 * m;
}

ACC_ROUTINE inline void myocyte_solve(const double* y0, double* y, double* k, int equations, int steps, int m) {
  constexpr double h = 0.05;
  double* const tmp = k + 4 * equations;
  for (int i = 0; i < equations; ++i) y[i] = y0[i];
  for (int step = 0; step < steps; ++step) {
    myocyte_rhs(y, k, equations, m);
    for (int i = 0; i < equations; ++i) tmp[i] = y[i] + 0.5 * h * k[i];
    myocyte_rhs(tmp, k + equations, equations, m);
    for (int i = 0; i < equations; ++i) tmp[i] = y[i] + 0.5 * h * k[equations + i];
    myocyte_rhs(tmp, k + 2 * equations, equations, m);
    for (int i = 0; i < equations; ++i) tmp[i] = y[i] + h * k[2 * equations + i];
    myocyte_rhs(tmp, k + 3 * equations, equations, m);
    for (int i = 0; i < equations; ++i)
      y[i] += h / 6 * (k[i] + 2 * k[equations + i] + 2 * k[2 * equations + i] + k[3 * equations + i]);
  }
}

struct myocyte {
  static constexpr const char* name = "myocyte";
  static constexpr int instances = 1024, equations = 32, steps = 100;
  acc::array<double> y0{instances * equations}, y{instances * equations}, k{instances * 5 * equations};
  myocyte() {
    for (int m = 0; m < instances; ++m)
      for (int i = 0; i < equations; ++i) y0[m * equations + i] = 0.1 * ((i * 7 + m) % 11) - 0.5;
  }
  std::int64_t size() const { return instances; }
  void run(shape s) {
    acc::view<double> start = y0, yv = y, kv = k;  // not const: the elements' addresses are taken
    loop(instances, s, ACC_LAMBDA(int m) {
      myocyte_solve(&start[m * equations], &yv[m * equations], &kv[m * 5 * equations], equations, steps, m);
    });
  }
  template <class F> void each(F f) { f(y0); f(y); f(k); }
  bool check() const {
    double want[equations], work[5 * equations];
    for (int m : {0, 1, 517, instances - 1}) {
      myocyte_solve(&y0[m * equations], want, work, equations, steps, m);
      for (int i = 0; i < equations; ++i)
        if (!(std::fabs(y[m * equations + i] - want[i]) <= 1e-9 * (1 + std::fabs(want[i])))) return false;
    }
    return true;
  }
};

// examples/npb_ep at class S: 2^14 slices of 2^10 Gaussian pairs each, a parallel_reduce of a
// tally (two sums and ten annulus counts) per slice (npb::ep::slice). Each slice walks NPB's
// generator to its start by binary powering, then generates its pairs: few iterations of serial
// floating-point work (randlc, log, sqrt), so the default's 64 blocks of 256 run on 64 of the SMs.
struct npb_ep {
  static constexpr const char* name = "npb ep";
  static constexpr int m = 24;  // class S: 2^24 pairs
  static constexpr std::int64_t slices = std::int64_t(1) << (m - npb::ep::ms);
  const double stride = npb::ep::slice_stride();
  npb::ep::tally result{};
  std::int64_t size() const { return slices; }
  void run(shape s) {
    using npb::ep::tally_sum;
    const double step = stride;
    const auto body = ACC_LAMBDA(std::int64_t k) -> npb::ep::tally { return npb::ep::slice(long(k), step); };
    if (s.tuned) result = acc::parallel_reduce(slices, acc::tuned, tally_sum{}, body);
    else if (s.vector_length && s.num_gangs)
      result = acc::parallel_reduce(slices, acc::vector_length(s.vector_length), acc::num_gangs(s.num_gangs),
                                    tally_sum{}, body);
    else if (s.vector_length)
      result = acc::parallel_reduce(slices, acc::vector_length(s.vector_length), tally_sum{}, body);
    else result = acc::parallel_reduce(slices, tally_sum{}, body);
  }
  template <class F> void each(F) {}
  // NPB 3.4 EP's class S verification values, to a relative 1e-8 as NPB checks them.
  bool check() const {
    return std::fabs(result.sx / -3.247834652034740e+3 - 1) <= 1e-8 &&
           std::fabs(result.sy / -6.958407078382297e+3 - 1) <= 1e-8;
  }
};

// examples/kmeans's membership step (Rodinia kmeans at kdd_cup's size): for each of 494,020
// points of 34 float features, the nearest of 5 centres, counting the points whose cluster
// changed (a parallel_reduce). A thread reads its point's 136 bytes once per centre, so the
// time depends on whether the resident threads' points stay in L1 between those passes.
struct kmeans {
  static constexpr const char* name = "kmeans";
  static constexpr int n = 494020, nf = 34, nc = 5;
  acc::array<float, 2> feature{n, nf}, centres{nc, nf};
  acc::array<int> membership{n};
  double delta = 0;
  kmeans() {
    std::mt19937 rng(494020);
    std::uniform_real_distribution<float> u(0, 1);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < nf; ++j) feature(i, j) = u(rng);
    for (int c = 0; c < nc; ++c)
      for (int j = 0; j < nf; ++j) centres(c, j) = feature(c, j);
    for (int i = 0; i < n; ++i) membership[i] = -1;
  }
  std::int64_t size() const { return n; }
  void run(shape s) {
    acc::view<const float, 2> f = feature, c = centres;
    acc::view<int> m = membership;
    delta = reduce(n, s, ACC_LAMBDA(std::int64_t i) {
      const int k =
          rodinia_kmeans::nearest([&](int j) { return f(i, j); }, [&](int a, int j) { return c(a, j); }, nc, nf);
      const int changed = m[i] != k;
      m[i] = k;
      return changed;
    });
  }
  template <class F> void each(F f) { f(feature); f(centres); f(membership); }
  // Every point's cluster as the host finds it; a GPU's fused multiply-adds may round a near
  // tie the other way, so a few may differ.
  bool check() const {
    int differ = 0;
    for (int i = 0; i < n; ++i)
      differ += membership[i] != rodinia_kmeans::nearest([&](int j) { return feature(i, j); },
                                                          [&](int a, int j) { return centres(a, j); }, nc, nf);
    return differ <= 10;
  }
};

// examples/particlefilter's resampling step at Rodinia's 10,000 particles: each particle's
// linear search of the 10,000-entry CDF (rodinia_particlefilter::find_index), then its copy.
// Few iterations, each thousands of dependent loads: the default's 40 blocks of 256 leave most
// SMs idle, as in `row sums` below.
struct pf_resample {
  static constexpr const char* name = "pf resample";
  static constexpr int np = 10000;
  acc::array<double> cdf{np}, ax{np}, ay{np}, xj{np}, yj{np};
  double u1 = 0;
  pf_resample() {
    std::mt19937 rng(10000);
    std::uniform_real_distribution<double> u(0, 1);
    double sum = 0;
    for (int i = 0; i < np; ++i) cdf[i] = sum += u(rng), ax[i] = 64 + u(rng), ay[i] = 64 - u(rng);
    for (int i = 0; i < np; ++i) cdf[i] /= sum;
    u1 = u(rng) / np;
  }
  std::int64_t size() const { return np; }
  void run(shape s) {
    acc::view<const double> c = cdf, x = ax, y = ay;
    acc::view<double> xo = xj, yo = yj;
    const double u = u1;
    loop(np, s, ACC_LAMBDA(int j) {
      const int i = rodinia_particlefilter::find_index([&](int k) { return c[k]; }, np, u + double(j) / np);
      xo[j] = x[i];
      yo[j] = y[i];
    });
  }
  template <class F> void each(F f) { f(cdf); f(ax); f(ay); f(xj); f(yj); }
  bool check() const {
    for (int j = 0; j < np; j += 37) {
      const int i = rodinia_particlefilter::find_index([&](int k) { return cdf[k]; }, np, u1 + double(j) / np);
      if (xj[j] != ax[i] || yj[j] != ay[i]) return false;
    }
    return true;
  }
};

// examples/npb_bt's x_solve on the GPU at class A (a 64^3 grid): npb::bt::solve_lines<0>, one
// iteration per grid line, 62 x 62 lines of 62 interior points, each a block tridiagonal
// elimination and back substitution of 5x5 blocks (three flux Jacobians, a 5x5 inversion and
// products per point: ~10^4 dependent floating-point operations), its C' blocks stored per point
// for the way back, threads of neighbouring lines 64 points apart in u and rhs. The default's
// 16 blocks of 256 threads run on 16 SMs; warps of 32 spread over the GPU (the example's npb_sp
// twin passes vector_length(32) for this reason). Each call first restores rhs (the solve works in
// place), a copy of 10 MB, so that every call solves the same system.
struct bt_solve {
  static constexpr const char* name = "bt x_solve";
  static constexpr int n = 64;
  static constexpr double dt = 0.0008;  // NPB BT class A's time step
  npb::bt::grid g{{n, n, n}, long(n) * n * n};
  npb::bt::coefficients c = npb::bt::make_coefficients(g.n, dt);
  acc::array<double> u{5 * g.points}, rhs0{5 * g.points}, rhs{5 * g.points}, forcing{1},
      aux{npb::bt::aux_fields * g.points}, lhs_c{25L * n * (n - 2) * (n - 2)};
  bt_solve() {
    const npb::bt::fields f = host_fields(rhs);
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          double v[5];
          npb::bt::initial_value(c, g, k, j, i, v);
          const long p = g.at(k, j, i);
          for (int m = 0; m < 5; ++m) u[m * g.points + p] = v[m];
          npb::bt::derive_aux(f, p);
          // A right-hand side of the size NPB's has after compute_rhs (dt times the residual).
          for (int m = 0; m < 5; ++m) rhs0[m * g.points + p] = dt * std::sin(0.1 * (i + 3 * j + 7 * k + 11 * m));
        }
  }
  npb::bt::fields host_fields(const acc::array<double>& r) const {
    return {g, acc::view<double>(u.data(), u.size()), acc::view<double>(r.data(), r.size()),
            acc::view<double>(forcing.data(), forcing.size()), acc::view<double>(aux.data(), aux.size()),
            acc::view<double>(lhs_c.data(), lhs_c.size())};
  }
  std::int64_t size() const { return std::int64_t(n - 2) * (n - 2); }
  void run(shape s) {
    acc::view<const double> from = rhs0;
    acc::view<double> to = rhs;
    acc::parallel_loop(5 * g.points, ACC_LAMBDA(long i) { to[i] = from[i]; });
    const npb::bt::fields f{g, u, rhs, forcing, aux, lhs_c};
    with_shape(s, [&](auto... clauses) { npb::bt::solve_lines<0>(f, c, clauses...); });
  }
  template <class F> void each(F f) { f(u); f(rhs0); f(rhs); f(forcing); f(aux); f(lhs_c); }
  // Some lines as the host solves them (its Jacobians computed once a point, the GPU's three
  // times: the same values), to a relative 1e-9.
  bool check() const {
    acc::array<double> want{5 * g.points};
    for (long p = 0; p < 5 * g.points; ++p) want[p] = rhs0[p];
    const npb::bt::fields f = host_fields(want);
    std::vector<double> cprime(25 * n);
    for (const auto [k, j] : {std::pair{1, 1}, std::pair{17, 40}, std::pair{n - 2, n - 2}}) {
      const long p0 = g.at(k, j, 0);
      npb::bt::solve_line(f, c, 0, p0, [&](int pos, int e) -> double& { return cprime[pos * 25 + e]; });
      for (int pos = 1; pos <= n - 2; ++pos)
        for (int m = 0; m < 5; ++m) {
          const long q = m * g.points + p0 + pos;
          if (!(std::fabs(rhs[q] - want[q]) <= 1e-9 * (1e-6 + std::fabs(want[q])))) return false;
        }
    }
    return true;
  }
};

struct few_heavy {
  static constexpr const char* name = "few heavy";
  static constexpr int n = 4096, steps = 1 << 14;
  acc::array<float> out{n};
  std::int64_t size() const { return n; }
  void run(shape s) {
    auto o = out;
    // Eight independent orbits per iteration: enough independent work for a warp to keep its
    // SM's scheduler busy, so that the time depends on how many SMs have warps.
    loop(n, s, ACC_LAMBDA(int i) {
      const float r = 3.6f + 0.0001f * float(i % 1000);
      float x[8];
      for (int u = 0; u < 8; ++u) x[u] = 0.2f + 0.05f * float(u) + 0.1f * float(i) / float(n);
      for (int k = 0; k < steps; ++k)
        for (int u = 0; u < 8; ++u) x[u] = r * x[u] * (1.0f - x[u]);
      float sum = 0;
      for (int u = 0; u < 8; ++u) sum += x[u];
      o[i] = sum;
    });
  }
  template <class F> void each(F f) { f(out); }
  bool check() const {
    for (int i = 0; i < n; i += 97)
      if (!(out[i] >= 0 && out[i] <= 8)) return false;
    return true;
  }
};

struct row_sums {
  static constexpr const char* name = "row sums";
  static constexpr int rows = 8192, cols = 4096;
  acc::array<double, 2> m{rows, cols};
  acc::array<double> sums{rows};
  row_sums() {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) m(i, j) = double((i + j) % 7);
  }
  std::int64_t size() const { return rows; }
  void run(shape s) {
    acc::view<const double, 2> a = m;
    auto out = sums;
    loop(rows, s, ACC_LAMBDA(int i) {
      double sum = 0;
      for (int j = 0; j < cols; ++j) sum += a(i, j);
      out[i] = sum;
    });
  }
  template <class F> void each(F f) { f(m); f(sums); }
  bool check() const {
    for (int i : {0, 5, rows - 1}) {
      double want = 0;
      for (int j = 0; j < cols; ++j) want += double((i + j) % 7);
      if (sums[i] != want) return false;
    }
    return true;
  }
};

struct outcome {
  bool correct = true, within = true;
};

const char* only = nullptr;  // --kernel NAME: that kernel alone

template <class K>
outcome measure(int runs) {
  if (only && std::string(only) != K::name) return {};
  K k;
  k.each([](auto& a) { acc::enter_data(acc::copyin(a)); });
  const auto time = [&](shape s) { return bench::time_ms(runs, [&] { k.run(s); }); };
  double base = time({});
  double best = base;
  shape best_shape{};
  for (int v : vector_lengths)
    for (int f : gang_factors) {
      shape s{v, 0};
      if (f) s.num_gangs = int(std::min<std::int64_t>((k.size() + std::int64_t(v) * f - 1) / (std::int64_t(v) * f), 0x7fffffff));
      double t;
      try {
        t = time(s);
      } catch (const acc::bad_clause&) {
        continue;  // more threads a gang than this kernel can have (its registers): not a shape
      }
      if (t < best) best = t, best_shape = s;
    }
  // The search: reps runs of at most max_shapes shapes.
  using search = acc::detail::tune_search;
  for (int i = 0; i < search::reps * search::max_shapes + 2; ++i) k.run({0, 0, true});
  const auto final = bench::time_each(runs, [&] { k.run({}); }, [&] { k.run(best_shape); }, [&] { k.run({0, 0, true}); });
  base = final[0], best = final[1];
  const double tuned = final[2];
  k.each([](auto& a) { acc::exit_data(acc::copyout(a)); });
  outcome o;
  o.correct = k.check();
  o.within = tuned <= 1.03 * best;
  std::printf("%-9s %10.1f %10.1f  vl %4d gangs %8d %10.1f %9.3f %9.2f%s%s%s\n", K::name, base * 1e3, best * 1e3,
              best_shape.vector_length, best_shape.num_gangs, tuned * 1e3, tuned / best, base / tuned,
              o.within ? "" : "  OVER 3%", base / tuned >= 1.2 ? "  default poor" : "", o.correct ? "" : " WRONG");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_gpu()) return 0;
  const int runs = bench::int_arg(argc, argv, "--runs", 20);
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--kernel") only = argv[i + 1];
  std::printf("# median microseconds per call; best fixed: exhaustive sweep of vector_length x gangs (gangs 0:\n"
              "# the default's); tuned/best: within 3%% or OVER 3%%; default/tuned: the gain over the default launch\n");
  std::printf("%-9s %10s %10s  %-19s %10s %9s %9s\n", "kernel", "default", "best fixed", "best shape", "tuned",
              "tuned/best", "default/tuned");
  bool ok = true;
  for (outcome o : {measure<saxpy>(runs), measure<hotspot>(runs), measure<hotspot3D>(runs), measure<matmul>(runs),
                    measure<nbody>(runs), measure<spmv>(runs), measure<dot>(runs), measure<btree>(runs),
                    measure<myocyte>(runs), measure<npb_ep>(runs), measure<kmeans>(runs), measure<pf_resample>(runs), measure<bt_solve>(runs),
                    measure<few_heavy>(runs), measure<row_sums>(runs)})
    ok = ok && o.correct && o.within;
  std::printf("\n# acc's selection report (tuned: shape, time, default's time, shapes and trials of the search, "
              "their cost)\n%s",
              acc::detail::selection_report().c_str());
  return ok ? 0 : 1;
}
