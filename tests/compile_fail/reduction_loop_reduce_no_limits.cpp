// expect: acc::loop_reduce: acc::minimum, maximum, min_loc and max_loc start from the type's extreme value.*std::numeric_limits is not specialized
#include <acc/parallel.hpp>

#include <chrono>

void f(const long* t, int n) {
  acc::parallel(acc::num_gangs(2), ACC_LAMBDA(const acc::gang_t& g) {
    const auto m = acc::loop_reduce(g, acc::vector, n, acc::minimum, [&](int j) { return std::chrono::nanoseconds(t[j]); });
    (void)m;
  });
}
