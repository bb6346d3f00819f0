// expect: acc::parallel_reduce: the body's index parameter cannot hold every index.*acc: the body takes its index as int but the extent's index type is unsigned long
#include <acc/parallel.hpp>

double f(acc::array<double> x) {
  return acc::parallel_reduce(x.size(), acc::plus, ACC_LAMBDA(int i) { return x[i]; });
}
