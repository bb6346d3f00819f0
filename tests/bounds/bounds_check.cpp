// ACC_BOUNDS_CHECK builds (the whole program must be built with it, like NDEBUG): an index
// outside its array is reported with the array's label, the index and the extent.
//   bounds_check host     index on the host: acc::error, printed; exits 0 if it was thrown
//   bounds_check device   index inside a kernel: the GPU prints the report and traps, which
//                         the construct turns into acc::device_error (prints "no GPU" without one)
#include <acc/parallel.hpp>

#include <cstdio>
#include <cstring>
#include <exception>

namespace {
void write_outside(acc::array<double, 2> t) {
  acc::parallel_loop(1, ACC_LAMBDA(int) { t(1, 7) = 1.0; });
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  acc::array<double, 2> t("temperature", 4, 5);
  if (std::strcmp(argv[1], "host") == 0) {
    try {
      t(1, 2) = 3.0;  // inside: no error
      (void)t(4, 0);
    } catch (const acc::error& e) {
      std::printf("caught: %s\n", e.what());
      return 0;
    }
    std::printf("no error for t(4, 0)\n");
    return 1;
  }
  if (acc::get_device_type() != acc::device_type::nvidia) {
    std::printf("no GPU: the device report is not exercised\n");
    return 0;
  }
  try {
    write_outside(t);
  } catch (const std::exception& e) {
    std::printf("caught: %s\n", e.what());
    return 0;
  }
  std::printf("no error for t(1, 7) in a kernel\n");
  return 1;
}
