// A user's program: a collapsed loop and a reduction over acc::array, on whatever device this
// build and machine offer. Built by g++ (OpenMP and serial) and nvcc against the package.
#include <acc/parallel.hpp>

#include <cstdio>

// An array entered with enter_data by another translation unit (second_unit.cpp in the
// header-only build), else by this one.
const int* entered_elsewhere();
#if !defined(ACC_CONSUMER_TWO_UNITS)
const int* entered_elsewhere() {
  static acc::array<int> a("elsewhere", 100);
  acc::enter_data(acc::copyin(a));
  return a.data();
}
#endif

int main() {
  const int ni = 37, nj = 101;
  acc::array<long long, 2> a("a", ni, nj);
  acc::parallel_loop(acc::collapse(ni, nj), ACC_LAMBDA(int i, int j) { a(i, j) = 3LL * (i * nj + j) + 1; });
  const long long sum =
      acc::parallel_reduce(acc::collapse(ni, nj), acc::plus, ACC_LAMBDA(int i, int j) { return a(i, j); });
  long long expect = 0, host = 0;
  for (int k = 0; k < ni * nj; ++k) expect += 3LL * k + 1;
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) host += a(i, j);
  std::printf("consumer: %s, sum %lld and %lld (expected %lld)\n",
              acc::get_device_type() == acc::device_type::nvidia ? "nvidia" : "host", sum, host, expect);
  const bool shared = acc::is_present(entered_elsewhere(), 100);
  return sum == expect && host == expect && shared ? 0 : 1;
}
