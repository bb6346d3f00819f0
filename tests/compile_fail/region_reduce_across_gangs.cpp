// expect: acc::loop_reduce: the level must be acc::worker, vector, worker_vector or seq; reduce across gangs with acc::parallel_reduce
#include <acc/parallel.hpp>

void f(const double* x, double* out) {
  acc::parallel(ACC_LAMBDA(const acc::gang_t& g) {
    const double s = acc::loop_reduce(g, acc::gang, 100, acc::plus, [&](int i) { return x[i]; });
    acc::single(g, acc::per_gang, [&] { out[0] = s; });
  });
}
