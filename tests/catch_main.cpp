// The one Catch2 main of every test executable. Cases tagged [gpu] check what only a GPU does
// (device limits, device memory); cases tagged [host] what only the host does (errors a GPU
// kernel traps on instead of throwing). The main adds the filter that leaves out the other
// kind, so that neither is run to return early and pass with nothing checked; every case must
// then assert something (ctest runs with -w NoAssertions).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <string>

namespace acc_test {
bool constructs_run_on_gpu();  // tests/support/device_filter.cpp, compiled per backend
}

namespace {

// A test spec is a list of filters separated by commas (OR); the patterns within a filter are
// ANDed. The exclusion goes in front of every filter, so that "[01],[02]" leaves out the other
// kind's cases from both. Commas inside quoted names or after a backslash separate nothing.
std::string exclude_in_every_filter(const std::string& spec, const std::string& exclusion) {
  std::string out, filter;
  bool quoted = false, escaped = false;
  auto end_filter = [&] {
    if (filter.find_first_not_of(' ') != std::string::npos) out += exclusion;
    out += filter;
    filter.clear();
  };
  for (char c : spec) {
    if (escaped) {
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      end_filter();
      out += c;
      continue;
    }
    filter += c;
  }
  end_filter();
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Catch::Session session;
  if (const int status = session.applyCommandLine(argc, argv)) return status;
  const std::string exclusion = acc_test::constructs_run_on_gpu() ? "~[host]" : "~[gpu]";
  auto& specs = session.configData().testsOrTags;
  // Catch2 continues one filter across separate arguments (they AND) and a comma starts the
  // next, so each argument's filters get the exclusion, the one the previous argument left
  // open included.
  for (auto& s : specs) s = exclude_in_every_filter(s, exclusion);
  if (specs.empty()) specs.push_back(exclusion);
  return session.run();
}
