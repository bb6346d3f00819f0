//! @file Rodinia pathfinder (dynamic programming: the cheapest path from the top row of a grid of
//! weights to each cell of the bottom row, moving down, down-left or down-right) for acc: the
//! CPU reference, the untiled acc version (one parallel_loop per row) and the tiled acc version
//! (Rodinia's pyramid: one tile_loop per `height` rows, each tile fetching its costs with a halo
//! of `height` on each side and computing the rows in shared memory through two channel
//! buffers). Shared by examples/pathfinder and bench/tiles.cu; the hand-written CUDA kernel of
//! the same algorithm is in pathfinder_cuda.cuh.
#pragma once

#include <acc/parallel.hpp>
#include <acc/tile.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pathfinder {

/// Iterations per tile, as Rodinia's BLOCK_SIZE (pathfinder.cu).
inline constexpr int tile = 256;

ACC_ROUTINE inline int min_of(int a, int b) { return a < b ? a : b; }

/// Rodinia's weights: rand() % 10 (pathfinder.cu init); here from a fixed splitmix64 sequence,
/// so that every run and platform sees the same grid.
ACC_ROUTINE inline int weight(std::uint64_t k) {
  std::uint64_t z = (k + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return int((z ^ (z >> 31)) % 10);
}

/// The CPU reference (Rodinia's run()): result[c] = wall[0][c], then for every later row
/// dst[c] = wall[t][c] + min(src[c - 1], src[c], src[c + 1]) over the neighbours that exist.
inline std::vector<int> reference(const std::vector<int>& wall, int rows, int cols) {
  std::vector<int> src(wall.begin(), wall.begin() + cols), dst(cols);
  for (int t = 1; t < rows; ++t) {
    for (int c = 0; c < cols; ++c) {
      int m = src[c];
      if (c > 0) m = min_of(m, src[c - 1]);
      if (c < cols - 1) m = min_of(m, src[c + 1]);
      dst[c] = wall[std::size_t(t) * cols + c] + m;
    }
    src.swap(dst);
  }
  return src;
}

/// src = row 0 of the wall: where every version starts.
inline void first_row(acc::view<const int, 2> wall, acc::view<int> src, int queue) {
  acc::parallel_loop(int(src.extent(0)), acc::default_present, acc::async(queue),
                     ACC_LAMBDA(int c) { src(c) = wall(0, c); });
}

// One row, untiled. OpenACC:
//   #pragma acc parallel loop present(wall, src, dst)
//   for c: dst[c] = wall[row][c] + min(src[c-1], src[c], src[c+1])
inline void row_untiled(acc::view<const int, 2> wall, acc::view<const int> src, acc::view<int> dst, int row,
                        int queue) {
  const int cols = int(src.extent(0));
  acc::parallel_loop(cols, acc::default_present, acc::async(queue), ACC_LAMBDA(int c) {
    int m = src(c);
    if (c > 0) m = min_of(m, src(c - 1));
    if (c < cols - 1) m = min_of(m, src(c + 1));
    dst(c) = wall(row, c) + m;
  });
}

// `height` rows starting at wall row `row0`, tiled (Rodinia's pyramid). Each tile of 256 columns
// fetches src with a halo of `height` columns on each side into channel buffer a; row s (1 ..
// height) is computed from one buffer into the other for the tile's columns widened by
// height - s on each side (the columns the next rows still need), and the last row goes to dst.
// The tile's iterations take the widened columns: the first 2 (height - s) iterations one more
// each. OpenACC + fcw:
//   fcw(fetch channel: src[c-h:c+h]) fcw(channel: buffer[c-h:c+h])
inline void pyramid_tiled(acc::view<const int, 2> wall, acc::view<int> src, acc::view<int> dst, int row0,
                          int height, int queue) {
  const int cols = int(src.extent(0));
  acc::tile_loop(cols, acc::tile_size(tile), acc::cached(src, acc::fetch | acc::channel, acc::halo(height, height)),
                 acc::cached(src, acc::channel, acc::halo(height, height)), acc::default_present, acc::async(queue),
                 ACC_LAMBDA(const acc::tile_t<1>& t, const acc::cached_view<int, 1>& a,
                            const acc::cached_view<int, 1>& b) {
                   const int lo = t.origin(0), count = t.count(0), hi = lo + count;
                   // Row s reads one buffer and writes the other; a generic lambda takes them in
                   // either order (a reference chosen at run time would put both views in memory).
                   auto row_step = [&](const auto& in, const auto& out, int s) {
                     const int row = row0 + s - 1, widen = height - s;
                     acc::tile_for(t, [&](int c) {
                       auto cost = [&](int x) {
                         int m = in(x);
                         if (x > 0) m = min_of(m, in(x - 1));
                         if (x < cols - 1) m = min_of(m, in(x + 1));
                         return wall(row, x) + m;
                       };
                       if (widen == 0) {
                         dst(c) = cost(c);
                         return;
                       }
                       out(c) = cost(c);
                       for (int k = c - lo; k < 2 * widen; k += count) {
                         const int x = k < widen ? lo - widen + k : hi + (k - widen);
                         if (x >= 0 && x < cols) out(x) = cost(x);
                       }
                     });
                   };
                   for (int s = 1; s <= height; ++s) {
                     if (s & 1) row_step(a, b, s);
                     else row_step(b, a, s);
                   }
                 });
}

/// Every row, untiled; src holds the result after (src and dst swap handles per row). wall,
/// src and dst must be present. Queued on `queue`, waited for at the end.
inline void untiled(const acc::array<int, 2>& wall, acc::array<int>& src, acc::array<int>& dst, int queue = 1) {
  const int rows = int(wall.extent(0));
  first_row(wall, src, queue);
  for (int t = 1; t < rows; ++t) {
    row_untiled(wall, src, dst, t, queue);
    swap(src, dst);
  }
  acc::wait(queue);
}

/// Every row, tiled, `height` rows per construct (the halo each side); as untiled().
inline void tiled(const acc::array<int, 2>& wall, acc::array<int>& src, acc::array<int>& dst, int height,
                  int queue = 1) {
  const int rows = int(wall.extent(0));
  first_row(wall, src, queue);
  for (int t = 1; t < rows; t += height) {
    pyramid_tiled(wall, src, dst, t, rows - t < height ? rows - t : height, queue);
    swap(src, dst);
  }
  acc::wait(queue);
}

}  // namespace pathfinder
