//! @file All-pairs N-body accelerations (softened gravity, G = 1) for acc: the CPU reference, the
//! untiled acc version (one thread per body, every other body read from global memory) and the
//! tiled acc version (tiles of 256 bodies; the positions are staged 256 at a time with
//! acc::cache of a constant range, pos[jt .. jt + 256), shared by the whole tile). Shared by
//! examples/nbody and bench/tiles.cu; the hand-written CUDA kernel of the same algorithm
//! (GPU Gems 3, ch. 31's tiling) is in nbody_cuda.cuh.
#pragma once

#include <acc/parallel.hpp>
#include <acc/tile.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

// `#pragma unroll 4` for nvcc (g++ would warn about an unknown pragma).
#if defined(__CUDACC__)
#  define NBODY_UNROLL _Pragma("unroll 4")
#else
#  define NBODY_UNROLL
#endif

namespace nbody {

/// Iterations (bodies) per tile, and bodies staged per acc::cache.
inline constexpr int tile = 256;

/// Position and mass; 16 bytes, so that a GPU loads a body with one instruction.
struct alignas(16) body {
  float x, y, z, m;
};
struct vec3 {
  float x, y, z;
};

/// a += the acceleration of `me` due to `other`, softened by eps2 (so that other == me adds 0).
ACC_ROUTINE inline void interact(vec3& a, const body& me, const body& other, float eps2) {
  const float dx = other.x - me.x, dy = other.y - me.y, dz = other.z - me.z;
  const float d2 = dx * dx + dy * dy + dz * dz + eps2;
#if defined(__CUDA_ARCH__)
  const float inv = 1.0f / sqrtf(d2);
#else
  const float inv = 1.0f / std::sqrt(d2);
#endif
  const float s = other.m * inv * inv * inv;
  a.x += dx * s;
  a.y += dy * s;
  a.z += dz * s;
}

/// A Plummer-like ball: positions in the unit ball, masses 0.5 .. 1.5 (/ n).
inline void make_bodies(body* p, int n) {
  std::uint64_t x = 0x2545f4914f6cdd1dull;
  auto uniform = [&x] {  // splitmix64 -> [0, 1)
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  };
  for (int i = 0; i < n; ++i) {
    double px, py, pz;
    do {
      px = 2 * uniform() - 1, py = 2 * uniform() - 1, pz = 2 * uniform() - 1;
    } while (px * px + py * py + pz * pz > 1.0);
    p[i] = {float(px), float(py), float(pz), float((0.5 + uniform()) / n)};
  }
}

/// The CPU reference, in double: accelerations, and per body the sum of |terms| (the scale
/// that bounds the float versions' rounding).
inline void reference(const body* p, int n, float eps2, std::vector<double>& acc3, std::vector<double>& scale) {
  acc3.assign(3 * std::size_t(n), 0.0);
  scale.assign(std::size_t(n), 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double dx = double(p[j].x) - p[i].x, dy = double(p[j].y) - p[i].y, dz = double(p[j].z) - p[i].z;
      const double d2 = dx * dx + dy * dy + dz * dz + eps2;
      const double s = p[j].m / (d2 * std::sqrt(d2));
      acc3[3 * std::size_t(i)] += dx * s;
      acc3[3 * std::size_t(i) + 1] += dy * s;
      acc3[3 * std::size_t(i) + 2] += dz * s;
      scale[i] += std::sqrt(dx * dx + dy * dy + dz * dz) * s;
    }
}

// Untiled. OpenACC:
//   #pragma acc parallel loop present(pos, acc)
//   for i: { a = 0; for (j = 0; j < n; ++j) a += force(pos[i], pos[j]); acc[i] = a; }
inline void untiled(acc::view<const body> pos, acc::view<vec3> out, float eps2, int queue = 1) {
  const int n = int(pos.extent(0));
  acc::parallel_loop(n, acc::vector_length(tile), acc::default_present, acc::async(queue), ACC_LAMBDA(int i) {
    const body me = pos(i);
    vec3 a{0.0f, 0.0f, 0.0f};
    NBODY_UNROLL
    for (int j = 0; j < n; ++j) interact(a, me, pos(j), eps2);
    out(i) = a;
  });
  acc::wait(queue);
}

// Tiled: tiles of 256 bodies; for each block of 256 others, acc::cache stages pos[jt, jt + 256)
// (clipped at n) in shared memory and every iteration adds their forces from there, in the same
// order as untiled(). OpenACC: `#pragma acc cache(pos[jt:256])` in the jt loop.
inline void tiled(acc::view<const body> pos, acc::view<vec3> out, float eps2, int queue = 1) {
  const int n = int(pos.extent(0));
  acc::tile_loop(n, acc::tile_size(tile), acc::cache_bytes(tile * sizeof(body)), acc::default_present,
                 acc::async(queue), ACC_LAMBDA(const acc::tile_t<1>& t) {
                   acc::per_iteration<vec3> a(t, vec3{0.0f, 0.0f, 0.0f});
                   acc::per_iteration<body> me(t);
                   acc::tile_for(t, [&](int i) { me(i) = pos(i); });
                   for (int jt = 0; jt < n; jt += tile) {
                     const auto p = acc::cache(t, pos, acc::fixed(jt, tile));
                     const int jn = n - jt < tile ? n - jt : tile;
                     acc::tile_for(t, [&](int i) {
                       vec3 s = a(i);
                       const body m = me(i);
                       NBODY_UNROLL
                       for (int j = jt; j < jt + jn; ++j) interact(s, m, p(j), eps2);
                       a(i) = s;
                     });
                   }
                   acc::tile_for(t, [&](int i) { out(i) = a(i); });
                 });
  acc::wait(queue);
}

}  // namespace nbody
