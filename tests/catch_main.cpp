// The one Catch2 main of every test executable. Cases tagged [gpu] check what only a GPU does
// (device limits, device memory); cases tagged [host] what only the host does (errors a GPU
// kernel traps on instead of throwing). The main adds the filter that leaves out the other
// kind, so that neither is run to return early and pass with nothing checked; every case must
// then assert something (ctest runs with -w NoAssertions).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <vector>

namespace acc_test {
bool constructs_run_on_gpu();  // tests/support/device_filter.cpp, compiled per backend
}

int main(int argc, char** argv) {
  std::vector<char*> args(argv, argv + argc);
  // Catch2 ANDs separate test-spec arguments, so this narrows whatever the command line chose.
  static char gpu_only[] = "~[gpu]", host_only[] = "~[host]";
  args.push_back(acc_test::constructs_run_on_gpu() ? host_only : gpu_only);
  return Catch::Session().run(static_cast<int>(args.size()), args.data());
}
