// Level 10: acc::loop_scan inside acc::parallel at vector, worker and worker_vector level,
// for plus, maximum and minimum over int, long and float, and a non-commutative 2x2 matrix
// product, against sequential exclusive scans; every thread must see the totals afterwards.
// Launch configurations as in 09_loop_reduce: one lane, partial warps, several warps per
// worker, several workers.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "support/arrays.hpp"
#include "support/mat2.hpp"

namespace {

enum : int { kSeen = 40 };  // width of the worker_vector loop that reads the totals

using acc_test::mat2;
using acc_test::mat_product;

// ---- the regions: one function template each (nvcc: no ACC_LAMBDA inside another lambda) ----

// Row i of x (n elements) scanned at vector, worker and worker_vector level; each final call
// records its prefix; the totals are read back by every thread of a worker_vector loop.
template <class T, class Op, class... Clauses>
void rows_in_gangs(acc::view<const T> x, int ni, int n, Op op, acc::view<T> pre_v, acc::view<T> pre_w, acc::view<T> pre_wv,
                   acc::view<T> seen, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, ni, [&](int i) {
      const long long base = static_cast<long long>(i) * n;
      const T tv = acc::loop_scan(g, acc::vector, n, op, [&](int k, T& p, bool final) {
        if (final) pre_v[base + k] = p;
        p = op(p, x[base + k]);
      });
      const T tw = acc::loop_scan(g, acc::worker, n, op, [&](int k, T& p, bool final) {
        if (final) pre_w[base + k] = p;
        p = op(p, x[base + k]);
      });
      const T twv = acc::loop_scan(g, acc::worker_vector, n, op, [&](int k, T& p, bool final) {
        if (final) pre_wv[base + k] = p;
        p = op(p, x[base + k]);
      });
      acc::loop(g, acc::worker_vector, int(kSeen), [&](int t) {
        seen[static_cast<long long>(i) * kSeen + t] = t % 3 == 0 ? tv : t % 3 == 1 ? tw : twv;
      });
    });
  });
}

// Compaction per row with a vector scan inside a worker loop: the kept elements of row
// (i, j) go to out[(i * nj + j) * n + ...], their count to count[i * nj + j].
template <class... Clauses>
void compact_in_worker(acc::view<const int> x, int ni, int nj, int n, acc::view<int> out, acc::view<int> count,
                       Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    acc::loop(g, acc::gang, ni, [&](int i) {
      acc::loop(g, acc::worker, nj, [&](int j) {
        const long long base = (static_cast<long long>(i) * nj + j) * n;
        const int kept = acc::loop_scan(g, acc::vector, n, acc::plus, [&](int k, int& p, bool final) {
          const bool keep = x[base + k] > 0;
          if (final && keep) out[base + p] = x[base + k];
          p += keep;
        });
        acc::single(g, acc::per_worker, [&] { count[static_cast<long long>(i) * nj + j] = kept; });
      });
    });
  });
}

// ---- sequential references --------------------------------------------------------------------

template <class T> T ref_identity(acc::plus_t) { return T(0); }
// OpenACC's "least" and "largest": -inf and +inf where the type has them.
template <class T> T ref_identity(acc::maximum_t) {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
}
template <class T> T ref_identity(acc::minimum_t) {
  return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
}
template <class T> T ref_identity(mat_product) { return mat2{1, 0, 0, 1}; }
template <class T> T ref_apply(acc::plus_t, T a, T b) { return a + b; }
template <class T> T ref_apply(acc::maximum_t, T a, T b) { return a < b ? b : a; }
template <class T> T ref_apply(acc::minimum_t, T a, T b) { return b < a ? b : a; }
template <class T> T ref_apply(mat_product op, T a, T b) { return op(a, b); }

std::string op_name(acc::plus_t) { return "plus"; }
std::string op_name(acc::maximum_t) { return "maximum"; }
std::string op_name(acc::minimum_t) { return "minimum"; }
std::string op_name(mat_product) { return "2x2 matrix product"; }

// Sums of eighths below 2^21 are exact in float in any grouping; maxima and minima are random.
template <class T, class Op>
void fill(const acc::array<T>& b, Op, unsigned seed) {
  std::mt19937 gen(seed);
  if constexpr (std::is_same_v<T, mat2>) {
    std::uniform_int_distribution<std::uint32_t> d(0, 3);
    for (std::size_t k = 0; k < b.size(); ++k) b[k] = {d(gen), d(gen), d(gen), d(gen)};
  } else if constexpr (std::is_floating_point_v<T>) {
    std::uniform_int_distribution<int> d(-8, 8);
    for (std::size_t k = 0; k < b.size(); ++k) b[k] = static_cast<T>(d(gen)) / T(8);
  } else {
    std::uniform_int_distribution<long long> d(-1000000, 1000000);
    for (std::size_t k = 0; k < b.size(); ++k) b[k] = static_cast<T>(d(gen));
  }
}

struct config {
  int gangs, workers, vector;  // gangs 0: the default configuration
};

template <class T, class Op>
void check_rows(Op op, int ni, int n, config c, unsigned seed) {
  CAPTURE(op_name(op), ni, n, c.gangs, c.workers, c.vector);
  const std::size_t len = static_cast<std::size_t>(ni) * n;
  acc::array<T> x(len);
  fill(x, op, seed);
  T junk;
  if constexpr (std::is_same_v<T, mat2>) junk = mat2{9, 9, 9, 9};
  else junk = T(-77);
  acc::array<T> v = acc_test::filled(len, junk), w = acc_test::filled(len, junk), wv = acc_test::filled(len, junk),
                seen = acc_test::filled(static_cast<std::size_t>(ni) * kSeen, junk);
  if (c.gangs)
    rows_in_gangs<T>(x, ni, n, op, v, w, wv, seen, acc::num_gangs(c.gangs), acc::num_workers(c.workers),
                     acc::vector_length(c.vector));
  else
    rows_in_gangs<T>(x, ni, n, op, v, w, wv, seen);
  for (int i = 0; i < ni; ++i) {
    T acc = ref_identity<T>(op);
    for (int k = 0; k < n; ++k) {
      const std::size_t at = static_cast<std::size_t>(i) * n + k;
      if (!(v[at] == acc && w[at] == acc && wv[at] == acc)) {
        INFO("row " << i << ", element " << k << ": vector " << v[at] << ", worker " << w[at] << ", worker_vector "
                    << wv[at] << ", expected " << acc);
        REQUIRE(false);
      }
      acc = ref_apply<T>(op, acc, x[at]);
    }
    for (int t = 0; t < kSeen; ++t) {
      INFO("row " << i << ": total seen by iteration " << t << " of a worker_vector loop");
      REQUIRE(seen[static_cast<std::size_t>(i) * kSeen + t] == acc);
    }
  }
}

const config configs[] = {{0, 0, 0}, {1, 1, 1}, {3, 2, 24}, {2, 4, 33}, {5, 1, 100}, {4, 3, 32}};

}  // namespace

TEMPLATE_TEST_CASE("vector, worker and worker_vector scans over rows in a gang loop", "[10][scan][loop_scan]", int, long,
                   float) {
  const int n = GENERATE(0, 1, 31, 1000);
  const int ni = GENERATE(2, 5);
  unsigned seed = 10000u + 7u * n + ni;
  for (const config& c : configs) {
    check_rows<TestType>(acc::plus, ni, n, c, ++seed);
    check_rows<TestType>(acc::maximum, ni, n, c, ++seed);
    check_rows<TestType>(acc::minimum, ni, n, c, ++seed);
  }
}

TEST_CASE("loop_scan keeps the order of a non-commutative operator", "[10][scan][loop_scan][user]") {
  const int n = GENERATE(1, 33, 1000);
  unsigned seed = 10500u + n;
  for (const config& c : configs) check_rows<mat2>(mat_product{}, 3, n, c, ++seed);
}

TEST_CASE("vector compaction inside a worker loop", "[10][scan][loop_scan]") {
  const int n = GENERATE(0, 1, 31, 257);
  const int ni = 3, nj = 4;
  const std::size_t len = static_cast<std::size_t>(ni) * nj * n;
  for (const config& c : configs) {
    CAPTURE(n, c.gangs, c.workers, c.vector);
    // Host vectors through views in a data region: out is only partly written (copy keeps the
    // rest), every count is (copyout).
    std::vector<int> x(len), out(len, -1), count(ni * nj, -1);
    acc_test::fill_random(x, 10600u + n, -10, 10);
    {
      const acc::view<const int> vx(x.data(), x.size());
      const acc::view<int> vout(out.data(), out.size()), vcount(count.data(), count.size());
      acc::data region{acc::copyin(vx), acc::copy(vout), acc::copyout(vcount)};
      if (c.gangs)
        compact_in_worker(vx, ni, nj, n, vout, vcount, acc::num_gangs(c.gangs), acc::num_workers(c.workers),
                          acc::vector_length(c.vector));
      else
        compact_in_worker(vx, ni, nj, n, vout, vcount);
    }
    for (int r = 0; r < ni * nj; ++r) {
      int kept = 0;
      for (int k = 0; k < n; ++k) {
        const int v = x[static_cast<std::size_t>(r) * n + k];
        if (v > 0) {
          REQUIRE(out[static_cast<std::size_t>(r) * n + kept] == v);
          ++kept;
        }
      }
      REQUIRE(count[r] == kept);
    }
  }
}
