// expect: acc::reduction: acc::minimum, maximum, min_loc and max_loc start from the type's extreme value.*std::numeric_limits is not specialized
#include <acc/parallel.hpp>

#include <chrono>

void f(const long* t, int n, std::chrono::nanoseconds& latest) {
  acc::parallel_loop(n, acc::reduction(acc::maximum, latest), ACC_LAMBDA(int i, std::chrono::nanoseconds& m) {
    if (m < std::chrono::nanoseconds(t[i])) m = std::chrono::nanoseconds(t[i]);
  });
}
