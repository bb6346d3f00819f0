// expect: acc::parallel_scan: the body's index parameter cannot hold every index.*acc: the body takes its index as int but the extent's index type is long long
#include <acc/parallel.hpp>

void f(acc::array<long> out, long long n) {
  acc::parallel_scan(n, ACC_LAMBDA(int i, long& partial, bool final) { if (final) out[i] = partial; partial += 1; });
}
