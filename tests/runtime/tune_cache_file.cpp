// The acc::tuned cache file (ACC_TUNE_CACHE) as the runtime reads and writes it: paths that are
// not files, two processes writing one file, and fields that are not what format_tune_cache
// writes. Header-only, as present_threads.cpp, so that the runtime's file functions are visible;
// no GPU needed (the file code runs only after a search on a GPU, which would take minutes here).
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace acc::detail;

/// A fresh directory for one test case, removed at its end.
struct scratch_dir {
  fs::path path;
  scratch_dir() {
    std::string pattern = (fs::temp_directory_path() / "acc-tune-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~scratch_dir() { fs::remove_all(path); }
  int entries() const { return int(std::distance(fs::directory_iterator(path), fs::directory_iterator())); }
};

tune_table sample(int n, int salt) {
  tune_table t;
  for (int k = 0; k < n; ++k)
    t[tune_key("nvidia0:81559MiB", call_site{"parallel_loop"}, body_key(("Z4mainEUliE_" + std::to_string(salt * 1000 + k)).c_str()),
               k % size_classes)] = {{128 * (1 + k % 8), 4}, 1e-5 * (k + 1)};
  return t;
}

/// Same keys and shapes; seconds as the file keeps them (6 significant digits).
bool same(const tune_table& a, const tune_table& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [key, e] : a) {
    const auto it = b.find(key);
    if (it == b.end() || !(it->second.choice == e.choice) || std::abs(it->second.seconds - e.seconds) > 1e-5 * e.seconds)
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("a tune cache path that is a directory is reported and leaves nothing behind", "[runtime][tuned]") {
  scratch_dir dir;
  const fs::path target = dir.path / "cache-dir";
  fs::create_directory(target);
  selection_registry r;
  r.cache_path = target.string();
  r.cache = sample(20, 1);
  selection_impl::save_cache(r);
  REQUIRE(r.save_failed);
  REQUIRE(dir.entries() == 1);  // the directory itself, no temporary file beside it
  REQUIRE(fs::is_directory(target));

  ::setenv("ACC_TUNE_CACHE", target.c_str(), 1);
  selection_registry reader;
  reader.cache = sample(3, 2);
  selection_impl::load_cache(reader);
  ::unsetenv("ACC_TUNE_CACHE");
  REQUIRE(reader.cache_loaded);
  REQUIRE(reader.cache.size() == 3);  // not read, not emptied
}

TEST_CASE("processes that share one tune cache file each write it whole", "[runtime][tuned]") {
  scratch_dir dir;
  const std::string path = (dir.path / "shared.tc").string();
  const int writers = 3, rounds = 40;
  pid_t child[writers];
  for (int w = 0; w < writers; ++w) {
    child[w] = ::fork();
    REQUIRE(child[w] >= 0);
    if (child[w] == 0) {
      selection_registry r;
      r.cache_path = path;
      r.cache = sample(200, w);
      for (int k = 0; k < rounds && !r.save_failed; ++k) selection_impl::save_cache(r);
      ::_exit(r.save_failed ? 1 : 0);
    }
  }
  for (int w = 0; w < writers; ++w) {
    int status = 0;
    REQUIRE(::waitpid(child[w], &status, 0) == child[w]);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);  // no writer saw its rename fail
  }
  // The file is one writer's whole table, and no temporary file is left.
  REQUIRE(dir.entries() == 1);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f);
  std::string text;
  char buf[4096];
  for (std::size_t k; (k = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, k);
  std::fclose(f);
  tune_table back;
  std::string why;
  REQUIRE(parse_tune_cache(text, back, why));
  bool whole = false;
  for (int w = 0; w < writers; ++w) whole = whole || same(back, sample(200, w));
  REQUIRE(whole);
}

TEST_CASE("a tune cache field with a sign, blanks or too many digits is damage", "[runtime][tuned]") {
  tune_table t = sample(2, 3);
  const std::string text = format_tune_cache(t);
  tune_table back;
  std::string why;
  REQUIRE(parse_tune_cache(text, back, why));
  for (const char* bad : {"a\tb\tc\t 12\t2\tab\t3\t256\t2\t1e-5\n", "a\tb\tc\t+12\t2\tab\t3\t256\t2\t1e-5\n",
                          "a\tb\tc\t12\t2\tab\t3\t-256\t2\t1e-5\n", "a\tb\tc\t99999999999999999999999\t2\tab\t3\t256\t2\t1e-5\n",
                          "a\tb\tc\t12\t2\tab\t3\t256 \t2\t1e-5\n", "a\tb\tc\t12\t2\tab\t3\t0x10\t2\t1e-5\n"}) {
    tune_table keep = back;
    INFO(bad);
    CHECK_FALSE(parse_tune_cache(text + bad, keep, why));
    CHECK(same(keep, back));
  }
  CHECK(parse_tune_cache(text + "a\tb\tc\t12\t2\tab\t3\t256\t2\t1e-5\n", back, why));
}
