// expect: acc::parallel_loop: acc::shared_bytes \(gang-shared memory is acc::parallel's\) is not a clause of this construct; it accepts num_gangs, num_workers, vector_length, async, if_, device_num, default_present, reduction
#include <acc/parallel.hpp>

void f(double* out) {
  acc::parallel_loop(16, acc::shared_bytes(1024), ACC_LAMBDA(int i) { out[i] = 0; });
}
