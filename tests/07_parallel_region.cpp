// Level 7: acc::parallel regions: gang, worker and vector loops and their combinations,
// gang-redundant execution, single and barrier, every configuration.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <climits>
#include <tuple>

#include "support/arrays.hpp"
#include "support/buffer.hpp"

namespace {

ACC_ROUTINE long long value(long long i, long long j, long long k = 0) { return i * 100003 + j * 101 + k + 1; }

// Each (i, j) written once by a gang loop over i and an inner loop over j at `inner` level;
// += makes a second visit visible. A worker loop's body runs in every lane of its worker
// (vector-redundant, like all code outside vector loops), so its side effect goes through
// single(per_worker).
template <class Inner, class... Clauses>
void gang_then(Inner inner, int ni, int nj, acc::view<long long> out, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    const acc::view<long long>& o = out;  // nvcc: an extended lambda may not first capture inside if constexpr
    acc::loop(g, acc::gang, ni, [&](int i) {
      acc::loop(g, inner, nj, [&](int j) {
        if constexpr (Inner::vector)
          o[static_cast<long long>(i) * nj + j] += value(i, j);
        else
          acc::single(g, acc::per_worker, [&] { o[static_cast<long long>(i) * nj + j] += value(i, j); });
      });
    });
  });
}

template <class... Clauses>
void gang_worker_vector(int ni, int nj, int nk, acc::view<long long> out, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, ni, [&](int i) {
      acc::loop(g, acc::worker, nj, [&](int j) {
        acc::loop(g, acc::vector, nk, [&](int k) { out[(static_cast<long long>(i) * nj + j) * nk + k] += value(i, j, k); });
      });
    });
  });
}

template <class Level, class... Clauses>
void flat(Level level, int n, acc::view<long long> out, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    const acc::view<long long>& o = out;  // see gang_then
    acc::loop(g, level, n, [&](int i) {
      if constexpr (Level::vector)
        o[i] += value(i, 0);
      else
        acc::single(g, acc::per_worker, [&] { o[i] += value(i, 0); });
    });
  });
}

}  // namespace

TEST_CASE("gang loops with vector, worker and worker_vector loops inside visit each point once", "[07][region]") {
  const auto [ni, nj] = GENERATE(table<int, int>({{1, 1}, {3, 31}, {17, 33}, {64, 100}, {5, 1000}}));
  const auto [gangs, workers, vector] = GENERATE(table<int, int, int>(
      {{0, 0, 0}, {1, 1, 1}, {2, 1, 32}, {3, 4, 32}, {7, 2, 24}, {4, 3, 96}, {1, 8, 33}}));
  auto run = [&](auto inner) {
    acc::array<long long> out(static_cast<std::size_t>(ni) * nj);
    if (gangs)
      gang_then(inner, ni, nj, out, acc::num_gangs(gangs), acc::num_workers(workers), acc::vector_length(vector));
    else
      gang_then(inner, ni, nj, out);
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j) REQUIRE(out[static_cast<std::size_t>(i) * nj + j] == value(i, j));
  };
  run(acc::vector);
  run(acc::worker);
  run(acc::worker_vector);
}

TEST_CASE("gang, worker and vector loops nest three deep", "[07][region]") {
  const auto [ni, nj, nk] = GENERATE(table<int, int, int>({{1, 1, 1}, {2, 3, 5}, {9, 7, 65}, {33, 4, 31}}));
  const auto [gangs, workers, vector] =
      GENERATE(table<int, int, int>({{0, 0, 0}, {1, 1, 1}, {3, 2, 32}, {2, 4, 17}, {5, 3, 64}}));
  // A host vector mapped by a data region around the construct.
  std::vector<long long> out(static_cast<std::size_t>(ni) * nj * nk, 0);
  {
    const acc::view<long long> o(out.data(), out.size());
    acc::data region{acc::copy(o)};
    if (gangs)
      gang_worker_vector(ni, nj, nk, o, acc::num_gangs(gangs), acc::num_workers(workers), acc::vector_length(vector));
    else
      gang_worker_vector(ni, nj, nk, o);
  }
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j)
      for (int k = 0; k < nk; ++k) REQUIRE(out[(static_cast<std::size_t>(i) * nj + j) * nk + k] == value(i, j, k));
}

TEST_CASE("combined levels spread one loop over gangs, workers and lanes", "[07][region]") {
  const int n = GENERATE(1, 97, 4099);
  auto check = [&](auto level) {
    acc::array<long long> out(n);
    flat(level, n, out, acc::num_gangs(3), acc::num_workers(2), acc::vector_length(40));
    for (int i = 0; i < n; ++i) REQUIRE(out[i] == value(i, 0));
  };
  check(acc::gang_worker);
  check(acc::gang_vector);
  check(acc::gang_worker_vector);
}

namespace {
template <class... Clauses>
void gang_count(acc::view<int> per_gang, acc::view<int> total_calls, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    acc::single(g, acc::per_gang, [&] { per_gang[g.gang_num()] += 1; });
    acc::single(g, acc::per_worker, [&] { acc_test::atomic_inc(&total_calls[0]); });
  });
}
// Gang-redundant code computes the same value in every thread; only single's side effect
// happens once, and a barrier makes gang-shared writes visible to every thread.
template <class... Clauses>
void redundant(int n, acc::view<long long> out, Clauses... clauses) {
  acc::parallel(clauses..., acc::shared_bytes(sizeof(long long) * 64), ACC_LAMBDA(const acc::gang_t& g) {
    const long long mine = value(g.gang_num(), 7);  // every thread of the gang: same value
    auto s = g.shared<long long>(64);
    acc::single(g, acc::per_gang, [&] { s[0] = mine; });
    acc::loop(g, acc::gang, n, [&](int i) {
      acc::loop(g, acc::vector, 1, [&](int) { out[i] += s[0] + i; });  // one lane, once
    });
  });
}
}  // namespace

TEST_CASE("gang-redundant code and single: side effects happen once", "[07][region][single]") {
  const int gangs = GENERATE(1, 3);
  const int n = 10;
  acc::array<long long> out(n);
  redundant(n, out, acc::num_gangs(gangs), acc::num_workers(2), acc::vector_length(48));
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == value(i % gangs, 7) + i);
}

TEST_CASE("single runs once per gang or per worker", "[07][region][single]") {
  const auto [gangs, workers] = GENERATE(table<int, int>({{1, 1}, {4, 1}, {3, 5}}));
  acc::array<int> per_gang(gangs), calls(1);
  gang_count(per_gang, calls, acc::num_gangs(gangs), acc::num_workers(workers), acc::vector_length(32));
  for (int k = 0; k < gangs; ++k) REQUIRE(per_gang[k] == 1);
  // On the host one thread runs each gang: one worker, so "per worker" is once per gang there.
  REQUIRE(calls[0] == gangs * (acc_test::gpu_run() ? workers : 1));
}

TEST_CASE("num_workers and vector_length reach the gang handle, and a host gang is one worker of one lane",
          "[07][region][clauses]") {
  const int gangs = GENERATE(1, 3, 17);
  const int workers = GENERATE(1, 2, 4);
  const int lanes = GENERATE(1, 5, 32);
  acc::array<int> seen("seen", 3 * gangs);
  acc::parallel(acc::num_gangs(gangs), acc::num_workers(workers), acc::vector_length(lanes),
                ACC_LAMBDA(const acc::gang_t& g) {
                  acc::single(g, acc::per_gang, [&] {
                    seen[3 * g.gang_num()] = g.num_gangs();
                    seen[3 * g.gang_num() + 1] = g.num_workers();
                    seen[3 * g.gang_num() + 2] = g.vector_length();
                  });
                });
  for (int k = 0; k < gangs; ++k) {
    REQUIRE(seen[3 * k] == gangs);
    REQUIRE(seen[3 * k + 1] == (acc_test::gpu_run() ? workers : 1));
    REQUIRE(seen[3 * k + 2] == (acc_test::gpu_run() ? lanes : 1));
  }
}

// CUDA-style code divides a gang's work by thread: worker_num() / num_workers() and vector_lane()
// / vector_length() must describe the threads that really run, on every backend, or part of the
// work is skipped.
TEST_CASE("a gang's work divided by worker and lane numbers covers every index once", "[07][region][clauses]") {
  const int n = GENERATE(0, 1, 31, 257, 4099);
  const int gangs = GENERATE(1, 3);
  const int workers = GENERATE(1, 4);
  const int lanes = GENERATE(1, 5, 32);
  acc::array<int> hits(std::size_t(gangs) * std::size_t(n));
  for (std::size_t i = 0; i < hits.size(); ++i) hits[i] = 0;
  acc::parallel(acc::num_gangs(gangs), acc::num_workers(workers), acc::vector_length(lanes),
                ACC_LAMBDA(const acc::gang_t& g) {
                  const int lane = g.vector_lane();
                  if (lane >= g.vector_length()) return;  // lanes that only pad a worker to a warp
                  const int t = g.worker_num() * g.vector_length() + lane;
                  const int threads = g.num_workers() * g.vector_length();
                  for (int i = t; i < n; i += threads) hits[std::size_t(g.gang_num()) * std::size_t(n) + i] += 1;
                });
  long long total = 0;
  for (std::size_t i = 0; i < hits.size(); ++i) {
    REQUIRE(hits[i] == 1);
    total += hits[i];
  }
  REQUIRE(total == (long long)gangs * n);  // also at n = 0, where no element is left to check
}

// Per-worker partial results in team memory, started in gang-redundant code with a value other
// than zero (the identity of max), combined once per gang: every slot up to num_workers() must
// have been started.
TEST_CASE("per-worker slots started by single(per_worker) and combined per gang", "[07][region][single]") {
  const int n = GENERATE(1, 2, 97, 1000);
  const int gangs = GENERATE(1, 5);
  const int workers = GENERATE(1, 3, 4);
  acc::array<long long> x(n);
  acc_test::fill_random(x, 11u + unsigned(n), -100000LL, -1LL);  // all below the zero of fresh memory
  acc::array<long long> best(gangs);
  acc::parallel(acc::num_gangs(gangs), acc::num_workers(workers), acc::vector_length(32),
                acc::shared_bytes(sizeof(long long) * 8), ACC_LAMBDA(const acc::gang_t& g) {
                  auto part = g.shared<long long>(8);
                  acc::single(g, acc::per_worker, [&] { part[g.worker_num()] = LLONG_MIN; });
                  acc::loop(g, acc::worker, n, [&](int i) {
                    acc::single(g, acc::per_worker, [&] {
                      const long long v = x[i] + g.gang_num();
                      if (v > part[g.worker_num()]) part[g.worker_num()] = v;
                    });
                  });
                  acc::barrier(g);
                  acc::single(g, acc::per_gang, [&] {
                    long long m = LLONG_MIN;
                    for (int w = 0; w < g.num_workers(); ++w) m = part[w] > m ? part[w] : m;
                    best[g.gang_num()] = m;
                  });
                });
  long long want = LLONG_MIN;
  for (std::size_t i = 0; i < x.size(); ++i) want = x[i] > want ? x[i] : want;
  for (int k = 0; k < gangs; ++k) REQUIRE(best[k] == want + k);
}
