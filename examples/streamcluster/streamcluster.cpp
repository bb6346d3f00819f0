// Rodinia 3.1 streamcluster with acc: PARSEC's online k-median clustering. The stream is read in
// chunks; each chunk is clustered by a local search (speedy's random facility opening, a sample
// of feasible centres, then facility location by repeated pgain steps with a bisection on the
// facility cost z until between kmin and kmax centres remain); the chunks' centres, weighted by
// their members, are clustered once more at the end. As in Rodinia's CUDA version the control
// flow stays on the host and pgain's cost evaluation runs on the device: for a candidate centre
// x, every point's saving if it moved to x, and per open centre the cost of closing it. Points
// stay on the device for a whole facility-location phase; per pgain the host reads back one
// double per centre and, when opening x pays, the device reassigns the points. Two variants:
//   parallel_loop  one parallel_loop over the points, the saving of x as a reduction clause and
//                  the closing costs as atomic updates of one sum per centre;
//   team_memory    a thread per point as Rodinia CUDA's kernel_compute_cost (256 per gang): each
//                  gang stages x's coordinates and its own per-centre sums in team memory
//                  (g.shared), adds there, and adds its sums to the global ones once.
// Rodinia draws the points and its random choices from lrand48(); here a splitmix64 generator
// (rodinia::random) drives both, so every run makes the same choices. Distances are sums of
// squared float differences in double: a difference of two floats of the generator's grid is
// exact in double and so is its square, so a fused multiply-add gives the same sum, and host and
// GPU agree bit for bit on every distance. The sums over points are in double; their order
// differs between backends, by far too little to tip a decision. Checked against a sequential
// host run of the same algorithm: the number of centres of every chunk, every point's final
// centre and the final clustering exactly, the costs within 1e-6 relative.
//
//   streamcluster [kmin = 10] [kmax = 20] [dim = 256] [n = 65536] [chunk = 65536] [centres = 1000]
//   (Rodinia's run script: sc_gpu 10 20 256 65536 65536 1000 none output.txt 1; further
//   arguments are accepted and ignored)
#include "../common/rodinia.hpp"

#include <acc/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <vector>

namespace {

// PARSEC's constants (streamcluster.cpp): speedy is retried SP times before lowering z, and a
// facility-location pass makes ITER * k log k pgain calls.
constexpr int speedy_retries = 1;  // SP
constexpr int iter_factor = 3;     // ITER
constexpr int block = 256;         // points per gang in team_memory

/// The squared distance of two points whose coordinates a(j) and b(j) return.
template <class A, class B>
ACC_ROUTINE inline double distance(const A& a, const B& b, int dim) {
  double s = 0.0;
  for (int j = 0; j < dim; ++j) {
    const double d = double(a(j)) - double(b(j));
    s += d * d;
  }
  return s;
}

/// A point's cost of assignment: its weight times the distance, stored in float as PARSEC's.
ACC_ROUTINE inline float weighted(double d, float w) { return float(d * double(w)); }

/// PARSEC's Points: position i of the (shuffled) order holds the point stored at row id[i];
/// assign[i] is the position of its centre.
struct points {
  int dim = 0, num = 0;
  std::vector<float> coord;  // rows of dim floats
  std::vector<int> id, assign;
  std::vector<float> weight, cost;
  points(int d, int capacity)
      : dim(d), coord(std::size_t(capacity) * d), id(capacity), assign(capacity), weight(capacity), cost(capacity) {}
  float* at(int i) { return &coord[std::size_t(id[i]) * dim]; }
  const float* at(int i) const { return &coord[std::size_t(id[i]) * dim]; }
  double dist(int i, int k) const {
    const float *a = at(i), *b = at(k);
    return distance([&](int j) { return a[j]; }, [&](int j) { return b[j]; }, dim);
  }
};

// ---------------------------------------------------------------------------------------------
// pgain's data-parallel part, three ways: `evaluate` gives the saving of opening x (negative:
// sum over the points that would move of new minus old cost) and, per centre slot, the cost its
// points would pay if they stayed instead of moving; `apply` moves the points that gain or
// whose centre closes; `set_centres` says which position each slot is.

// The sequential reference: plain loops.
class host_gain {
 public:
  explicit host_gain(int capacity) : switch_(capacity), slot_(capacity) {}
  void begin(const points&) {}
  void end(points&) {}
  void set_centres(const std::vector<int>& centre) {
    for (int c = 0; c < int(centre.size()); ++c) slot_[centre[c]] = c;
  }
  double evaluate(const points& p, int x, std::vector<double>& lower) {
    double open = 0.0;
    std::fill(lower.begin(), lower.end(), 0.0);
    for (int i = 0; i < p.num; ++i) {
      const float xc = weighted(p.dist(i, x), p.weight[i]);
      switch_[i] = xc < p.cost[i];
      if (switch_[i]) open += double(xc) - double(p.cost[i]);
      else lower[slot_[p.assign[i]]] += double(p.cost[i]) - double(xc);
    }
    return open;
  }
  void apply(points& p, int x, const std::vector<char>& closing) {
    for (int i = 0; i < p.num; ++i)
      if (switch_[i] || closing[slot_[p.assign[i]]]) {
        p.cost[i] = weighted(p.dist(i, x), p.weight[i]);
        p.assign[i] = x;
      }
  }

 private:
  std::vector<char> switch_;
  std::vector<int> slot_;
};

// The device's copy of a chunk: coordinates transposed (dimension-major, so that neighbouring
// points are neighbouring addresses, as Rodinia's coord_d), weights, costs and assignments, the
// slot of each centre position, the per-point switch flags and the per-slot sums.
class device_gain {
 public:
  device_gain(int dim, int capacity, bool team)
      : team_(team), cap_(capacity), dim_(dim), coord_("coord", dim, capacity), weight_("weight", capacity),
        cost_("cost", capacity), assign_("assign", capacity), slot_("slot", capacity), centre_("centre", capacity),
        switch_("switch", capacity), lower_("lower", capacity + 1), closing_("closing", capacity) {
    acc::enter_data(acc::create(coord_), acc::create(weight_), acc::create(cost_), acc::create(assign_),
                    acc::create(slot_), acc::create(centre_), acc::create(switch_), acc::create(lower_),
                    acc::create(closing_));
  }
  ~device_gain() {
    acc::exit_data(acc::delete_(coord_), acc::delete_(weight_), acc::delete_(cost_), acc::delete_(assign_),
                   acc::delete_(slot_), acc::delete_(centre_), acc::delete_(switch_), acc::delete_(lower_),
                   acc::delete_(closing_));
  }
  device_gain(const device_gain&) = delete;
  device_gain& operator=(const device_gain&) = delete;

  // A facility-location phase starts: the chunk goes to the device.
  void begin(const points& p) {
    for (int j = 0; j < dim_; ++j)
      for (int i = 0; i < p.num; ++i) coord_(j, i) = p.at(i)[j];
    std::copy_n(p.weight.begin(), p.num, weight_.data());
    std::copy_n(p.cost.begin(), p.num, cost_.data());
    std::copy_n(p.assign.begin(), p.num, assign_.data());
    acc::update_device(coord_);
    acc::update_device(weight_.data(), p.num);
    acc::update_device(cost_.data(), p.num);
    acc::update_device(assign_.data(), p.num);
  }
  // ... and ends: the costs and assignments come back.
  void end(points& p) {
    acc::update_self(cost_.data(), p.num);
    acc::update_self(assign_.data(), p.num);
    std::copy_n(cost_.data(), p.num, p.cost.begin());
    std::copy_n(assign_.data(), p.num, p.assign.begin());
  }
  void set_centres(const std::vector<int>& centre) {
    const int k = int(centre.size());
    std::copy(centre.begin(), centre.end(), centre_.data());
    acc::update_device(centre_.data(), k);
    acc::view<const int> c = centre_;
    acc::view<int> slot = slot_;
    acc::parallel_loop(k, acc::default_present, ACC_LAMBDA(int s) { slot[c[s]] = s; });
  }
  double evaluate(const points& p, int x, std::vector<double>& lower) {
    const int k = int(lower.size());
    const bool fits = (k + 1) * sizeof(double) + dim_ * sizeof(float) <= 48 * 1024;
    const bool team = team_ && fits;
    double open = 0.0;
    if (team) evaluate_team(p.num, x, k);
    else open = evaluate_loop(p.num, x, k);
    acc::update_self(lower_.data(), team ? k + 1 : k);
    std::copy_n(lower_.data(), k, lower.begin());
    return team ? lower_[k] : open;
  }
  void apply(points& p, int x, const std::vector<char>& closing) {
    const int k = int(closing.size());
    std::copy(closing.begin(), closing.end(), closing_.data());
    acc::update_device(closing_.data(), k);
    acc::view<const float, 2> coord = coord_;
    acc::view<const float> weight = weight_;
    acc::view<float> cost = cost_;
    acc::view<int> assign = assign_;
    acc::view<const int> slot = slot_;
    acc::view<const char> sw = switch_, close = closing_;
    const int dim = dim_;
    acc::parallel_loop(p.num, acc::default_present, ACC_LAMBDA(int i) {
      if (sw[i] || close[slot[assign[i]]]) {
        cost[i] = weighted(distance([&](int j) { return coord(j, i); }, [&](int j) { return coord(j, x); }, dim),
                           weight[i]);
        assign[i] = x;
      }
    });
  }

  // The two ways of evaluate (public: nvcc allows an extended lambda only in a public member).
  // OpenACC:
  //   #pragma acc parallel loop present(...) reduction(+:open)
  //   for (i...) { xc = ...; sw[i] = xc < cost[i]; if (sw[i]) open += ...;
  //                else { #pragma acc atomic update
  //                       lower[slot[assign[i]]] += ...; } }
  double evaluate_loop(int num, int x, int k) {
    acc::view<const float, 2> coord = coord_;
    acc::view<const float> weight = weight_, cost = cost_;
    acc::view<const int> assign = assign_, slot = slot_;
    acc::view<char> sw = switch_;
    acc::view<double> lower = lower_;
    const int dim = dim_;
    acc::parallel_loop(k, acc::default_present, ACC_LAMBDA(int c) { lower[c] = 0.0; });
    double open = 0.0;
    acc::parallel_loop(num, acc::default_present, acc::reduction(acc::plus, open), ACC_LAMBDA(int i, double& o) {
      const float xc = weighted(distance([&](int j) { return coord(j, i); }, [&](int j) { return coord(j, x); }, dim),
                                weight[i]);
      sw[i] = xc < cost[i];
      if (xc < cost[i]) o += double(xc) - double(cost[i]);
      else acc::atomic_update(lower[slot[assign[i]]], acc::plus, double(cost[i]) - double(xc));
    });
    return open;
  }

  // OpenACC: #pragma acc parallel num_gangs(blocks) vector_length(256), a gang loop over the
  // blocks of points, x's coordinates and the gang's sums in gang-private (team) memory; slot k
  // of the sums carries the saving of x, read back with the others by evaluate.
  void evaluate_team(int num, int x, int k) {
    acc::view<const float, 2> coord = coord_;
    acc::view<const float> weight = weight_, cost = cost_;
    acc::view<const int> assign = assign_, slot = slot_;
    acc::view<char> sw = switch_;
    acc::view<double> lower = lower_;
    const int dim = dim_, blocks = (num + block - 1) / block;
    acc::parallel_loop(k + 1, acc::default_present, ACC_LAMBDA(int c) { lower[c] = 0.0; });
    acc::parallel(acc::num_gangs(blocks), acc::vector_length(block),
                  acc::shared_bytes((k + 1) * sizeof(double) + dim * sizeof(float)), acc::default_present,
                  ACC_LAMBDA(const acc::gang_t& g) {
                    const auto sum = g.shared<double>(k + 1);
                    const auto cx = g.shared<float>(dim);
                    acc::loop(g, acc::gang, blocks, [&](int b) {
                      acc::loop(g, acc::vector, dim, [&](int j) { cx[j] = coord(j, x); });
                      acc::loop(g, acc::vector, k + 1, [&](int c) { sum[c] = 0.0; });
                      acc::loop(g, acc::vector, block, [&](int t) {
                        const int i = b * block + t;
                        if (i < num) {
                          const float xc = weighted(
                              distance([&](int j) { return coord(j, i); }, [&](int j) { return cx[j]; }, dim), weight[i]);
                          sw[i] = xc < cost[i];
                          if (xc < cost[i]) acc::atomic_update(sum[k], acc::plus, double(xc) - double(cost[i]));
                          else acc::atomic_update(sum[slot[assign[i]]], acc::plus, double(cost[i]) - double(xc));
                        }
                      });
                      acc::loop(g, acc::vector, k + 1, [&](int c) {
                        if (sum[c] != 0.0) acc::atomic_update(lower[c], acc::plus, sum[c]);
                      });
                    });
                  });
  }

 private:
  bool team_;
  int cap_, dim_;
  acc::array<float, 2> coord_;
  acc::array<float> weight_, cost_;
  acc::array<int> assign_, slot_, centre_;
  acc::array<char> switch_;
  acc::array<double> lower_;
  acc::array<char> closing_;
};

// ---------------------------------------------------------------------------------------------
// The host's control flow (PARSEC's pkmedian, pspeedy, pFL, selectfeasible_fast, pgain's
// decision), the same for every engine.

struct chunk_result {
  int centres;
  double cost;
};

struct result {
  std::vector<chunk_result> chunks;  // per chunk, then the final clustering
  std::vector<int> final_assign;     // the final clustering's centre of each intermediate centre
  std::vector<float> final_weight;   // and the weights after contcenters
};

template <class Engine>
class clustering {
 public:
  clustering(Engine& e, rodinia::random& r) : engine_(e), rng_(r) {}

  /// PARSEC's pkmedian: the cost, and in k the number of centres.
  double local_search(points& p, int kmin, int kmax, int& k) {
    double hiz = 0.0, loz = 0.0;
    for (int i = 0; i < p.num; ++i) hiz += weighted(p.dist(i, 0), p.weight[i]);
    double z = (hiz + loz) / 2.0;
    if (p.num <= kmax) {  // every point is its own centre
      for (int i = 0; i < p.num; ++i) {
        p.assign[i] = i;
        p.cost[i] = 0.0f;
      }
      k = p.num;
      return 0.0;
    }
    shuffle(p);
    double cost = speedy(p, z, k);
    int tries = 0;
    while (k < kmin && tries < speedy_retries) {
      cost = speedy(p, z, k);
      ++tries;
    }
    while (k < kmin) {  // z is too high
      if (tries >= speedy_retries) {
        hiz = z;
        z = (hiz + loz) / 2.0;
        tries = 0;
      }
      shuffle(p);
      cost = speedy(p, z, k);
      ++tries;
    }
    feasible_ = select_feasible(p, kmin);
    is_centre_.assign(p.num, 0);
    for (int i = 0; i < p.num; ++i) is_centre_[p.assign[i]] = 1;
    engine_.begin(p);
    set_centres();
    const long iter = long(iter_factor * kmax * std::log(double(kmax)));
    for (;;) {
      cost = facility_location(p, z, cost, iter, 0.1);
      k = int(centre_.size());
      if ((k <= 1.1 * kmax && k >= 0.9 * kmin) || (k <= kmax + 2 && k >= kmin - 2)) {
        cost = facility_location(p, z, cost, iter, 0.001);
        k = int(centre_.size());
      }
      if (k > kmax) {  // facilities too cheap
        loz = z;
        z = (hiz + loz) / 2.0;
        cost += (z - loz) * k;
      }
      if (k < kmin) {  // too expensive
        hiz = z;
        z = (hiz + loz) / 2.0;
        cost += (z - hiz) * k;
      }
      if ((k <= kmax && k >= kmin) || loz >= 0.999 * hiz) break;
    }
    engine_.end(p);
    return cost;
  }

 private:
  void shuffle(points& p) {
    for (int i = 0; i + 1 < p.num; ++i) {
      const int j = i + int(rng_.below(p.num - i));
      std::swap(p.id[i], p.id[j]);
      std::swap(p.weight[i], p.weight[j]);
      std::swap(p.cost[i], p.cost[j]);
      std::swap(p.assign[i], p.assign[j]);
    }
  }

  // Opens a centre at the first point, then at each point with a probability of its cost / z.
  double speedy(points& p, double z, int& k) {
    for (int i = 0; i < p.num; ++i) {
      p.cost[i] = weighted(p.dist(i, 0), p.weight[i]);
      p.assign[i] = 0;
    }
    k = 1;
    for (int c = 1; c < p.num; ++c) {
      if (rng_.uniform() >= p.cost[c] / z) continue;
      ++k;
      for (int i = 0; i < p.num; ++i) {
        const float d = weighted(p.dist(c, i), p.weight[i]);
        if (d < p.cost[i]) {
          p.cost[i] = d;
          p.assign[i] = c;
        }
      }
    }
    double total = z * k;
    for (int i = 0; i < p.num; ++i) total += p.cost[i];
    return total;
  }

  // ITER kmin log kmin candidate centres drawn with probability proportional to weight.
  std::vector<int> select_feasible(const points& p, int kmin) {
    const int n = std::min(p.num, int(iter_factor * kmin * std::log(double(kmin))));
    std::vector<int> f(n);
    if (n == p.num) {
      for (int i = 0; i < n; ++i) f[i] = i;
      return f;
    }
    std::vector<double> accum(p.num);
    double s = 0.0;
    for (int i = 0; i < p.num; ++i) accum[i] = s += p.weight[i];
    for (int& fi : f) {
      const double w = rng_.uniform() * s;
      fi = int(std::upper_bound(accum.begin(), accum.end(), w) - accum.begin());
      fi = std::min(fi, p.num - 1);
    }
    return f;
  }

  // PARSEC's pFL: passes of iter pgain calls over the shuffled candidates until a pass improves
  // the cost by less than a fraction e.
  double facility_location(points& p, double z, double cost, long iter, double e) {
    double change = cost;
    while (change / cost > e) {
      change = 0.0;
      for (int i = 0; i < int(feasible_.size()); ++i)
        std::swap(feasible_[i], feasible_[i + rng_.below(feasible_.size() - i)]);
      for (long i = 0; i < iter; ++i) change += gain(p, feasible_[i % feasible_.size()], z);
      cost -= change;
    }
    return cost;
  }

  // PARSEC's pgain: opens a centre at x, closing the centres whose points would rather move to
  // x than pay z for keeping them, if that lowers the cost; returns the saving.
  double gain(points& p, int x, double z) {
    const int k = int(centre_.size());
    lower_.resize(k);
    double total = z + engine_.evaluate(p, x, lower_);
    closing_.assign(k, 0);
    for (int c = 0; c < k; ++c) {
      const double low = z + lower_[c];
      if (low > 0) {
        closing_[c] = 1;
        total -= low;
      }
    }
    if (total >= 0) return 0.0;
    engine_.apply(p, x, closing_);
    for (int c = 0; c < k; ++c)
      if (closing_[c]) is_centre_[centre_[c]] = 0;
    is_centre_[x] = 1;
    set_centres();
    return -total;
  }

  // The centres in position order, and their slots on the engine's side. (PARSEC's count of
  // centres drifts when x already was one; here k is the count of centres.)
  void set_centres() {
    centre_.clear();
    for (int i = 0; i < int(is_centre_.size()); ++i)
      if (is_centre_[i]) centre_.push_back(i);
    engine_.set_centres(centre_);
  }

  Engine& engine_;
  rodinia::random& rng_;
  std::vector<int> feasible_, centre_;
  std::vector<char> is_centre_, closing_;
  std::vector<double> lower_;
};

// Moves each centre to the weighted mean of its members, which join its weight (contcenters).
void move_centres(points& p) {
  for (int i = 0; i < p.num; ++i) {
    const int a = p.assign[i];
    if (a == i) continue;
    const float rel = p.weight[i] / (p.weight[a] + p.weight[i]);
    float *c = p.at(a), *q = p.at(i);
    for (int j = 0; j < p.dim; ++j) c[j] = c[j] * (1.0f - rel) + q[j] * rel;
    p.weight[a] += p.weight[i];
  }
}

// Appends the chunk's centres to the intermediate centres (copycenters).
void copy_centres(const points& p, points& centres) {
  std::vector<char> median(p.num, 0);
  for (int i = 0; i < p.num; ++i) median[p.assign[i]] = 1;
  for (int i = 0; i < p.num; ++i) {
    if (!median[i]) continue;
    const int k = centres.num++;
    centres.id[k] = k;
    std::copy_n(p.at(i), p.dim, centres.at(k));
    centres.weight[k] = p.weight[i];
  }
}

struct problem {
  int kmin, kmax, dim, n, chunk, max_centres;
  std::vector<float> stream;  // n points of dim coordinates in [0, 1), multiples of 2^-24
};

// PARSEC's streamCluster: chunks, then the intermediate centres.
template <class Engine>
result stream_cluster(const problem& pb, Engine& engine, points& chunk, points& centres) {
  rodinia::random rng(1);  // PARSEC: srand48(SEED), SEED 1
  clustering<Engine> cl(engine, rng);
  result r;
  centres.num = 0;
  for (int first = 0; first < pb.n; first += pb.chunk) {
    chunk.num = std::min(pb.chunk, pb.n - first);
    std::copy_n(pb.stream.begin() + std::size_t(first) * pb.dim, std::size_t(chunk.num) * pb.dim, chunk.coord.begin());
    for (int i = 0; i < chunk.num; ++i) {
      chunk.id[i] = i;
      chunk.weight[i] = 1.0f;
    }
    int k = 0;
    const double cost = cl.local_search(chunk, pb.kmin, pb.kmax, k);
    r.chunks.push_back({k, cost});
    move_centres(chunk);
    if (centres.num + k > pb.max_centres) throw std::runtime_error("more intermediate centres than [centres]");
    copy_centres(chunk, centres);
  }
  int k = 0;
  const double cost = cl.local_search(centres, pb.kmin, pb.kmax, k);
  r.chunks.push_back({k, cost});
  move_centres(centres);
  r.final_assign.assign(centres.assign.begin(), centres.assign.begin() + centres.num);
  r.final_weight.assign(centres.weight.begin(), centres.weight.begin() + centres.num);
  return r;
}

bool same(const result& a, const result& ref, const char* name) {
  bool ok = a.chunks.size() == ref.chunks.size() && a.final_assign == ref.final_assign &&
            a.final_weight == ref.final_weight;
  double worst = 0.0;
  for (std::size_t c = 0; ok && c < a.chunks.size(); ++c) {
    ok = a.chunks[c].centres == ref.chunks[c].centres;
    const double rel = std::fabs(a.chunks[c].cost - ref.chunks[c].cost) / std::max(1e-30, std::fabs(ref.chunks[c].cost));
    worst = std::max(worst, std::isnan(rel) ? INFINITY : rel);
  }
  ok = ok && worst <= 1e-6;
  std::printf("    %s: %s, max relative cost difference %.3g\n", name,
              ok ? "same clustering as the sequential run" : "DIFFERS from the sequential run", worst);
  return ok;
}

}  // namespace

int main(int argc, char** argv) try {
  problem pb;
  pb.kmin = argc > 1 ? std::atoi(argv[1]) : 10;
  pb.kmax = argc > 2 ? std::atoi(argv[2]) : 20;
  pb.dim = argc > 3 ? std::atoi(argv[3]) : 256;
  pb.n = argc > 4 ? std::atoi(argv[4]) : 65536;
  pb.chunk = argc > 5 ? std::atoi(argv[5]) : 65536;
  pb.max_centres = argc > 6 ? std::atoi(argv[6]) : 1000;
  if (pb.kmin < 2 || pb.kmax < pb.kmin || pb.dim < 1 || pb.n < 1 || pb.chunk < 1 || pb.max_centres < 1) {
    std::fprintf(stderr, "usage: streamcluster [kmin >= 2] [kmax >= kmin] [dim] [n] [chunk] [centres]\n");
    return 2;
  }
  std::printf("streamcluster: %d points of %d dimensions in chunks of %d, %d..%d centres, on %s\n", pb.n, pb.dim,
              pb.chunk, pb.kmin, pb.kmax, acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");
  // PARSEC's SimStream: uniform coordinates in [0, 1).
  pb.stream.resize(std::size_t(pb.n) * pb.dim);
  rodinia::random gen(65536);
  for (auto& v : pb.stream) v = float(gen.next() >> 40) * 0x1.0p-24f;

  const int capacity = std::max(pb.chunk, pb.max_centres);
  points chunk(pb.dim, pb.chunk), centres(pb.dim, pb.max_centres);
  host_gain reference_engine(capacity);
  const result ref = stream_cluster(pb, reference_engine, chunk, centres);

  bool ok = true;
  for (const bool team : {false, true}) {
    const char* name = team ? "team_memory" : "parallel_loop";
    device_gain engine(pb.dim, capacity, team);
    result r;
    rodinia::report(name, rodinia::median_seconds([&] { r = stream_cluster(pb, engine, chunk, centres); }));
    ok = same(r, ref, name) && ok;
  }
  std::printf("  centres per chunk:");
  for (const auto& c : ref.chunks) std::printf(" %d", c.centres);
  std::printf(" (last: the final clustering), final cost %.6g\n", ref.chunks.back().cost);
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "streamcluster: %s\n", e.what());
  return 1;
}
