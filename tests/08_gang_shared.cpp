// Level 8: gang-shared memory inside acc::parallel (g.shared<T>(n), sized by acc::shared_bytes):
// filled by one loop, read back by another after the loop's implied barrier or acc::barrier,
// several allocations of different types, more than 48 KiB, vector lengths that are not
// multiples of 32, and the error for asking beyond shared_bytes (host only: a GPU traps).
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "support/arrays.hpp"
#include "support/buffer.hpp"

namespace {

// out = in with every tile of `tile` elements reversed (the last tile may be short). One tile
// per gang-loop iteration: a vector loop copies it into shared memory, a loop at ReadLevel
// writes it back reversed, so every element crosses lanes (and workers for worker levels).
template <class ReadLevel, class... Clauses>
void reverse_tiles(ReadLevel read, acc::view<const double> in, acc::view<double> out, int n, int tile,
                   Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    const auto s = g.shared<double>(tile);  // once per region: each call takes more of the gang's memory
    const int tiles = (n + tile - 1) / tile;
    acc::loop(g, acc::gang, tiles, [&](int t) {
      const int base = t * tile, len = n - base < tile ? n - base : tile;
      acc::loop(g, acc::vector, len, [&](int k) { s[k] = in[base + k]; });
      // the vector loop's implied barrier makes s visible to every worker and lane
      acc::loop(g, read, len, [&](int k) { out[base + k] = s[len - 1 - k]; });
    });
  });
}

std::vector<double> reversed_tiles(const acc::array<double>& in, int tile) {
  std::vector<double> r(in.size());
  const int n = static_cast<int>(in.size());
  for (int base = 0; base < n; base += tile) {
    const int len = n - base < tile ? n - base : tile;
    for (int k = 0; k < len; ++k) r[base + k] = in[base + len - 1 - k];
  }
  return r;
}

// Per gang-loop iteration b: a block of `block` values goes to shared memory (worker_vector
// loop), single(per_gang) turns it into its inclusive prefix sum in place, and a vector loop
// stores the result, offset by the block's first input (read after single's barrier).
template <class... Clauses>
void block_prefix(acc::view<const long long> in, acc::view<long long> out, int n, int block, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    const auto s = g.shared<long long>(block);
    const int blocks = (n + block - 1) / block;
    acc::loop(g, acc::gang, blocks, [&](int b) {
      const int base = b * block, len = n - base < block ? n - base : block;
      acc::loop(g, acc::worker_vector, len, [&](int k) { s[k] = in[base + k]; });
      acc::single(g, acc::per_gang, [&] {
        for (int k = 1; k < len; ++k) s[k] += s[k - 1];
      });
      acc::loop(g, acc::vector, len, [&](int k) { out[base + k] = s[k] + 1000 * in[base]; });
    });
  });
}

// Three allocations of different sizes and alignments (char, double, int), written by one
// thread of the gang, published with an explicit acc::barrier, then read by worker_vector
// loops; misaligned or overlapping spans show in the output or in `misaligned`.
template <class... Clauses>
void three_spans(acc::view<const int> in, acc::view<double> out, acc::view<int> misaligned, int n, int nc, int nd,
                 int ni, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    const auto c = g.shared<char>(nc);
    const auto d = g.shared<double>(nd);
    const auto m = g.shared<int>(ni);
    const int gn = g.gang_num();
    if (g.worker_num() == 0 && g.vector_lane() == 0) {
      if (reinterpret_cast<std::uintptr_t>(d.data()) % alignof(double) != 0 ||
          reinterpret_cast<std::uintptr_t>(m.data()) % alignof(int) != 0 ||
          static_cast<const void*>(d.data()) < static_cast<const void*>(c.data() + nc) ||
          static_cast<const void*>(m.data()) < static_cast<const void*>(d.data() + nd))
        acc_test::atomic_inc(&misaligned[0]);
      for (int k = 0; k < nc; ++k) c[k] = static_cast<char>(in[k % n] % 100 + gn);
      for (int k = 0; k < nd; ++k) d[k] = 0.5 * in[(k + 1) % n] + gn;
      for (int k = 0; k < ni; ++k) m[k] = in[(k + 2) % n] * 3 - gn;
    }
    acc::barrier(g);
    const int w = nc > nd ? (nc > ni ? nc : ni) : (nd > ni ? nd : ni);
    acc::loop(g, acc::worker_vector, w, [&](int k) {
      out[static_cast<long long>(gn) * w + k] = (k < nc ? c[k] : 0) + (k < nd ? d[k] : 0.0) + (k < ni ? m[k] : 0);
    });
  });
}

template <class... Clauses>
void ask_beyond(int first, int second, Clauses... clauses) {
  acc::parallel(clauses..., ACC_LAMBDA(const acc::gang_t& g) {
    const auto a = g.shared<char>(first);
    a[0] = 1;
    if (second) g.shared<double>(second)[0] = 2;
  });
}

}  // namespace

TEST_CASE("a tile in shared memory is read back reversed by another loop", "[08][shared]") {
  const auto [n, tile] = GENERATE(table<int, int>({{1, 1}, {37, 8}, {1000, 97}, {4099, 256}, {50, 128}}));
  // gangs 0: default configuration; vector lengths not multiples of 32 included
  const auto [gangs, workers, vector] = GENERATE(table<int, int, int>(
      {{0, 0, 0}, {1, 1, 1}, {3, 2, 24}, {4, 1, 33}, {2, 3, 100}, {5, 4, 32}, {7, 2, 65}}));
  CAPTURE(n, tile, gangs, workers, vector);
  acc::array<double> in(n);
  acc_test::fill_random<double>(in, 8001u + n, -1e3, 1e3);
  const auto expect = reversed_tiles(in, tile);
  const std::size_t bytes = tile * sizeof(double);
  auto check = [&](auto level) {
    acc::array<double> out = acc_test::filled(n, -1.0);
    if (gangs)
      reverse_tiles(level, in, out, n, tile, acc::num_gangs(gangs), acc::num_workers(workers),
                    acc::vector_length(vector), acc::shared_bytes(bytes));
    else
      reverse_tiles(level, in, out, n, tile, acc::shared_bytes(bytes));
    REQUIRE(acc_test::to_vector(out) == expect);
  };
  SECTION("read by a vector loop") { check(acc::vector); }
  SECTION("read by a worker loop") { check(acc::worker); }
  SECTION("read by a worker_vector loop") { check(acc::worker_vector); }
}

TEST_CASE("a prefix computed in single(per_gang) over shared memory", "[08][shared]") {
  const auto [n, block] = GENERATE(table<int, int>({{1, 1}, {31, 7}, {1000, 33}, {2500, 512}}));
  const auto [gangs, workers, vector] =
      GENERATE(table<int, int, int>({{1, 1, 1}, {3, 2, 24}, {6, 4, 33}, {2, 1, 100}}));
  CAPTURE(n, block, gangs, workers, vector);
  // Host vectors through views, mapped by a data region: every element of out is written, so
  // copyout needs no copy in.
  std::vector<long long> in(n), out(n, 0);
  acc_test::fill_random<long long>(in, 8101u + block, -1000000, 1000000);
  {
    const acc::view<const long long> vin(in.data(), in.size());
    const acc::view<long long> vout(out.data(), out.size());
    acc::data region{acc::copyin(vin), acc::copyout(vout)};
    block_prefix(vin, vout, n, block, acc::num_gangs(gangs), acc::num_workers(workers),
                 acc::vector_length(vector), acc::shared_bytes(block * sizeof(long long)));
  }
  for (int base = 0; base < n; base += block) {
    long long sum = 0;
    for (int k = base; k < n && k < base + block; ++k) {
      sum += in[k];
      INFO("k = " << k);
      REQUIRE(out[k] == sum + 1000 * in[base]);
    }
  }
}

TEST_CASE("allocations of different types are aligned, disjoint and published by barrier", "[08][shared]") {
  const auto [nc, nd, ni] = GENERATE(table<int, int, int>({{1, 1, 1}, {13, 40, 7}, {3, 5, 300}, {200, 17, 33}}));
  const auto [gangs, workers, vector] = GENERATE(table<int, int, int>({{1, 1, 1}, {3, 2, 24}, {4, 4, 100}}));
  CAPTURE(nc, nd, ni, gangs, workers, vector);
  const int n = 29;
  acc::array<int> in(n);
  acc_test::fill_random<int>(in, 8201u + nc, -1000, 1000);
  // Exactly what the three spans need: chars, padding to double alignment, doubles, ints.
  const std::size_t bytes =
      (nc + alignof(double) - 1) / alignof(double) * alignof(double) + nd * sizeof(double) + ni * sizeof(int);
  const int w = std::max({nc, nd, ni});
  acc::array<double> out = acc_test::filled(static_cast<std::size_t>(gangs) * w, -1.0);
  acc::array<int> misaligned(1);
  three_spans(in, out, misaligned, n, nc, nd, ni, acc::num_gangs(gangs), acc::num_workers(workers),
              acc::vector_length(vector), acc::shared_bytes(bytes));
  REQUIRE(misaligned[0] == 0);
  for (int gn = 0; gn < gangs; ++gn)
    for (int k = 0; k < w; ++k) {
      const double expect = (k < nc ? static_cast<char>(in[k % n] % 100 + gn) : 0) +
                            (k < nd ? 0.5 * in[(k + 1) % n] + gn : 0.0) + (k < ni ? in[(k + 2) % n] * 3 - gn : 0);
      INFO("gang " << gn << ", k = " << k);
      REQUIRE(out[static_cast<std::size_t>(gn) * w + k] == expect);
    }
}

TEST_CASE("shared memory above 48 KiB per gang", "[08][shared][large]") {
  // 64 KiB and 100 KiB of doubles: on a GPU the region opts in to more than the default 48 KiB.
  const int tile = GENERATE(8192, 12800);
  const auto [gangs, workers, vector] = GENERATE(table<int, int, int>({{3, 4, 32}, {2, 2, 100}}));
  CAPTURE(tile, gangs, workers, vector);
  const int n = 3 * tile - 555;
  acc::array<double> in(n);
  acc_test::fill_random<double>(in, 8301u + tile, -1.0, 1.0);
  const auto expect = reversed_tiles(in, tile);
  acc::array<double> out = acc_test::filled(n, -2.0);
  reverse_tiles(acc::worker_vector, in, out, n, tile, acc::num_gangs(gangs), acc::num_workers(workers),
                acc::vector_length(vector), acc::shared_bytes(tile * sizeof(double)));
  REQUIRE(acc_test::to_vector(out) == expect);
}

// A kernel traps instead, losing the context: tests/bounds/traps.cpp checks that in a process of its own.
TEST_CASE("asking for more shared memory than shared_bytes gave throws bad_clause on the host",
          "[08][shared][error][host]") {
  // one allocation too large; the second allocation crossing the end (alignment counts)
  REQUIRE_THROWS_AS(ask_beyond(101, 0, acc::num_gangs(3), acc::shared_bytes(100)), acc::bad_clause);
  REQUIRE_THROWS_AS(ask_beyond(1, 12, acc::num_gangs(2), acc::shared_bytes(96)), acc::bad_clause);
  REQUIRE_THROWS_AS(ask_beyond(1, 1, acc::num_gangs(1)), acc::bad_clause);  // no shared_bytes: none
  // exactly enough does not throw
  REQUIRE_NOTHROW(ask_beyond(100, 0, acc::num_gangs(3), acc::shared_bytes(100)));
  REQUIRE_NOTHROW(ask_beyond(1, 12, acc::num_gangs(2), acc::shared_bytes(104)));
}
