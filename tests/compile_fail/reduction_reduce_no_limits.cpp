// expect: acc::parallel_reduce: acc::minimum, maximum, min_loc and max_loc start from the type's extreme value.*std::numeric_limits is not specialized.*give the initial value
#include <acc/parallel.hpp>

#include <chrono>

// std::numeric_limits<nanoseconds>::max() would be nanoseconds{}, a minimum of 0.
std::chrono::nanoseconds f(const long* t, int n) {
  return acc::parallel_reduce(n, acc::minimum, ACC_LAMBDA(int i) { return std::chrono::nanoseconds(t[i]); });
}
