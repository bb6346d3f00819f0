// Rodinia 3.1 lud (LU decomposition without pivoting, in place: L below the diagonal with a
// unit diagonal, U on and above it) with acc. Variant "right_looking": per column k one
// parallel_loop scales the column below the pivot and one collapsed parallel_loop updates the
// trailing matrix, all queued (the operations and their order of Rodinia's lud_base, so on the
// host the result equals the CPU's bit for bit). Variant "blocked": Rodinia CUDA's three
// kernels per 16-wide block step, with team memory (acc::parallel, g.shared): the diagonal
// block factorised by one gang, the perimeter blocks (U to its right, L below it) solved by one
// gang each, and the internal blocks updated by one gang each from the staged L and U blocks.
// Variant "blocked_32": 32-wide block steps of two constructs each, the next diagonal block
// factorised by the internal construct (blocked_lookahead). All are compared with a CPU run.
//
//   lud [size = 2048]
//
// Rodinia reads a matrix file or generates one (-s); here the matrix is random and strictly
// diagonally dominant, so that elimination without pivoting is stable.
#include <acc/parallel.hpp>

#include "../common/rodinia.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <span>
#include <vector>

namespace {

constexpr int side = 16;  // Rodinia's BLOCK_SIZE

// The smaller of two ints, in host and device code alike.
ACC_ROUTINE constexpr int imin(int a, int b) { return a < b ? a : b; }

/// Lane l's line of a perimeter block, in team memory of row pitch `pitch`, against the
/// factored diagonal block d (n x n): a column of the row perimeter solved with d's unit lower
/// triangle, or a row of the column perimeter with its upper triangle (Rodinia's perimeter).
template <class Team>
ACC_ROUTINE void solve_perimeter_line(bool row, int l, int n, int pitch, const Team& d, const Team& p) {
  if (row) {
    for (int r = 1; r < n; ++r) {
      float s = p[r * pitch + l];
      for (int k = 0; k < r; ++k) s -= d[r * pitch + k] * p[k * pitch + l];
      p[r * pitch + l] = s;
    }
  } else {
    for (int c = 0; c < n; ++c) {
      float s = p[l * pitch + c];
      for (int k = 0; k < c; ++k) s -= p[l * pitch + k] * d[k * pitch + c];
      p[l * pitch + c] = s / d[c * pitch + c];
    }
  }
}

// OpenACC, per k:
//   #pragma acc parallel loop async(1)            for (i = k+1; i < n; ++i) a[i][k] /= a[k][k];
//   #pragma acc parallel loop collapse(2) async(1) for i, j > k: a[i][j] -= a[i][k] * a[k][j];
void right_looking(acc::view<float, 2> a, int queue) {
  const int n = int(a.extent(0));
  for (int k = 0; k < n - 1; ++k) {
    acc::parallel_loop(acc::range(k + 1, n), acc::default_present, acc::async(queue),
                       ACC_LAMBDA(int i) { a(i, k) /= a(k, k); });
    const int m = n - k - 1;
    acc::parallel_loop(acc::collapse(m, m), acc::default_present, acc::async(queue), ACC_LAMBDA(int ii, int jj) {
      const int i = k + 1 + ii, j = k + 1 + jj;
      a(i, j) -= a(i, k) * a(k, j);
    });
  }
  acc::wait(queue);
}

void blocked(acc::view<float, 2> a, int queue) {
  const int n = int(a.extent(0)), nb = (n + side - 1) / side;
  constexpr int tile = side * side;
  for (int it = 0; it < nb; ++it) {
    const int o = it * side, kb = imin(side, n - o), rest = nb - it - 1;
    // The diagonal block, factorised in team memory by one gang (right-looking within it).
    acc::parallel(acc::num_gangs(1), acc::vector_length(side), acc::shared_bytes(tile * sizeof(float)),
                  acc::default_present, acc::async(queue), ACC_LAMBDA(const acc::gang_t& g) {
                    const auto d = g.shared<float>(tile);
                    acc::loop(g, acc::vector, kb * side, [&](int e) {
                      if (e % side < kb) d[e] = a(o + e / side, o + e % side);
                    });
                    for (int k = 0; k < kb - 1; ++k) {
                      acc::loop(g, acc::vector, kb, [&](int i) {
                        if (i > k) d[i * side + k] /= d[k * side + k];
                      });
                      acc::loop(g, acc::vector, kb, [&](int i) {
                        if (i > k)
                          for (int j = k + 1; j < kb; ++j) d[i * side + j] -= d[i * side + k] * d[k * side + j];
                      });
                    }
                    acc::loop(g, acc::vector, kb * side, [&](int e) {
                      if (e % side < kb) a(o + e / side, o + e % side) = d[e];
                    });
                  });
    if (rest == 0) break;
    // The perimeter: gang 2b solves block b to the right (U = L_dd^-1 A, one column per lane),
    // gang 2b + 1 block b below (L = A U_dd^-1, one row per lane).
    acc::parallel(acc::num_gangs(2 * rest), acc::vector_length(side), acc::shared_bytes(2 * tile * sizeof(float)),
                  acc::default_present, acc::async(queue), ACC_LAMBDA(const acc::gang_t& g) {
                    const auto d = g.shared<float>(tile);
                    const auto p = g.shared<float>(tile);
                    acc::loop(g, acc::gang, 2 * rest, [&](int gb) {
                      const bool row = gb % 2 == 0;
                      const int q = o + side * (1 + gb / 2), qb = imin(side, n - q);
                      acc::loop(g, acc::vector, kb * side, [&](int e) {
                        const int r = e / side, c = e % side;
                        if (c < kb) d[e] = a(o + r, o + c);
                        if (row && c < qb) p[e] = a(o + r, q + c);
                      });
                      acc::loop(g, acc::vector, qb * side, [&](int e) {
                        const int r = e / side, c = e % side;
                        if (!row && c < kb) p[e] = a(q + r, o + c);
                      });
                      acc::loop(g, acc::vector, qb, [&](int l) { solve_perimeter_line(row, l, kb, side, d, p); });
                      acc::loop(g, acc::vector, side * side, [&](int e) {
                        const int r = e / side, c = e % side;
                        if (row && r < kb && c < qb) a(o + r, q + c) = p[e];
                        if (!row && r < qb && c < kb) a(q + r, o + c) = p[e];
                      });
                    });
                  });
    // The internal blocks: A_ij -= L_i U_j, both staged, one gang per block.
    acc::parallel(acc::num_gangs(rest * rest), acc::vector_length(tile), acc::shared_bytes(2 * tile * sizeof(float)),
                  acc::default_present, acc::async(queue), ACC_LAMBDA(const acc::gang_t& g) {
                    const auto l = g.shared<float>(tile);
                    const auto u = g.shared<float>(tile);
                    acc::loop(g, acc::gang, rest * rest, [&](int b) {
                      const int i0 = o + side * (1 + b / rest), j0 = o + side * (1 + b % rest);
                      const int ib = imin(side, n - i0), jb = imin(side, n - j0);
                      acc::loop(g, acc::vector, tile, [&](int e) {
                        const int r = e / side, c = e % side;
                        if (r < ib && c < kb) l[e] = a(i0 + r, o + c);
                        if (r < kb && c < jb) u[e] = a(o + r, j0 + c);
                      });
                      acc::loop(g, acc::vector, tile, [&](int e) {
                        const int r = e / side, c = e % side;
                        if (r < ib && c < jb) {
                          float s = 0;
                          for (int k = 0; k < kb; ++k) s += l[r * side + k] * u[k * side + c];
                          a(i0 + r, j0 + c) -= s;
                        }
                      });
                    });
                  });
  }
  acc::wait(queue);
}

// Factorises the kb x kb block held in team memory t (row pitch P) in place, right-looking,
// one gang: step k updates the trailing elements (i, j > k) with the scaled column k and scales
// column k - 1, which no element of step k reads, so each step is one vector loop (one
// barrier) instead of two. The values and their order are lud_base's.
template <int B, int P>
ACC_ROUTINE void factor_in_team(const acc::gang_t& g, std::span<float> t, int kb) {
  for (int k = 0; k < kb; ++k)
    acc::loop(g, acc::vector, B * B, [&](int e) {
      const int i = e / B, j = e % B;
      if (i >= kb || j >= kb) return;
      if (i > k && j > k) t[i * P + j] -= t[i * P + k] / t[k * P + k] * t[k * P + j];
      else if (j == k - 1 && i >= k) t[i * P + j] /= t[j * P + j];
    });
}

// Blocks of B = 32 with two constructs per block step instead of three: the perimeter, and the
// internal blocks whose gang 0 (block (it + 1, it + 1), the next diagonal block, scheduled in
// the first wave) goes on to factorise its block in team memory. Half as many block steps as
// Rodinia's 16, and 2 constructs per step instead of 3: about a third of the launches. The
// internal gangs have 256 lanes for B * B elements, each lane B * B / 256 rows of one column,
// and stage their output block too, so that its load is not a latency after the product.
template <int B>
void blocked_lookahead(acc::view<float, 2> a, int queue) {
  static_assert(B * B % 256 == 0, "a lane of the internal gangs takes whole rows of its column");
  const int n = int(a.extent(0)), nb = (n + B - 1) / B;
  constexpr int P = B + 1;  // team-memory row pitch: a lane per row or per column, no bank conflicts
  constexpr int tile = B * P;
  constexpr int lanes = 256, rows = B * B / lanes, step = lanes / B;
  // The first diagonal block; every later one is factorised by the step before it.
  const int kb0 = imin(B, n);
  acc::parallel(acc::num_gangs(1), acc::vector_length(lanes), acc::shared_bytes(tile * sizeof(float)),
                acc::default_present, acc::async(queue), ACC_LAMBDA(const acc::gang_t& g) {
                  const auto t = g.shared<float>(tile);
                  acc::loop(g, acc::vector, B * B, [&](int e) {
                    if (e / B < kb0 && e % B < kb0) t[e / B * P + e % B] = a(e / B, e % B);
                  });
                  factor_in_team<B, P>(g, t, kb0);
                  acc::loop(g, acc::vector, B * B, [&](int e) {
                    if (e / B < kb0 && e % B < kb0) a(e / B, e % B) = t[e / B * P + e % B];
                  });
                });
  for (int it = 0; it + 1 < nb; ++it) {
    // A block step with blocks after it: the diagonal block is whole (B x B).
    const int o = it * B, rest = nb - it - 1;
    // The perimeter: gang 2b solves block b to the right (U = L_dd^-1 A, a lane per column),
    // gang 2b + 1 block b below (L = A U_dd^-1, a lane per row).
    acc::parallel(acc::num_gangs(2 * rest), acc::vector_length(B), acc::shared_bytes(2 * tile * sizeof(float)),
                  acc::default_present, acc::async(queue), ACC_LAMBDA(const acc::gang_t& g) {
                    const auto d = g.shared<float>(tile);
                    const auto p = g.shared<float>(tile);
                    acc::loop(g, acc::gang, 2 * rest, [&](int gb) {
                      const bool row = gb % 2 == 0;
                      const int q = o + B * (1 + gb / 2), qb = imin(B, n - q);
                      // Lane l stages column l of both blocks, its loads in flight together
                      // (past a partial block's end they repeat its last row or column, which
                      // is never written back).
                      acc::loop(g, acc::vector, B, [&](int l) {
                        float dv[B], pv[B];
                        for (int r = 0; r < B; ++r) {
                          dv[r] = a(o + r, o + l);
                          pv[r] = row ? a(o + r, q + imin(l, qb - 1)) : a(q + imin(r, qb - 1), o + l);
                        }
                        for (int r = 0; r < B; ++r) d[r * P + l] = dv[r], p[r * P + l] = pv[r];
                      });
                      acc::loop(g, acc::vector, qb, [&](int l) { solve_perimeter_line(row, l, B, P, d, p); });
                      acc::loop(g, acc::vector, B, [&](int l) {
                        float pv[B];
                        for (int r = 0; r < B; ++r) pv[r] = p[r * P + l];
                        for (int r = 0; r < B; ++r) {
                          if (row && r > 0 && l < qb) a(o + r, q + l) = pv[r];  // U's first row is A's
                          if (!row && r < qb) a(q + r, o + l) = pv[r];
                        }
                      });
                    });
                  });
    // The internal blocks: A_ij -= L_i U_j, all three blocks staged; gang 0 then factorises
    // its block, the next diagonal block.
    acc::parallel(acc::num_gangs(rest * rest), acc::vector_length(lanes),
                  acc::shared_bytes(3 * tile * sizeof(float)), acc::default_present, acc::async(queue),
                  ACC_LAMBDA(const acc::gang_t& g) {
                    const auto l = g.shared<float>(tile);
                    const auto u = g.shared<float>(tile);
                    const auto t = g.shared<float>(tile);
                    acc::loop(g, acc::gang, rest * rest, [&](int b) {
                      const int i0 = o + B * (1 + b / rest), j0 = o + B * (1 + b % rest);
                      const int ib = imin(B, n - i0), jb = imin(B, n - j0);
                      acc::loop(g, acc::vector, lanes, [&](int e) {
                        const int c = e % B, r0 = e / B;
                        // Past a partial block's end: its last row or column again, which
                        // only feeds results that are not written.
                        const int cc = imin(c, jb - 1);
                        float lv[rows], uv[rows], tv[rows];
                        for (int q = 0; q < rows; ++q) {
                          const int r = imin(r0 + q * step, ib - 1);
                          lv[q] = a(i0 + r, o + c);
                          uv[q] = a(o + r0 + q * step, j0 + cc);
                          tv[q] = a(i0 + r, j0 + cc);
                        }
                        for (int q = 0; q < rows; ++q) {
                          const int r = r0 + q * step;
                          l[r * P + c] = lv[q], u[r * P + c] = uv[q], t[r * P + c] = tv[q];
                        }
                      });
                      acc::loop(g, acc::vector, lanes, [&](int e) {
                        const int c = e % B, r0 = e / B;
                        float sum[rows] = {};
                        for (int k = 0; k < B; ++k) {
                          const float uk = u[k * P + c];
                          for (int q = 0; q < rows; ++q) sum[q] += l[(r0 + q * step) * P + k] * uk;
                        }
                        for (int q = 0; q < rows; ++q) {
                          const int r = r0 + q * step;
                          if (r >= ib || c >= jb) continue;
                          const float v = t[r * P + c] - sum[q];
                          if (b == 0) t[r * P + c] = v;
                          else a(i0 + r, j0 + c) = v;
                        }
                      });
                      if (b == 0) {
                        factor_in_team<B, P>(g, t, ib);
                        acc::loop(g, acc::vector, B * B, [&](int e) {
                          if (e / B < ib && e % B < ib) a(i0 + e / B, j0 + e % B) = t[e / B * P + e % B];
                        });
                      }
                    });
                  });
  }
  acc::wait(queue);
}

}  // namespace

int main(int argc, char** argv) try {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2048;
  if (n < 1) {
    std::fprintf(stderr, "usage: lud [size >= 1]\n");
    return 2;
  }
  std::printf("lud: %d x %d on %s\n", n, n, acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");
  const std::size_t nn = std::size_t(n) * n;
  std::vector<float> a0(nn);
  rodinia::random rng(3);
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j) row += std::fabs(a0[std::size_t(i) * n + j] = float(2 * rng.uniform() - 1));
    a0[std::size_t(i) * n + i] = float(row + 1);
  }
  // The CPU reference (Rodinia's lud_base: the same operations in the same order as
  // right_looking).
  std::vector<float> ref = a0;
  for (int k = 0; k < n - 1; ++k)
    for (int i = k + 1; i < n; ++i) {
      float* ri = ref.data() + std::size_t(i) * n;
      const float* rk = ref.data() + std::size_t(k) * n;
      ri[k] /= rk[k];
      for (int j = k + 1; j < n; ++j) ri[j] -= ri[k] * rk[j];
    }

  acc::array<float, 2> a("a", n, n);
  acc::data region{acc::create(a)};
  bool ok = true;
  const auto variant = [&](const char* name, auto run) {
    auto reset = [&] {
      std::copy(a0.begin(), a0.end(), a.begin());
      acc::update_device(a);
    };
    rodinia::report(name, rodinia::median_seconds(reset, run));
    acc::update_self(a);
    // L's entries are O(1/n), U's O(1) off the diagonal and O(n) on it: the error relative to
    // each entry's magnitude (plus one) bounds float rounding in every summation order.
    double d = 0;
    for (std::size_t k = 0; k < nn; ++k) d = std::fmax(d, std::fabs(double(a.data()[k]) - ref[k]) / (1 + std::fabs(ref[k])));
    std::printf("  %s: max relative difference from the CPU's %.3g\n", name, d);
    ok &= d <= 1e-4;
  };
  variant("right_looking", [&] { right_looking(a, 1); });
  variant("blocked", [&] { blocked(a, 1); });
  variant("blocked_32", [&] { blocked_lookahead<32>(a, 1); });
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "lud: %s\n", e.what());
  return 1;
}
