// Rodinia 3.1 nw (Needleman-Wunsch global alignment of two random sequences: the score matrix)
// with acc. Cell (i, j) needs (i-1, j-1), (i, j-1) and (i-1, j), so cells of one anti-diagonal
// are independent. Variant "diagonal": one parallel_loop per anti-diagonal of cells, queued
// (2n - 1 constructs, one wait). Variant "blocked": Rodinia CUDA's needle_cuda_shared_1/2, one
// acc::parallel per anti-diagonal of 16 x 16 blocks; each gang stages its block's scores (with
// the row above and the column to the left) and substitution scores in team memory (g.shared),
// sweeps the block's 31 anti-diagonals with a vector lane per row, and writes the block back.
// Variants "blocked_32", "blocked_64" and "blocked_128": the same with 32 x 32 blocks and one warp
// (half the launches), 64 x 64 blocks and 64 lanes (a quarter) and 128 x 128 blocks and 128 lanes
// (an eighth; 131 KB of team memory).
// All are compared exactly with a CPU run.
//
//   nw [length = 2048] [penalty = 10]   (Rodinia: needle 2048 10)
#include <acc/parallel.hpp>

#include "../common/rodinia.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

namespace {

// BLOSUM62 (Henikoff & Henikoff 1992), its first 11 rows and columns (A R N D C Q E G H I L):
// Rodinia's sequences draw residues 1-10 only (rand() % 10 + 1 in needle.cpp).
constexpr int blosum62[11][11] = {
    {4, -1, -2, -2, 0, -1, -1, 0, -2, -1, -1},   {-1, 5, 0, -2, -3, 1, 0, -2, 0, -3, -2},
    {-2, 0, 6, 1, -3, 0, 0, 0, 1, -3, -3},       {-2, -2, 1, 6, -3, 0, 2, -1, -1, -3, -4},
    {0, -3, -3, -3, 9, -3, -4, -3, -3, -1, -1},  {-1, 1, 0, 0, -3, 5, 2, -2, 0, -3, -2},
    {-1, 0, 0, 2, -4, 2, 5, -2, 0, -3, -3},      {0, -2, 0, -1, -3, -2, -2, 6, -2, -4, -4},
    {-2, 0, 1, -1, -3, 0, 0, -2, 8, -3, -3},     {-1, -3, -3, -3, -1, -3, -3, -4, -3, 4, 2},
    {-1, -2, -3, -4, -1, -2, -3, -4, -3, 2, 4}};

ACC_ROUTINE inline int best(int diagonal, int left, int up, int penalty) {
  const int gap = left > up ? left : up;
  return diagonal > gap - penalty ? diagonal : gap - penalty;
}

// The smaller of two ints, in host and device code alike.
ACC_ROUTINE constexpr int imin(int a, int b) { return a < b ? a : b; }

// OpenACC: for (d = 2; d <= 2n; ++d) { #pragma acc parallel loop async(1) ... for i on diagonal d }
void diagonal(acc::view<int, 2> score, acc::view<const int, 2> sub, int penalty, int queue) {
  const int n = int(score.extent(0)) - 1;
  for (int d = 2; d <= 2 * n; ++d) {
    const int lo = std::max(1, d - n), hi = std::min(n, d - 1);
    acc::parallel_loop(acc::range(lo, hi + 1), acc::default_present, acc::async(queue), ACC_LAMBDA(int i) {
      const int j = d - i;
      score(i, j) = best(score(i - 1, j - 1) + sub(i, j), score(i, j - 1), score(i - 1, j), penalty);
    });
  }
  acc::wait(queue);
}

// Blocks (bi, bj) of cells rows 1 + B bi ..., columns 1 + B bj ... (clipped at n), one
// anti-diagonal of blocks per construct, one gang per block, B vector lanes per gang. A gang
// stages its block's B + 1 columns (each with the row above) and substitution scores in team
// memory, sweeps the block's 2B - 1 anti-diagonals with a lane per row, and writes the block
// back. Staging goes through registers, `chunk` rows at a time, so that each lane has that many
// global loads in flight at once instead of one load latency per element.
//
// The critical path is about 4n sweep steps whatever B is (2n / B constructs of 2B - 1 steps),
// so B sets how many constructs there are: Rodinia's 16 makes 2n / 16 - 1 launches of a short
// kernel, each paying a launch; 64 makes a quarter as many, each with a longer sweep, and 128
// an eighth, with at most n / 128 gangs per construct.
template <int B>
void blocked(acc::view<int, 2> score, acc::view<const int, 2> sub, int penalty, int queue) {
  const int n = int(score.extent(0)) - 1, nb = (n + B - 1) / B;
  constexpr int w = B + 1;  // the staged block with its top row and left column
  // Team-memory row pitch: even, so the lanes of one anti-diagonal (row i, column d - i: word
  // i * (p - 1) + d) fall in distinct banks.
  constexpr int p = B + 2;
  constexpr int chunk = B == 16 ? 17 : 33;  // rows staged per round: 16, 32: one round; 64: two; 128: four
  constexpr int lanes = B < 32 ? 32 : B;
  for (int bd = 0; bd < 2 * nb - 1; ++bd) {
    const int lo = std::max(0, bd - nb + 1), blocks = std::min(bd, nb - 1) - lo + 1;
    acc::parallel(acc::num_gangs(blocks), acc::vector_length(lanes),
                  acc::shared_bytes((w * p + B * p) * sizeof(int)), acc::default_present, acc::async(queue),
                  ACC_LAMBDA(const acc::gang_t& g) {
                    const auto s = g.shared<int>(w * p);
                    const auto r = g.shared<int>(B * p);  // r[i * p + j]: sub of cell (i, j - 1)
                    acc::loop(g, acc::gang, blocks, [&](int b) {
                      const int bi = lo + b, bj = bd - bi;
                      const int i0 = bi * B, j0 = bj * B;  // score row/column of the staged corner
                      const int ni = imin(B, n - i0), nj = imin(B, n - j0);
                      // Lane l stages column l + 1 (its B + 1 scores and B substitution
                      // scores) and row l of the left column (lane 0 also its row B), so no lane
                      // takes two columns. Rows and columns past the block's end load its last
                      // one again (never read back), so that no load waits behind a branch.
                      acc::loop(g, acc::vector, B, [&](int l) {
                        const int j = imin(l + 1, nj);
                        const int left = score(i0 + imin(l, ni), j0), corner = score(i0 + imin(B, ni), j0);
                        for (int c = 0; c < w; c += chunk) {
                          int sv[chunk], rv[chunk];
                          for (int k = 0; k < chunk; ++k) {
                            const int i = c + k;
                            sv[k] = score(i0 + imin(i, ni), j0 + j);
                            rv[k] = sub(i0 + 1 + imin(i, ni - 1), j0 + j);
                          }
                          for (int k = 0; k < chunk; ++k) {
                            const int i = c + k;
                            if (i < w) s[i * p + l + 1] = sv[k];
                            if (i < B) r[i * p + l + 1] = rv[k];
                          }
                        }
                        s[l * p] = left;
                        if (l == 0) s[B * p] = corner;
                      });
                      for (int d = 0; d < ni + nj - 1; ++d)
                        acc::loop(g, acc::vector, ni, [&](int i) {
                          const int j = d - i;
                          if (j >= 0 && j < nj) {
                            const int k = (i + 1) * p + j + 1;
                            s[k] = best(s[k - p - 1] + r[i * p + j + 1], s[k - 1], s[k - p], penalty);
                          }
                        });
                      acc::loop(g, acc::vector, nj, [&](int j) {
                        for (int c = 0; c < B; c += 16) {
                          int sv[16];
                          for (int k = 0; k < 16; ++k) sv[k] = s[(c + k + 1) * p + j + 1];
                          for (int k = 0; k < 16; ++k)
                            if (c + k < ni) score(i0 + 1 + c + k, j0 + 1 + j) = sv[k];
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
  const int penalty = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n < 1) {
    std::fprintf(stderr, "usage: nw [length >= 1] [penalty]\n");
    return 2;
  }
  std::printf("nw: %d x %d, penalty %d, on %s\n", n, n, penalty,
              acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host");
  const int rows = n + 1;
  std::vector<int> seq1(rows), seq2(rows);
  rodinia::random rng(7);
  for (int i = 1; i < rows; ++i) seq1[i] = 1 + int(rng.below(10));
  for (int j = 1; j < rows; ++j) seq2[j] = 1 + int(rng.below(10));
  acc::array<int, 2> sub("reference", rows, rows), score("score", rows, rows);
  std::vector<int> init(std::size_t(rows) * rows, 0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < rows; ++j) {
      sub(i, j) = i && j ? blosum62[seq1[i]][seq2[j]] : 0;
      if (i == 0) init[j] = -j * penalty;
      if (j == 0) init[std::size_t(i) * rows] = -i * penalty;
    }
  // The CPU reference.
  std::vector<int> ref = init;
  for (int i = 1; i < rows; ++i)
    for (int j = 1; j < rows; ++j) {
      const std::size_t k = std::size_t(i) * rows + j;
      ref[k] = best(ref[k - rows - 1] + sub(i, j), ref[k - 1], ref[k - rows], penalty);
    }

  bool ok = true;
  acc::data region{acc::copyin(sub), acc::create(score)};
  const auto variant = [&](const char* name, auto run) {
    auto reset = [&] {
      std::copy(init.begin(), init.end(), score.begin());
      acc::update_device(score);
    };
    rodinia::report(name, rodinia::median_seconds(reset, run));
    acc::update_self(score);
    long bad = 0;
    for (std::size_t k = 0; k < ref.size(); ++k) bad += score.data()[k] != ref[k];
    if (bad) {
      std::printf("nw: %s: %ld scores differ from the CPU's\n", name, bad);
      ok = false;
    }
  };
  variant("diagonal", [&] { diagonal(score, sub, penalty, 1); });
  variant("blocked", [&] { blocked<16>(score, sub, penalty, 1); });  // Rodinia's BLOCK_SIZE
  variant("blocked_32", [&] { blocked<32>(score, sub, penalty, 1); });
  variant("blocked_64", [&] { blocked<64>(score, sub, penalty, 1); });
  variant("blocked_128", [&] { blocked<128>(score, sub, penalty, 1); });
  std::printf("  score of the alignment: %d\n", ref.back());
  return rodinia::verdict(ok);
} catch (const std::exception& e) {
  std::fprintf(stderr, "nw: %s\n", e.what());
  return 1;
}
