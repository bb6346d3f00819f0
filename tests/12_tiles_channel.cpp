// Level 12b: tile-level bodies: channel communication inside a tile (an in-tile prefix with
// tile_for + per_iteration, a broadcast ordered by tile_barrier, neighbour exchange and an
// in-tile transpose), per_iteration across tile_for calls, acc::cache in a sequential loop
// (N-body-like, and a blocked matrix product), 64-bit iteration indices, clauses (async,
// num_gangs, default_present, if_), and the errors tile_loop reports; against sequential
// references on random integers.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/buffer.hpp"

namespace {

std::vector<long long> random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<long long> v(n);
  for (auto& x : v) x = static_cast<long long>(gen() % 201) - 100;
  return v;
}

// ---- channel communication ----

// Inclusive prefix of x over each tile (Hillis-Steele: log2(tile) rounds, each a read into a
// per_iteration value and a write, ordered by tile_for's barriers), stored in place.
void tile_prefix_1d(acc::array<long long> x, int n, int tile) {
  acc::tile_loop(n, acc::tile_size(tile), acc::cached(x, acc::fetch | acc::channel | acc::write_back),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<long long, 1>& c) {
                   acc::per_iteration<long long> v(t);
                   for (int s = 1; s < t.size(); s *= 2) {
                     acc::tile_for(t, [&](int i) { v(i) = i - s >= t.origin() ? c(i - s) : 0; });
                     acc::tile_for(t, [&](int i) { c(i) += v(i); });
                   }
                 });
}

// Prefix along each row of a 2D tile (j direction), into a separate output array.
void tile_prefix_rows(acc::array<long long, 2> x, acc::array<long long, 2> out, int ni, int nj, int ti, int tj) {
  acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(ti, tj), acc::cached(x, acc::fetch | acc::channel),
                 ACC_LAMBDA(const acc::tile_t<2>& t, const acc::cached_view<long long, 2>& c) {
                   acc::per_iteration<long long> v(t);
                   for (int s = 1; s < t.size(1); s *= 2) {
                     acc::tile_for(t, [&](int i, int j) { v(i, j) = j - s >= t.origin(1) ? c(i, j - s) : 0; });
                     acc::tile_for(t, [&](int i, int j) { c(i, j) += v(i, j); });
                   }
                   acc::tile_for(t, [&](int i, int j) { out(i, j) = c(i, j); });
                 });
}

// Broadcast: every iteration adds the tile's first (doubled) element; tile-level code reads it
// and tile_barrier keeps the next write from overtaking that read.
void tile_broadcast(acc::array<long long> x, acc::array<long long> out, int n, int tile) {
  acc::tile_loop(n, acc::tile_size(tile), acc::cached(x, acc::fetch | acc::channel),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<long long, 1>& c) {
                   acc::tile_for(t, [&](int i) { c(i) *= 2; });
                   const long long first = c(t.origin());
                   acc::tile_barrier(t);
                   acc::tile_for(t, [&](int i) { c(i) += first; });
                   acc::tile_for(t, [&](int i) { out[i] = c(i); });
                 });
}

// Neighbour exchange without fetch: each iteration publishes a value, then reads its
// successor's inside the tile (wrapping at the tile's last iteration inside the extent).
void tile_rotate(acc::array<long long> x, acc::array<long long> scratch, acc::array<long long> out, int n, int tile) {
  acc::tile_loop(n, acc::tile_size(tile), acc::cached(scratch, acc::channel),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<long long, 1>& c) {
                   acc::tile_for(t, [&](int i) { c(i) = 3 * x[i] + 1; });
                   acc::tile_for(t, [&](int i) {
                     const int k = i - t.origin() + 1;
                     out[i] = c(t.origin() + (k == t.count() ? 0 : k));
                   });
                 });
}

// In-tile transpose of square tiles through dist_private storage (3D: transpose the last two
// dimensions), where the transposed element is inside the extent.
void tile_transpose_3d(acc::array<long long, 3> x, acc::array<long long, 3> out, int n0, int n1, int n2) {
  acc::tile_loop(acc::collapse(n0, n1, n2), acc::tile_size(2, 8, 8), acc::dist_private(x),
                 ACC_LAMBDA(const acc::tile_t<3>& t, const acc::cached_view<long long, 3>& c) {
                   acc::tile_for(t, [&](int i, int j, int k) { c(i, j, k) = x(i, j, k); });
                   acc::tile_for(t, [&](int i, int j, int k) {
                     const int jj = t.origin(1) + (k - t.origin(2)), kk = t.origin(2) + (j - t.origin(1));
                     out(i, j, k) = t.contains(i, jj, kk) ? c(i, jj, kk) : -1;
                   });
                 });
}

// per_iteration across five tile_for calls, with an initial value, in 2D.
void accumulate_2d(acc::array<long long, 2> x, acc::array<long long, 2> out, int ni, int nj) {
  acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(4, 8), ACC_LAMBDA(const acc::tile_t<2>& t) {
    acc::per_iteration<long long> sum(t, 1000);
    acc::per_iteration<int> calls(t);
    for (int r = 1; r <= 5; ++r) {
      acc::tile_for(t, [&](int i, int j) {
        sum(i, j) += r * x(i, j);
        calls(i, j) += 1;
      });
    }
    acc::tile_for(t, [&](int i, int j) { out(i, j) = sum(i, j) * 10 + calls(i, j); });
  });
}

// per_iteration values scoped to one step of a sequential loop, two per step (one nested),
// `steps` steps per tile: total(i) = sum over s of 2 s + i. held[i] gets the most per_iteration
// arrays the thread's scratch kept at once (on the host; on a GPU they are registers: 0).
void per_iteration_steps(acc::array<long long> out, acc::array<long long> held, int n, int steps) {
  acc::tile_loop(n, acc::tile_size(32), ACC_LAMBDA(const acc::tile_t<1>& t) {
    acc::per_iteration<long long> total(t);
    for (int s = 0; s < steps; ++s) {
      acc::per_iteration<long long> step(t, s);
      {
        acc::per_iteration<long long> twice(t);
        acc::tile_for(t, [&](int i) { twice(i) = 2 * step(i) + i; });
        acc::tile_for(t, [&](int i) { total(i) += twice(i); });
      }
    }
    const long long slots = static_cast<long long>(acc::detail::tile_ops::iteration_slots(t));
    acc::tile_for(t, [&](int i) {
      out[i] = total(i);
      held[i] = slots;
    });
  });
}

// per_iteration indexed with fewer or more indices than the tile's rank. if_(false): on a GPU
// the report is a trap, which would lose the context; the host throws.
void per_iteration_rank_2d(acc::array<int, 2> out, int given) {
  acc::tile_loop(acc::collapse(8, 8), acc::tile_size(4, 4), acc::if_(false), ACC_LAMBDA(const acc::tile_t<2>& t) {
    acc::per_iteration<int> p(t);
    acc::tile_for(t, [&](int i, int j) {
      if (given == 1) p(i) += 1;
      else if (given == 2) p(i, j) += 1;
      else p(i, j, 0) += 1;
    });
    acc::tile_for(t, [&](int i, int j) { out(i, j) = p(i, j); });
  });
}
void per_iteration_rank_1d(acc::array<int, 2> out) {
  acc::tile_loop(8, acc::tile_size(4), acc::if_(false), ACC_LAMBDA(const acc::tile_t<1>& t) {
    acc::per_iteration<int> p(t);
    acc::tile_for(t, [&](int i) { p(i, 0) = i; });
    acc::tile_for(t, [&](int i) { out(i, 0) = p(i); });
  });
}

// tile_for (nested) or tile_barrier called inside a tile_for's function, where on a GPU only the
// iterations inside the extent would reach its barrier. `which`: 0 neither (the correct form),
// 1 tile_for, 2 tile_barrier. n = 10 with tiles of 4: the last tile is partial. if_(false): as
// above.
void tile_level_in_tile_for(acc::array<int> out, int which) {
  acc::tile_loop(10, acc::tile_size(4), acc::if_(false), ACC_LAMBDA(const acc::tile_t<1>& t) {
    acc::tile_for(t, [&](int i) {
      out[i] = i;
      if (which == 1) acc::tile_for(t, [&](int k) { out[k] += 1; });
      if (which == 2) acc::tile_barrier(t);
    });
    acc::tile_barrier(t);
    acc::tile_for(t, [&](int i) { out[i] += 100; });
  });
}

}  // namespace

TEST_CASE("per_iteration indexed with a count of indices other than the tile's rank is acc::error", "[12][tile][errors]") {
  acc::array<int, 2> out("out", 8, 8);
  per_iteration_rank_2d(out, 2);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) REQUIRE(out(i, j) == 1);
  REQUIRE_THROWS_AS(per_iteration_rank_2d(out, 1), acc::error);
  REQUIRE_THROWS_WITH(per_iteration_rank_2d(out, 1),
                      Catch::Contains("acc::tile_loop at 12_tiles_channel.cpp:") &&
                          Catch::Contains("acc::per_iteration: 1 index in a tile of rank 2; give one index per "
                                          "dimension of the tile, p(i, j)"));
  REQUIRE_THROWS_WITH(per_iteration_rank_2d(out, 3), Catch::Contains("acc::per_iteration: 3 indices in a tile of rank 2"));
  REQUIRE_THROWS_WITH(per_iteration_rank_1d(out), Catch::Contains("acc::per_iteration: 2 indices in a tile of rank 1"));
}

TEST_CASE("tile_for or tile_barrier inside a tile_for's function is acc::error", "[12][tile][errors]") {
  acc::array<int> out("out", 10);
  tile_level_in_tile_for(out, 0);
  for (int i = 0; i < 10; ++i) REQUIRE(out[i] == i + 100);
  for (const int which : {1, 2}) {
    const char* name = which == 1 ? "acc::tile_for" : "acc::tile_barrier";
    INFO(name);
    REQUIRE_THROWS_AS(tile_level_in_tile_for(out, which), acc::error);
    REQUIRE_THROWS_WITH(tile_level_in_tile_for(out, which),
                        Catch::Contains("acc::tile_loop at 12_tiles_channel.cpp:") &&
                            Catch::Contains(std::string(name) + ": called inside acc::tile_for; it is tile-level code "
                                            "that every thread of the gang runs: call it after the tile_for returns"));
  }
}

TEST_CASE("tile_loop: per_iteration in a loop of tile-level code takes bounded memory", "[12][tile]") {
  const int n = 100;  // four tiles, the last partial
  for (const int steps : {0, 1, 5000}) {
    INFO("steps = " << steps);
    acc::array<long long> out("out", n), held("held", n);
    per_iteration_steps(out, held, n, steps);
    for (int i = 0; i < n; ++i) {
      REQUIRE(out[i] == static_cast<long long>(steps) * (steps - 1) + static_cast<long long>(steps) * i);
      REQUIRE(held[i] <= 3);  // total, step and twice: each step gives back what it took
    }
  }
}

TEST_CASE("tile_loop channel: in-tile prefix with tile_for and per_iteration", "[12][tile]") {
  for (const int n : {1, 100, 1000, 1024}) {
    for (const int tile : {1, 32, 128, 256}) {
      INFO("n = " << n << ", tile = " << tile);
      const auto v = random_values(n, unsigned(n * 7 + tile));
      acc::array<long long> x("x", n);
      for (int i = 0; i < n; ++i) x[i] = v[i];
      tile_prefix_1d(x, n, tile);
      long long run = 0;
      for (int i = 0; i < n; ++i) {
        run = (i % tile == 0 ? 0 : run) + v[i];
        REQUIRE(x[i] == run);
      }
    }
  }
  const int ni = 19, nj = 70;
  const auto v = random_values(ni * nj, 5);
  acc::array<long long, 2> x("x", ni, nj), out("out", ni, nj);
  for (int k = 0; k < ni * nj; ++k) x.data()[k] = v[k];
  tile_prefix_rows(x, out, ni, nj, 4, 32);
  for (int i = 0; i < ni; ++i) {
    long long run = 0;
    for (int j = 0; j < nj; ++j) {
      run = (j % 32 == 0 ? 0 : run) + v[i * nj + j];
      REQUIRE(out(i, j) == run);
      REQUIRE(x(i, j) == v[i * nj + j]);  // channel without write_back leaves the array alone
    }
  }
}

TEST_CASE("tile_loop channel: broadcast, neighbour exchange and transpose inside tiles", "[12][tile]") {
  const int n = 300;
  const auto v = random_values(n, 9);
  acc::array<long long> x("x", n), out("out", n), scratch("scratch", n);
  for (int i = 0; i < n; ++i) x[i] = v[i];
  for (auto& s : scratch) s = -9;

  tile_broadcast(x, out, n, 64);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == 2 * v[i] + 2 * v[i / 64 * 64]);
  for (int i = 0; i < n; ++i) REQUIRE(x[i] == v[i]);

  tile_rotate(x, scratch, out, n, 64);
  for (int i = 0; i < n; ++i) {
    const int o = i / 64 * 64, count = std::min(64, n - o), k = i - o + 1;
    REQUIRE(out[i] == 3 * v[o + (k == count ? 0 : k)] + 1);
    REQUIRE(scratch[i] == -9);
  }

  const int n0 = 3, n1 = 13, n2 = 11;
  acc::array<long long, 3> x3("x3", n0, n1, n2), out3("out3", n0, n1, n2);
  const auto v3 = random_values(n0 * n1 * n2, 4);
  for (int k = 0; k < n0 * n1 * n2; ++k) x3.data()[k] = v3[k];
  tile_transpose_3d(x3, out3, n0, n1, n2);
  for (int i = 0; i < n0; ++i)
    for (int j = 0; j < n1; ++j)
      for (int k = 0; k < n2; ++k) {
        const int oj = j / 8 * 8, ok = k / 8 * 8, jj = oj + (k - ok), kk = ok + (j - oj);
        const long long e = jj < n1 && kk < n2 ? v3[(i * n1 + jj) * n2 + kk] : -1;
        INFO(i << "," << j << "," << k);
        REQUIRE(out3(i, j, k) == e);
      }
}

TEST_CASE("tile_loop: per_iteration values live across tile_for calls", "[12][tile]") {
  const int ni = 9, nj = 21;
  const auto v = random_values(ni * nj, 12);
  acc::array<long long, 2> x("x", ni, nj), out("out", ni, nj);
  for (int k = 0; k < ni * nj; ++k) x.data()[k] = v[k];
  accumulate_2d(x, out, ni, nj);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) REQUIRE(out(i, j) == (1000 + 15 * v[i * nj + j]) * 10 + 5);
}

// ---- acc::cache (OpenACC's cache directive) in sequential loops ----

namespace {

// y[i] = sum_j x[j] * m[j] * ((i + j) % 7 - 3), the j loop in blocks of `block` staged with
// two acc::cache calls per block (the cache area holds both).
void nbody_like(acc::array<long long> x, acc::array<long long> m, acc::array<long long> y, int n, int tile, int block) {
  acc::tile_loop(n, acc::tile_size(tile), acc::cache_bytes(2 * block * sizeof(long long)),
                 ACC_LAMBDA(const acc::tile_t<1>& t) {
                   acc::per_iteration<long long> f(t);
                   for (int jt = 0; jt < n; jt += block) {
                     auto xs = acc::cache(t, x, acc::fixed(jt, block));
                     auto ms = acc::cache(t, m, acc::fixed(jt, block));
                     acc::tile_for(t, [&](int i) {
                       for (long long j = xs.lo(); j < xs.hi(); ++j) f(i) += xs(j) * ms(j) * ((i + j) % 7 - 3);
                     });
                   }
                   acc::tile_for(t, [&](int i) { y[i] = f(i); });
                 });
}

// C = A B in 8 x 8 tiles; the k loop stages an 8-wide block of A's rows (halo(0, 0) along i:
// the tile's rows) and of B's columns.
void blocked_matmul(acc::array<long long, 2> a, acc::array<long long, 2> b, acc::array<long long, 2> c, int n, int m,
                    int p) {
  acc::tile_loop(acc::collapse(n, p), acc::tile_size(8, 8), acc::cache_bytes(2 * 8 * 8 * sizeof(long long)),
                 ACC_LAMBDA(const acc::tile_t<2>& t) {
                   acc::per_iteration<long long> s(t);
                   for (int kt = 0; kt < m; kt += 8) {
                     auto as = acc::cache(t, a, acc::halo(0, 0), acc::fixed(kt, 8));
                     auto bs = acc::cache(t, b, acc::fixed(kt, 8), acc::halo(0, 0));
                     acc::tile_for(t, [&](int i, int j) {
                       for (long long k = as.lo(1); k < as.hi(1); ++k) s(i, j) += as(i, k) * bs(k, j);
                     });
                   }
                   acc::tile_for(t, [&](int i, int j) { c(i, j) = s(i, j); });
                 });
}

}  // namespace

TEST_CASE("acc::cache stages blocks in a sequential loop (N-body-like, blocked matmul)", "[12][tile]") {
  for (const int n : {1, 63, 64, 1000}) {
    INFO("n = " << n);
    const auto vx = random_values(n, 21), vm = random_values(n, 22);
    acc::array<long long> x("x", n), m("m", n), y("y", n);
    for (int i = 0; i < n; ++i) x[i] = vx[i], m[i] = vm[i];
    nbody_like(x, m, y, n, 64, 64);
    for (int i = 0; i < n; ++i) {
      long long e = 0;
      for (int j = 0; j < n; ++j) e += vx[j] * vm[j] * ((i + j) % 7 - 3);
      REQUIRE(y[i] == e);
    }
    nbody_like(x, m, y, n, 32, 48);  // blocks and tiles of different sizes
    for (int i = 0; i < n; ++i) {
      long long e = 0;
      for (int j = 0; j < n; ++j) e += vx[j] * vm[j] * ((i + j) % 7 - 3);
      REQUIRE(y[i] == e);
    }
  }
  const int n = 37, m = 29, p = 23;
  const auto va = random_values(n * m, 31), vb = random_values(m * p, 32);
  acc::array<long long, 2> a("a", n, m), b("b", m, p), c("c", n, p);
  for (int k = 0; k < n * m; ++k) a.data()[k] = va[k];
  for (int k = 0; k < m * p; ++k) b.data()[k] = vb[k];
  blocked_matmul(a, b, c, n, m, p);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < p; ++j) {
      long long e = 0;
      for (int k = 0; k < m; ++k) e += va[i * m + k] * vb[k * p + j];
      REQUIRE(c(i, j) == e);
    }
}

// ---- indices, clauses, edge cases ----

namespace {

void wide_indices(long long lo, acc::array<long long> out, int tile) {
  acc::tile_loop(acc::range(lo, lo + static_cast<long long>(out.size())), acc::tile_size(tile),
                 ACC_LAMBDA(const acc::tile_t<1, long long>& t) {
                   acc::per_iteration<long long> v(t);
                   acc::tile_for(t, [&](long long i) { v(i) = i % 1000003 + t.origin() % 7; });
                   acc::tile_for(t, [&](long long i) { out[i - lo] = v(i); });
                 });
}
void wide_indices_per_iteration(long long lo, acc::array<long long> out) {
  acc::tile_loop(acc::range(lo, lo + static_cast<long long>(out.size())), acc::vector_length(96),
                 ACC_LAMBDA(long long i) { out[i - lo] = i % 1000003; });
}

template <class... Clauses>
void stencil_with(acc::array<long long> x, acc::array<long long> y, int n, Clauses... clauses) {
  acc::tile_loop(n, acc::tile_size(64), acc::cached(x, acc::fetch, acc::halo(1, 1)), clauses...,
                 ACC_LAMBDA(int i, const acc::cached_view<long long, 1>& c) {
                   y[i] = (i > 0 ? c(i - 1) : 0) + 2 * c(i) + (i + 1 < n ? c(i + 1) : 0);
                 });
}

void count_tiles(int n0, int n1, int* counter) {
  acc::tile_loop(acc::collapse(n0, n1), acc::tile_size(4, 4),
                 ACC_LAMBDA(const acc::tile_t<2>& t) { acc::tile_for(t, [&](int, int) { acc_test::atomic_inc(counter); }); });
}

}  // namespace

TEST_CASE("tile_loop: 64-bit iteration indices", "[12][tile]") {
  const long long lo = 3'000'000'000LL + 17;  // past 2^31: an int index would wrap
  acc::array<long long> out("out", 1000);
  wide_indices(lo, out, 128);
  for (long long k = 0; k < 1000; ++k) REQUIRE(out[k] == (lo + k) % 1000003 + (lo + k / 128 * 128) % 7);
  wide_indices_per_iteration(lo, out);
  for (long long k = 0; k < 1000; ++k) REQUIRE(out[k] == (lo + k) % 1000003);
}

TEST_CASE("tile_loop: clauses async, num_gangs, if_, default_present, empty extents", "[12][tile]") {
  const int n = 5000;
  const auto v = random_values(n, 41);
  acc::array<long long> x("x", n), y("y", n);
  for (int i = 0; i < n; ++i) x[i] = v[i];
  auto check = [&] {
    for (int i = 0; i < n; ++i) REQUIRE(y[i] == (i > 0 ? v[i - 1] : 0) + 2 * v[i] + (i + 1 < n ? v[i + 1] : 0));
  };
  stencil_with(x, y, n);
  check();
  std::fill(y.begin(), y.end(), 0);
  stencil_with(x, y, n, acc::num_gangs(3));  // 79 tiles on 3 gangs
  check();
  std::fill(y.begin(), y.end(), 0);
  stencil_with(x, y, n, acc::if_(false));
  check();
  std::fill(y.begin(), y.end(), 0);
  {
    acc::data region{acc::copyin(x), acc::copy(y)};
    stencil_with(x, y, n, acc::async(3), acc::default_present);
    acc::wait(3);
  }
  check();
  REQUIRE_THROWS_AS(stencil_with(x, y, n, acc::default_present), acc::not_present_error);

  acc_test::buffer<int> counter(1, 0);
  count_tiles(0, 5, counter.data());
  count_tiles(5, 0, counter.data());
  REQUIRE(counter[0] == 0);
  count_tiles(7, 5, counter.data());
  REQUIRE(counter[0] == 35);
}

// ---- errors ----

namespace {

void too_much_shared(acc::array<float> big, acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::cached(big, acc::fetch, acc::fixed(0, 1 << 20)),
                 ACC_LAMBDA(int i, const acc::cached_view<float, 1>& c) { y[i] = c(i); });
}
void too_much_cache(acc::array<float> y) {
  acc::tile_loop(64, acc::tile_size(64), acc::cache_bytes(std::size_t(1) << 30),
                 ACC_LAMBDA(const acc::tile_t<1>& t) { acc::tile_for(t, [&](int i) { y[i] = 0; }); });
}
void bad_shape(acc::array<float> y, int t0) {
  acc::tile_loop(acc::collapse(4, 4), acc::tile_size(t0, 4), ACC_LAMBDA(int i, int j) { y[i * 4 + j] = 1; });
}
// Runs tile shape t0 (x t1 (x t2)) over 64 iterations in each dimension.
void shaped(acc::array<int> y, int t0) {
  acc::tile_loop(4096, acc::tile_size(t0), ACC_LAMBDA(int i) { y[i] = i; });
}
void shaped(acc::array<int> y, int t0, int t1) {
  acc::tile_loop(acc::collapse(64, 64), acc::tile_size(t0, t1), ACC_LAMBDA(int i, int j) { y[i * 64 + j] = i * 64 + j; });
}
void shaped(acc::array<int> y, int t0, int t1, int t2) {
  acc::tile_loop(acc::collapse(64, 8, 8), acc::tile_size(t0, t1, t2),
                 ACC_LAMBDA(int i, int j, int k) { y[(i * 8 + j) * 8 + k] = (i * 8 + j) * 8 + k; });
}
void shaped_by_vector_length(acc::array<int> y, int n) {
  acc::tile_loop(4096, acc::vector_length(n), ACC_LAMBDA(int i) { y[i] = i; });
}
void bad_vector_length(acc::array<float> y, int n) {
  acc::tile_loop(16, acc::vector_length(n), ACC_LAMBDA(int i) { y[i] = 1; });
}
void bad_halo(acc::array<float> y, int before) {
  acc::tile_loop(16, acc::tile_size(4), acc::cached(y, acc::fetch, acc::halo(before, 1)),
                 ACC_LAMBDA(int i, const acc::cached_view<float, 1>& c) { (void)c; (void)i; });
}
void const_write_back(acc::view<const float> v) {
  acc::tile_loop(16, acc::tile_size(4), acc::cached(v, acc::fetch | acc::write_back),
                 ACC_LAMBDA(int i, const acc::cached_view<const float, 1>& c) { (void)c(i); });
}
void cache_overflow(acc::array<float> x, acc::array<float> y) {
  // if_(false): on a GPU the overflow would trap the context; the host reports it the same way.
  acc::tile_loop(64, acc::tile_size(64), acc::cache_bytes(64 * sizeof(float)), acc::if_(false),
                 ACC_LAMBDA(const acc::tile_t<1>& t) {
                   auto a = acc::cache(t, x, acc::fixed(0, 64));
                   auto b = acc::cache(t, x, acc::fixed(0, 1));  // no room left: the first is still live
                   acc::tile_for(t, [&](int i) { y[i] = a(i) + b(0); });
                 });
}

void cache_negative(acc::array<float> x, acc::array<float> y, int count) {
  acc::tile_loop(64, acc::tile_size(64), acc::cache_bytes(64 * sizeof(float)), acc::if_(false),
                 ACC_LAMBDA(const acc::tile_t<1>& t) {
                   auto a = acc::cache(t, x, acc::fixed(0, count));
                   acc::tile_for(t, [&](int i) { y[i] = a(0) + float(i); });
                 });
}

}  // namespace

TEST_CASE("tile_loop errors: shared memory beyond the device, bad shapes and ranges", "[12][tile][errors]") {
  acc::array<float> y("y", 64), big("big", 1 << 20);
  if (acc::get_num_devices(acc::device_type::nvidia) > 0 && acc_test::gpu_run()) {
    REQUIRE_THROWS_AS(too_much_shared(big, y), acc::bad_clause);
    REQUIRE_THROWS_WITH(too_much_shared(big, y), Catch::Contains("acc::tile_loop at 12_tiles_channel.cpp:") &&
                                                     Catch::Contains("asks 4194304 bytes of shared memory") &&
                                                     Catch::Contains("allows"));
    REQUIRE_THROWS_WITH(too_much_cache(y), Catch::Contains("bytes of shared memory") && Catch::Contains("allows"));
  }
  REQUIRE_THROWS_WITH(bad_shape(y, 0), Catch::Contains("tile_size extent 0 of dimension 0 must be at least 1"));
  REQUIRE_THROWS_AS(bad_shape(y, -3), acc::bad_clause);
  // The clause the shape came from, as written.
  REQUIRE_THROWS_AS(bad_vector_length(y, 0), acc::bad_clause);
  REQUIRE_THROWS_WITH(bad_vector_length(y, 0), Catch::Contains("vector_length(0), the tile's shape, must be at least 1"));
  REQUIRE_THROWS_WITH(bad_halo(y, -1), Catch::Contains("cached() clause 1 ('y'): halo(-1, 1) is negative"));
  std::vector<float> host(16, 1.0f);
  REQUIRE_THROWS_WITH(const_write_back(acc::view<const float>("ro", host.data(), 16)),
                      Catch::Contains("has write_back but its elements are const"));
  acc::array<float> x("x", 64);
  REQUIRE_THROWS_AS(cache_overflow(x, y), acc::bad_clause);
  REQUIRE_THROWS_WITH(cache_overflow(x, y), Catch::Contains("acc::tile_loop at 12_tiles_channel.cpp:") &&
                                                Catch::Contains("acc::cache: a view of 4 bytes takes 16 (each view starts "
                                                                "on 16 bytes), but 256 of the 256 bytes"));
  REQUIRE_THROWS_WITH(cache_negative(x, y, -2), Catch::Contains("acc::tile_loop at 12_tiles_channel.cpp:") &&
                                                    Catch::Contains("acc::cache: a range is negative") &&
                                                    Catch::Contains("0, -2"));
}

TEST_CASE("tile_loop: tile shapes past a GPU block's limits are acc::bad_clause on every backend", "[12][tile][errors]") {
  acc::array<int> y("y", 4096);
  const auto filled = [&] {
    bool all = true;
    for (int k = 0; k < 4096; ++k) all = all && y[k] == k;
    return all;
  };
  // At the limits: 1024 iterations, a first extent of 64 in 3D.
  for (auto& v : y) v = -1;
  shaped(y, 1024);
  REQUIRE(filled());
  for (auto& v : y) v = -1;
  shaped(y, 32, 32);
  REQUIRE(filled());
  for (auto& v : y) v = -1;
  shaped(y, 64, 4, 4);
  REQUIRE(filled());
  for (auto& v : y) v = -1;
  shaped_by_vector_length(y, 1024);
  REQUIRE(filled());
  // Past them, with the clause as written and the limit.
  REQUIRE_THROWS_AS(shaped(y, 1025), acc::bad_clause);
  REQUIRE_THROWS_WITH(shaped(y, 2048), Catch::Contains("acc::tile_loop at 12_tiles_channel.cpp:") &&
                                           Catch::Contains("tile_size(2048) asks 2048 iterations per tile; at most "
                                                           "1024 on every backend"));
  REQUIRE_THROWS_WITH(shaped(y, 64, 32), Catch::Contains("tile_size(64, 32) asks 2048 iterations per tile; at most 1024"));
  REQUIRE_THROWS_WITH(shaped(y, 1 << 21), Catch::Contains("tile_size(2097152) asks 2097152 iterations per tile"));
  REQUIRE_THROWS_WITH(shaped(y, 1 << 30, 1 << 30, 1 << 30),
                      Catch::Contains("tile_size(1073741824, 1073741824, 1073741824) asks more than 2^64 iterations"));
  REQUIRE_THROWS_WITH(shaped_by_vector_length(y, 2048),
                      Catch::Contains("vector_length(2048) asks 2048 iterations per tile; at most 1024"));
  REQUIRE_THROWS_WITH(shaped(y, 128, 2, 2),
                      Catch::Contains("tile_size(128, 2, 2): the first of three extents may be at most 64 on every backend"));
}
