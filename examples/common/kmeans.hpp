// Rodinia 3.1 kmeans's nearest-centre search, shared by examples/kmeans and bench_tuned (which
// times the membership step).
#pragma once

#include <acc/parallel.hpp>

#include <cfloat>

namespace rodinia_kmeans {

// The centre nearest to point p: p(j) and centre(c, j) read the point and the centres. The same
// operations in the same order everywhere (float, as Rodinia); the first of equal distances wins.
template <class Point, class Centre>
ACC_ROUTINE inline int nearest(const Point& p, const Centre& centre, int nc, int nf) {
  int best = 0;
  float best_d = FLT_MAX;
  for (int c = 0; c < nc; ++c) {
    float s = 0.0f;
    for (int j = 0; j < nf; ++j) {
      const float d = p(j) - centre(c, j);
      s += d * d;
    }
    if (s < best_d) {
      best_d = s;
      best = c;
    }
  }
  return best;
}

}  // namespace rodinia_kmeans
