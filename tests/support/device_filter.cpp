// Compiled into each test executable for its own backend: tells the shared Catch2 main where
// this executable's constructs run, so that it can select the [gpu] or the [host] cases.
#include <acc/runtime.hpp>

namespace acc_test {

bool constructs_run_on_gpu() {
#if defined(__CUDACC__)
  return acc::get_device_type() == acc::device_type::nvidia;
#else
  return false;  // a translation unit not compiled by nvcc runs every construct on the host
#endif
}

}  // namespace acc_test
