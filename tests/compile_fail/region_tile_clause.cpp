// expect: acc::parallel: acc::tile_size is not a clause of this construct; it accepts num_gangs, num_workers, vector_length, shared_bytes
#include <acc/parallel.hpp>

void f(double* out) {
  acc::parallel(acc::tile_size(16), ACC_LAMBDA(const acc::gang_t&) { out[0] = 1; });
}
