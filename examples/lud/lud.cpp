// Rodinia 3.1 lud (LU decomposition without pivoting, in place: L below the diagonal with a
// unit diagonal, U on and above it) with acc. Variant "right_looking": per column k one
// parallel_loop scales the column below the pivot and one collapsed parallel_loop updates the
// trailing matrix, all queued (the operations and their order of Rodinia's lud_base, so on the
// host the result equals the CPU's bit for bit). Variant "blocked": Rodinia CUDA's three
// kernels per 16-wide block step, with team memory (acc::parallel, g.shared): the diagonal
// block factorised by one gang, the perimeter blocks (U to its right, L below it) solved by one
// gang each, and the internal blocks updated by one gang each from the staged L and U blocks.
// Both are compared with a CPU run.
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
#include <vector>

namespace {

constexpr int side = 16;  // Rodinia's BLOCK_SIZE

// The smaller of two ints, in host and device code alike.
ACC_ROUTINE constexpr int imin(int a, int b) { return a < b ? a : b; }

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
                      acc::loop(g, acc::vector, qb, [&](int l) {
                        if (row) {
                          for (int r = 1; r < kb; ++r) {
                            float s = p[r * side + l];
                            for (int k = 0; k < r; ++k) s -= d[r * side + k] * p[k * side + l];
                            p[r * side + l] = s;
                          }
                        } else {
                          for (int c = 0; c < kb; ++c) {
                            float s = p[l * side + c];
                            for (int k = 0; k < c; ++k) s -= p[l * side + k] * d[k * side + c];
                            p[l * side + c] = s / d[c * side + c];
                          }
                        }
                      });
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
  for (const bool tiled : {false, true}) {
    auto reset = [&] {
      std::copy(a0.begin(), a0.end(), a.begin());
      acc::update_device(a);
    };
    auto run = [&] { tiled ? blocked(a, 1) : right_looking(a, 1); };
    rodinia::report(tiled ? "blocked" : "right_looking", rodinia::median_seconds(reset, run));
    acc::update_self(a);
    // L's entries are O(1/n), U's O(1) off the diagonal and O(n) on it: the error relative to
    // each entry's magnitude (plus one) bounds float rounding in every summation order.
    double d = 0;
    for (std::size_t k = 0; k < nn; ++k) d = std::fmax(d, std::fabs(double(a.data()[k]) - ref[k]) / (1 + std::fabs(ref[k])));
    std::printf("  %s: max relative difference from the CPU's %.3g\n", tiled ? "blocked" : "right_looking", d);
    ok &= d <= 1e-4;
  }
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "lud: %s\n", e.what());
  return 1;
}
