// Level 17: transfers between pageable host memory and device copies. On a GPU, ranges of a
// few hundred KiB and more pass through pinned staging buffers in chunks (more chunks than
// buffers here, so buffers are reused within one transfer), and a range transferred often is
// page-locked; on the host device the same programs must give the same results. The copy team
// that does the host half of staging is checked on its own, on every backend.
#include <acc/detail/copy_team.hpp>
#include <acc/detail/runtime_state.hpp>
#include <acc/detail/stream_copy.hpp>
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#if defined(_OPENMP)
#  include <omp.h>
#endif

namespace {

std::vector<long long> random_values(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<long long> d(-1000000, 1000000);
  std::vector<long long> v(n);
  for (auto& e : v) e = d(gen);
  return v;
}

// Compute constructs live in plain functions: nvcc rejects extended lambdas inside lambdas.
void affine_present(acc::view<long long> a, long long f, long long c, int q) {
  acc::parallel_loop(a.size(), acc::default_present, acc::async(q),
                     ACC_LAMBDA(std::size_t i) { a(i) = a(i) * f + c + static_cast<long long>(i % 7); });
}

void affine_reference(std::vector<long long>& v, std::size_t first, long long f, long long c) {
  for (std::size_t i = 0; i < v.size() - first; ++i) v[first + i] = v[first + i] * f + c + static_cast<long long>(i % 7);
}

// Elements: under the staging threshold, one chunk, several chunks, more chunks than buffers
// with a short last one, and chunks of the largest size; each starts one element into its
// vector, so neither end is page-aligned.
const std::size_t sizes[] = {1000, 40000, 150001, 1300007, 9437187};

}  // namespace

TEST_CASE("the copy team copies any size exactly, also from several threads at once", "[17][transfer]") {
  const unsigned helpers = GENERATE(0u, 1u, 3u);
  acc::detail::copy_team team(helpers);
  const std::size_t part = acc::detail::copy_team::min_part;
  const std::size_t lengths[] = {0, 1, 63, part - 1, part, 2 * part + 1, 3 * part + 17, (5u << 20) + 13};
  std::vector<unsigned char> src((6u << 20) + 64), dst(src.size());
  std::mt19937 gen(11u + helpers);
  for (auto& c : src) c = static_cast<unsigned char>(gen());
  for (const std::size_t n : lengths)
    for (const std::size_t offset : {std::size_t(0), std::size_t(5)}) {
      std::fill(dst.begin(), dst.end(), 0xa5);
      // A transfer's middle chunk (the helpers then wait spinning for the next) or its last.
      team.copy(dst.data() + offset, src.data() + 3, n, offset == 0);
      for (std::size_t i = 0; i < offset; ++i) REQUIRE(dst[i] == 0xa5);
      REQUIRE(std::memcmp(dst.data() + offset, src.data() + 3, n) == 0);
      REQUIRE(dst[offset + n] == 0xa5);
    }

  // Several host threads share the team; every copy must still land whole.
  constexpr int threads = 4;
  const std::size_t n = (3u << 20) + 7;
  std::vector<std::vector<unsigned char>> in(threads, std::vector<unsigned char>(n)), out = in;
  for (int t = 0; t < threads; ++t)
    for (auto& c : in[t]) c = static_cast<unsigned char>(gen());
  std::vector<int> bad(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        std::fill(out[t].begin(), out[t].end(), 0);
        team.copy(out[t].data(), in[t].data(), n, round % 3 != 0);
        if (out[t] != in[t]) ++bad[t];
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) REQUIRE(bad[t] == 0);
}

TEST_CASE("the streaming copy copies any size at any alignment exactly", "[17][transfer]") {
  // stream_copy fills staging buffers with stores that bypass the caches, 64 bytes at a time
  // from a 16-byte aligned destination: every head, tail and alignment must still land whole.
  std::vector<unsigned char> src(70000), dst(src.size() + 64);
  std::mt19937 gen(17u);
  for (auto& c : src) c = static_cast<unsigned char>(gen());
  for (const std::size_t n : {0, 1, 15, 16, 17, 63, 64, 65, 127, 129, 4096, 65536 + 31})
    for (std::size_t to = 0; to < 17; to += 3)
      for (const std::size_t from : {0, 1, 8}) {
        std::fill(dst.begin(), dst.end(), 0xc3);
        acc::detail::stream_copy(dst.data() + to, src.data() + from, n);
        INFO("n " << n << ", destination offset " << to << ", source offset " << from);
        for (std::size_t i = 0; i < to; ++i) REQUIRE(dst[i] == 0xc3);
        REQUIRE(std::memcmp(dst.data() + to, src.data() + from, n) == 0);
        for (std::size_t i = to + n; i < dst.size(); ++i) REQUIRE(dst[i] == 0xc3);
      }
  // Through the copy team, as staged transfers to the device use it.
  acc::detail::copy_team team(3);
  std::vector<unsigned char> big((5u << 20) + 5), out(big.size() + 1, 0);
  for (auto& c : big) c = static_cast<unsigned char>(gen());
  team.copy(out.data() + 1, big.data(), big.size(), false, &acc::detail::stream_copy);
  REQUIRE(out[0] == 0);
  REQUIRE(std::memcmp(out.data() + 1, big.data(), big.size()) == 0);
}

#if defined(_OPENMP)
// Sets the OpenMP thread count for one test case and gives the old one back however it ends.
struct omp_threads_for_case {
  int saved = omp_get_max_threads();
  explicit omp_threads_for_case(int n) { omp_set_num_threads(n); }
  ~omp_threads_for_case() { omp_set_num_threads(saved); }
  omp_threads_for_case(const omp_threads_for_case&) = delete;
  omp_threads_for_case& operator=(const omp_threads_for_case&) = delete;
};

// What a chunked copy's `ready` saw: the chunks in the order they were handed on, and whether
// each was whole in its destination when it was.
struct chunk_log {
  const unsigned char* src;
  unsigned char* const* dst;
  std::size_t bytes, chunk;
  std::vector<std::size_t> order;  // reserved: `ready` is noexcept
  bool whole = true;

  static void ready(void* context, std::size_t k) noexcept {
    auto& log = *static_cast<chunk_log*>(context);
    log.order.push_back(k);
    const std::size_t off = k * log.chunk, len = std::min(log.chunk, log.bytes - off);
    log.whole = log.whole && std::memcmp(log.dst[k], log.src + off, len) == 0;
  }
};

TEST_CASE("the OpenMP copy of staged transfers copies every chunk exactly and hands each on whole, in order",
          "[17][transfer]") {
  // Registered by this translation unit (backend/host/executor.hpp); staged transfers use it.
  REQUIRE(acc::detail::openmp_copy() != nullptr);
  const omp_threads_for_case five(5);  // it needs 4 threads or more, also on a 2-core machine
  std::vector<unsigned char> src((6u << 20) + 64);
  std::mt19937 gen(5u);
  for (auto& c : src) c = static_cast<unsigned char>(gen());
  // Each piece by plain memcpy (into user memory) or by streaming stores (into staging buffers).
  const auto piece_copy = GENERATE(&acc::detail::copy_team::plain_copy, &acc::detail::stream_copy);
  struct shape {
    std::size_t bytes, chunk, piece;
  };
  const std::size_t k64 = std::size_t(64) << 10, m1 = std::size_t(1) << 20;
  // One byte; one chunk, smaller than a piece; chunks of whole pieces; pieces that do not divide
  // the chunk and a short last chunk; the most chunks a job may have, with odd sizes.
  for (const shape sh : {shape{1, 1, 1}, shape{4097, 4097, k64}, shape{4 * m1, m1, k64},
                         shape{m1 + 4093, 256u << 10, k64 - 1}, shape{(5 * m1) + 7, m1 + 3, 100003},
                         shape{64 * 1000 - 1, 1000, 77}}) {
    // Chunk k goes to its own place, 3 bytes after the one before, offset by one from src.
    const std::size_t chunks = (sh.bytes + sh.chunk - 1) / sh.chunk;
    std::vector<unsigned char> dst(sh.bytes + 3 * chunks + 8, 0x5a);
    std::vector<unsigned char*> at(chunks);
    for (std::size_t k = 0; k < chunks; ++k) at[k] = dst.data() + 1 + k * (sh.chunk + 3);
    chunk_log log{src.data() + 2, at.data(), sh.bytes, sh.chunk, {}};
    log.order.reserve(acc::detail::chunked_copy::max_chunks);
    acc::detail::chunked_copy job;
    job.chunk_dst = reinterpret_cast<char* const*>(at.data());
    job.src = reinterpret_cast<const char*>(src.data() + 2);
    job.bytes = sh.bytes;
    job.chunk = sh.chunk;
    job.piece = sh.piece;
    job.copy = piece_copy;
    job.ready = &chunk_log::ready;
    job.context = &log;
    INFO("bytes " << sh.bytes << ", chunk " << sh.chunk << ", piece " << sh.piece);
    REQUIRE(acc::detail::host::openmp_copy(job));
    REQUIRE(log.order.size() == chunks);
    for (std::size_t k = 0; k < chunks; ++k) REQUIRE(log.order[k] == k);
    REQUIRE(log.whole);
    for (std::size_t k = 0; k < chunks; ++k) {
      const std::size_t len = std::min(sh.chunk, sh.bytes - k * sh.chunk);
      REQUIRE(std::memcmp(at[k], src.data() + 2 + k * sh.chunk, len) == 0);
      REQUIRE(at[k][-1] == 0x5a);  // the bytes between the places are untouched
      REQUIRE(at[k][len] == 0x5a);
    }
  }

  // Nothing to copy: done, nothing handed on. Too many chunks, inside a region, fewer than 4
  // threads: declined, nothing copied.
  std::vector<unsigned char> out(100000, 0x5a);
  unsigned char* const many[65] = {};
  chunk_log log{src.data(), many, 65 * 1000, 1000, {}};
  log.order.reserve(acc::detail::chunked_copy::max_chunks);
  acc::detail::chunked_copy job;
  job.chunk_dst = reinterpret_cast<char* const*>(many);
  job.src = reinterpret_cast<const char*>(src.data());
  job.bytes = 0;
  job.chunk = 1000;
  job.piece = 100;
  job.copy = piece_copy;
  job.ready = &chunk_log::ready;
  job.context = &log;
  REQUIRE(acc::detail::host::openmp_copy(job));
  job.bytes = 65 * 1000;  // 65 chunks (the null places are never written: it declines first)
  REQUIRE_FALSE(acc::detail::host::openmp_copy(job));
  unsigned char* const one[1] = {out.data()};
  job.chunk_dst = reinterpret_cast<char* const*>(one);
  job.bytes = job.chunk = 50000;
  bool inside = true;
#  pragma omp parallel num_threads(2)
  {
#  pragma omp single
    inside = acc::detail::host::openmp_copy(job);
  }
  REQUIRE_FALSE(inside);
  omp_set_num_threads(3);
  REQUIRE_FALSE(acc::detail::host::openmp_copy(job));
  REQUIRE(log.order.empty());
  REQUIRE(std::count(out.begin(), out.end(), 0x5a) == static_cast<std::ptrdiff_t>(out.size()));
}
#endif

TEST_CASE("pageable ranges keep their values through enter, repeated updates and exit", "[17][transfer]") {
  const std::size_t n = GENERATE(from_range(std::begin(sizes), std::end(sizes)));
  const int q = GENERATE(values({acc::async_sync, 2}));
  std::vector<long long> host = random_values(n + 1, static_cast<unsigned>(n));
  std::vector<long long> expect = host;
  acc::view<long long> a("a", host.data() + 1, n);

  acc::enter_data(acc::copyin(a));
  // Enough round trips that a GPU page-locks the range part way through.
  for (int step = 0; step < 5; ++step) {
    affine_present(a, 3, step, q);
    affine_reference(expect, 1, 3, step);
    acc::update_self(a, acc::async(q));
    acc::wait(q);
    REQUIRE(host == expect);
    // New host values, including a lone element, must reach the device copy.
    for (std::size_t i = step; i < n; i += 4099) host[1 + i] = expect[1 + i] = -static_cast<long long>(i) - step;
    acc::update_device(a, acc::async(q));
  }
  affine_present(a, -2, 1, q);
  affine_reference(expect, 1, -2, 1);
  acc::exit_data(acc::copyout(a), acc::async(q));
  acc::wait(q);
  REQUIRE_FALSE(acc::is_present(a));
  REQUIRE(host == expect);
}

TEST_CASE("a section's update moves only its part of a staged range", "[17][transfer]") {
  const std::size_t n = 1300007;
  std::vector<long long> host = random_values(n, 5u);
  const std::vector<long long> start = host;
  acc::view<long long> a("a", host.data(), n);
  acc::enter_data(acc::copyin(a));
  affine_present(a, 1, 10, acc::async_sync);
  const std::size_t lo = 123457, len = 700001;
  acc::update_self(acc::section(a, lo, len));
  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  for (std::size_t i = 0; i < n; ++i) {
    const bool inside = i >= lo && i < lo + len;
    const long long moved = start[i] + 10 + static_cast<long long>(i % 7);
    REQUIRE(host[i] == (inside || !gpu ? moved : start[i]));
  }
  acc::exit_data(acc::delete_(a));
}

TEST_CASE("host threads transfer their own ranges on their own queues at the same time", "[17][transfer][async]") {
  constexpr int threads = 3;
  const std::size_t n = 1300007;
  std::vector<std::vector<long long>> host(threads), expect(threads);
  for (int t = 0; t < threads; ++t) host[t] = expect[t] = random_values(n, 100u + t);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      acc::view<long long> a("a", host[t].data(), n);
      const int q = t + 1;
      acc::enter_data(acc::copyin(a), acc::async(q));
      for (int step = 0; step < 4; ++step) {
        affine_present(a, 2, t + step, q);
        acc::update_self(a, acc::async(q));
        acc::update_device(a, acc::async(q));
      }
      acc::exit_data(acc::copyout(a), acc::async(q));
      acc::wait(q);
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    for (int step = 0; step < 4; ++step) affine_reference(expect[t], 0, 2, t + step);
    REQUIRE(host[t] == expect[t]);
  }
}
