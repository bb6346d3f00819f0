// Stream compaction: keep the elements of x that pass a predicate, in order, with
// acc::parallel_scan. Each iteration contributes 1 if it keeps its element; in the final pass
// its partial is the number of kept elements before it, which is where it writes. Checked
// against std::copy_if for several sizes (0, 1, primes, powers of two and their neighbours).
//   compact [n]   (default: the built-in list of sizes)
#include <acc/parallel.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <random>
#include <vector>

namespace {

/// The predicate: keep readings above a threshold (about 30% of them).
ACC_ROUTINE inline bool keep(float v) { return v > 0.7f; }

/// Writes the kept elements of x to the front of out and returns their number.
long compact(const acc::array<float>& x, const acc::array<float>& out) {
  const long n = static_cast<long>(x.size());
  return acc::parallel_scan(n, ACC_LAMBDA(long i, long& kept_before, bool final) {
    const bool k = keep(x[i]);
    if (final && k) out[kept_before] = x[i];
    kept_before += k;
  });
}

bool check(long n, unsigned seed) {
  acc::array<float> x("x", n), out("out", n);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(0.0f, 1.0f);
  for (long i = 0; i < n; ++i) x[i] = d(gen);
  std::vector<float> expect;
  std::copy_if(x.begin(), x.end(), std::back_inserter(expect), keep);

  long kept = 0;
  double seconds = 0;
  {
    // out's tail past the kept elements is never written: copy back only what the compaction
    // wrote (OpenACC: create(out), then update self(out[0:kept])).
    acc::data region{acc::copyin(x), acc::create(out)};
    (void)compact(x, out);  // warm-up: loads the kernels
    const auto start = std::chrono::steady_clock::now();
    kept = compact(x, out);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    acc::update_self(out.data(), static_cast<std::size_t>(kept));
  }
  const bool ok = kept == static_cast<long>(expect.size()) && std::equal(expect.begin(), expect.end(), out.begin());
  std::printf("  n = %9ld: kept %9ld (std::copy_if: %9zu) in %.3f ms  %s\n", n, kept, expect.size(), seconds * 1e3,
              ok ? "verified" : "WRONG");
  return ok;
}

}  // namespace

int main(int argc, char** argv) try {
  std::vector<long> sizes = {0, 1, 2, 31, 997, 4096, 4097, 65537, 1000003, 1L << 22};
  if (argc > 1) sizes = {std::atol(argv[1])};
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("stream compaction with acc::parallel_scan on %s\n", gpu ? "nvidia" : "host");
  bool ok = true;
  unsigned seed = 1;
  for (long n : sizes) ok &= check(n, seed++);
  std::printf("compaction %s\n", ok ? "verified" : "FAILED");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "compact: %s\n", e.what());
  return 1;
}
