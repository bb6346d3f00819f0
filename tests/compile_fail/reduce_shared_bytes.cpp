// expect: acc::parallel_reduce: acc::shared_bytes \(gang-shared memory is acc::parallel's\) is not a clause of this construct; it accepts num_gangs, num_workers, vector_length, async, if_, device_num, default_present
#include <acc/parallel.hpp>

double f(const double* x) {
  return acc::parallel_reduce(16, acc::shared_bytes(1024), acc::plus, ACC_LAMBDA(int i) { return x[i]; });
}
