// Rodinia 3.1 particlefilter's resampling search, shared by examples/particlefilter and
// bench_tuned (which times the resampling loop).
#pragma once

#include <acc/parallel.hpp>

namespace rodinia_particlefilter {

// Rodinia's findIndex: the first CDF entry >= u, else the last. A linear search, as Rodinia's
// OpenMP and CUDA versions: each particle reads on average half the CDF.
template <class Cdf>
ACC_ROUTINE inline int find_index(const Cdf& cdf, int n, double u) {
  for (int x = 0; x < n; ++x)
    if (cdf(x) >= u) return x;
  return n - 1;
}

}  // namespace rodinia_particlefilter
