// expect: (deleted function.*gang_t::gang_t\(const acc::gang_t|gang_t::gang_t\(const acc::gang_t ?&\).*deleted function)
#include <acc/parallel.hpp>

// A routine that takes the gang by value: its g.shared and loops would count apart from the
// gang's (the caller's next g.shared would return the same team memory). gang_t is not copyable.
ACC_ROUTINE void clear_row(acc::gang_t g, acc::array<float> y, int n) {
  acc::loop(g, acc::vector, n, [&](int i) { y[i] = 0; });
}

void f(acc::array<float> y, int n) {
  acc::parallel(ACC_LAMBDA(const acc::gang_t& g) { clear_row(g, y, n); });
}
