// NPB IS (Integer Sort), after the NAS Parallel Benchmarks 3.x OpenMP version: ranks 2^N
// integer keys in [0, MAX_KEY) ten times, each time after changing two keys, by a histogram of
// the keys and a prefix sum over it (the keys' ranks are the counts of smaller keys). NPB-ACC
// leaves IS out because OpenACC has no scan; here it is acc::inclusive_scan on present data.
// Where constructs run on the host (acc::get_device_type() is not nvidia), the histogram and
// scan are NPB-OMP's bucket sort instead (histogram_by_buckets): atomic increments of one
// shared histogram are what a GPU does well and CPU threads do badly.
//   is [S|W|A|B|C] [fast|plain]   (default S, fast; plain waits for every construct)
// Written for acc from the NPB 3.x specification of IS (NAS technical reports RNR-94-007 and
// NAS-95-020); class parameters, the key generator's seed and multiplier, and the partial
// verification indices, ranks and their per-class shifts are NPB 3.x's (is.c, "Partial
// verif info" and rank(); class C as in GMAP/NPB-GPU CUDA/IS/is.cu too). Key generation and
// the full verification are untimed, as in NPB.
#include <acc/parallel.hpp>

#include "../common/npb_random.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

namespace {

using npb::randlc;  // keys are generated on the host, untimed

// --- IS's parameters (NPB 3.x is.c / npbparams.h) -----------------------------------------------
constexpr int max_iterations = 10;
constexpr int test_array_size = 5;
constexpr double seed = 314159265.0;
constexpr double multiplier = 1220703125.0;  // 5^13

struct is_class {
  char name;
  int total_keys_log2, max_key_log2;
  int test_index[test_array_size], test_rank[test_array_size];
};
constexpr is_class classes[] = {
    {'S', 16, 11, {48427, 17148, 23627, 62548, 4431}, {0, 18, 346, 64917, 65463}},
    {'W', 20, 16, {357773, 934767, 875723, 898999, 404505}, {1249, 11698, 1039987, 1043896, 1048018}},
    {'A', 23, 19, {2112377, 662041, 5336171, 3642833, 4250760}, {104, 17523, 123928, 8288932, 8388264}},
    {'B', 25, 21, {41869, 812306, 5102857, 18232239, 26860214}, {33422937, 10244, 59149, 33135281, 99}},
    {'C', 27, 23, {44172927, 72999161, 74326391, 129606274, 21736814}, {61147, 882988, 266290, 133997595, 133525895}},
};

/// The rank NPB expects for test key i after iteration `it` (is.c rank(): the two keys changed
/// per iteration move each test key's rank up or down by one, with per-class offsets).
int expected_rank(char cls, int i, int base, int it) {
  switch (cls) {
    case 'S': return i <= 2 ? base + it : base - it;
    case 'W': return i < 2 ? base + (it - 2) : base - it;
    case 'A': return i <= 2 ? base + (it - 1) : base - (it - 1);
    case 'B': return (i == 1 || i == 2 || i == 4) ? base + it : base - it;
    default: return i <= 2 ? base + it : base - it;  // 'C'
  }
}

const is_class* find_class(const char* arg) {
  for (const is_class& c : classes)
    if (arg[0] == c.name && arg[1] == '\0') return &c;
  return nullptr;
}

/// What the host's form of rank() needs beside the keys: NPB-OMP's bucket sort. Keys go to
/// `buckets` buckets by their high bits, block by block; each bucket then covers its own range
/// of key values, so its histogram and prefix sum need neither atomics nor a second pass.
struct bucket_work {
  static constexpr int blocks = 128;       // key blocks: gangs of the counting and scatter loops
  static constexpr int parts = 128;        // gangs of the per-bucket histograms, equal in work
  static constexpr int max_buckets = 1024;  // NPB-OMP's NUM_BUCKETS (2^10)
  int buckets, shift;                       // key k is in bucket k >> shift
  acc::array<int> sorted;                   // the keys grouped by bucket (NPB's key_buff2)
  acc::array<int> at;                       // at[b * blocks + blk]: block blk's keys in bucket b, then where they go
  acc::array<int> start;                    // start[b]: the keys before bucket b (buckets + 1 entries)

  /// For `keys` keys below 2^max_key_log2; empty (keys = nblocks = 0) where the GPU form runs.
  bucket_work(long keys, int max_key_log2, int nblocks)
      : buckets(1 << (max_key_log2 < 10 ? max_key_log2 : 10)), shift(max_key_log2 - (max_key_log2 < 10 ? max_key_log2 : 10)),
        sorted("key_buff2", keys), at("bucket_ptrs", long(nblocks) * buckets),
        start("bucket_start", nblocks ? buckets + 1 : 0) {}
};

/// rank()'s histogram and scan on the host: count[k] = number of keys <= k, as the GPU form's
/// atomic histogram and inclusive_scan leave it. Atomic increments of one shared histogram
/// make threads fight over its cache lines; here every write has one owner (a block's bucket
/// counters, a bucket's range of `count`), as in NPB-OMP's rank().
void histogram_by_buckets(int queue, acc::array<int>& keys, acc::array<int>& count, bucket_work& w) {
  const long n = static_cast<long>(keys.size());
  const int blocks = bucket_work::blocks, parts = bucket_work::parts, buckets = w.buckets, shift = w.shift;
  const long per_block = (n + blocks - 1) / blocks;
  acc::array<int>&sorted = w.sorted, &at = w.at, &start = w.start;
  // Each block's bucket sizes, counted in the block's own counters (a thread's, in cache) and
  // stored bucket-major, so that the offsets below are one running sum in memory order.
  acc::parallel_loop(blocks, acc::default_present, acc::async(queue), ACC_LAMBDA(int blk) {
    int size[bucket_work::max_buckets];
    const int s = shift;  // a local: stores to size[] cannot change it, so it stays in a register
    for (int b = 0; b < buckets; ++b) size[b] = 0;
    const long i1 = (blk + 1) * per_block < n ? (blk + 1) * per_block : n;
    for (long i = blk * per_block; i < i1; ++i) ++size[keys[i] >> s];
    for (int b = 0; b < buckets; ++b) at[long(b) * blocks + blk] = size[b];
  });
  // Where each block's keys of each bucket go: buckets in order, blocks in order within one.
  acc::serial(acc::default_present, acc::async(queue), ACC_LAMBDA() {
    int next = 0;
    for (int b = 0; b < buckets; ++b) {
      start[b] = next;
      int* const row = &at[long(b) * blocks];
      for (int blk = 0; blk < blocks; ++blk) {
        const int size = row[blk];
        row[blk] = next;
        next += size;
      }
    }
    start[buckets] = next;
  });
  acc::parallel_loop(blocks, acc::default_present, acc::async(queue), ACC_LAMBDA(int blk) {
    int to[bucket_work::max_buckets];
    const int s = shift;
    for (int b = 0; b < buckets; ++b) to[b] = at[long(b) * blocks + blk];
    int* const out = &sorted[0];
    const long i1 = (blk + 1) * per_block < n ? (blk + 1) * per_block : n;
    for (long i = blk * per_block; i < i1; ++i) {
      const int k = keys[i];
      out[to[k >> s]++] = k;
    }
  });
  // Each bucket's key range: its histogram, then its running sum from the keys before it.
  // The keys' distribution is bell-shaped, so equal runs of buckets are unequal work (the middle
  // ones hold several times the keys of the outer ones); each gang takes a run of buckets of
  // equal weight instead, a bucket weighing its keys plus its key values (NPB-OMP balances
  // the same loop with schedule(dynamic)).
  const long values = 1L << shift, total = n + long(buckets) * values;
  acc::parallel_loop(parts, acc::default_present, acc::async(queue), ACC_LAMBDA(int p) {
    // The first bucket whose keys and values before it weigh at least part p's share.
    const auto first_bucket = [&](int part) {
      const long goal = total * part / parts;
      int lo = 0, hi = buckets;  // the weight before bucket `buckets` is total >= goal
      while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (start[mid] + mid * values < goal)
          lo = mid + 1;
        else
          hi = mid;
      }
      return lo;
    };
    const int b0 = first_bucket(p), b1 = first_bucket(p + 1);
    int* const c = &count[0];
    const int* const in = &sorted[0];
    for (int b = b0; b < b1; ++b) {
      const int k0 = b << shift, k1 = (b + 1) << shift, i0 = start[b], i1 = start[b + 1];
      for (int k = k0; k < k1; ++k) c[k] = 0;
      for (int i = i0; i < i1; ++i) ++c[in[i]];
      int sum = i0;
      for (int k = k0; k < k1; ++k) c[k] = sum += c[k];
    }
  });
}

/// One ranking on the device, queued on `queue` (acc::async_sync: each construct waits, as the
/// straightforward form does): two keys changed, the test keys read, a histogram of all keys,
/// and its inclusive scan: count[k] = number of keys <= k. The test keys and their ranks go to
/// probe[slot * 10 ...], for the host to check once the iterations are done.
void rank(int iteration, int slot, int queue, acc::array<int>& keys, acc::array<int>& count, acc::array<int>& probe,
          acc::array<int>& index, bucket_work* host_buckets) {
  const int n = static_cast<int>(keys.size());
  const int max_key = static_cast<int>(count.size());
  const int at = slot * 2 * test_array_size;
  // key_array[iteration] = iteration; key_array[iteration + MAX_ITERATIONS] = MAX_KEY - iteration;
  // then the test keys' values (partial_verify_vals).
  acc::serial(acc::default_present, acc::async(queue), ACC_LAMBDA() {
    keys[iteration] = iteration;
    keys[iteration + max_iterations] = max_key - iteration;
    for (int i = 0; i < test_array_size; ++i) probe[at + i] = keys[index[i]];
  });
  if (host_buckets) {
    histogram_by_buckets(queue, keys, count, *host_buckets);
  } else {
    acc::parallel_loop(max_key, acc::default_present, acc::async(queue), ACC_LAMBDA(int k) { count[k] = 0; });
    acc::parallel_loop(n, acc::default_present, acc::async(queue),
                       ACC_LAMBDA(int i) { acc::atomic_add(&count[keys[i]], 1); });
    acc::inclusive_scan(count, count, acc::async(queue), acc::default_present);  // in place on the device
  }
  // The rank of test key i is the number of smaller keys: count[key - 1].
  acc::serial(acc::default_present, acc::async(queue), ACC_LAMBDA() {
    for (int i = 0; i < test_array_size; ++i) {
      const int k = probe[at + i];
      probe[at + test_array_size + i] = (0 < k && k <= n - 1) ? count[k - 1] : -1;
    }
  });
}

/// NPB's partial verification of the iterations' test keys (probe as rank() left it, slot
/// `it` for iteration it): how many had the rank NPB expects.
int partial_verify(const is_class& cls, const acc::array<int>& probe) {
  int passed = 0;
  for (int it = 1; it <= max_iterations; ++it) {
    const int at = it * 2 * test_array_size;
    for (int i = 0; i < test_array_size; ++i) {
      const int k = probe[at + i];
      if (!(0 < k && k <= (1L << cls.total_keys_log2) - 1)) continue;  // NPB skips such keys (none for S to C)
      if (probe[at + test_array_size + i] == expected_rank(cls.name, i, cls.test_rank[i], it))
        ++passed;
      else
        std::printf("  Failed partial verification: iteration %d, test key %d\n", it, i);
    }
  }
  return passed;
}

/// NPB's full verification: sort the keys by their ranks (a counting sort from the last
/// iteration's counts) and count keys out of order.
bool full_verify(const acc::array<int>& keys, const acc::array<int>& count) {
  std::vector<int> rank(count.begin(), count.end()), sorted(keys.size(), -1);
  for (int key : keys) {
    const int at = --rank[key];
    if (at < 0) return false;
    sorted[at] = key;
  }
  long out_of_order = 0;
  for (std::size_t i = 1; i < sorted.size(); ++i) out_of_order += sorted[i - 1] > sorted[i];
  if (out_of_order) std::printf("  Full_verify: number of keys out of sort: %ld\n", out_of_order);
  return out_of_order == 0;
}

}  // namespace

int main(int argc, char** argv) try {
  const is_class* cls = find_class(argc > 1 ? argv[1] : "S");
  const bool plain = argc > 2 && std::strcmp(argv[2], "plain") == 0;
  if (!cls || argc > 3 || (argc > 2 && !plain && std::strcmp(argv[2], "fast") != 0)) {
    std::fprintf(stderr, "usage: %s [S|W|A|B|C] [fast|plain]\n", argv[0]);
    return 2;
  }
  const long total_keys = 1L << cls->total_keys_log2;
  const int max_key = 1 << cls->max_key_log2;

  // create_seq: each key is MAX_KEY/4 times the sum of four uniform deviates.
  acc::array<int> keys("key_array", total_keys), count("key_buff1", max_key), probe("partial_verify_vals", (max_iterations + 1) * 2 * test_array_size),
      index("test_index_array", 5);
  double x = seed;
  const double k = max_key / 4;
  for (long i = 0; i < total_keys; ++i) {
    double r = randlc(x, multiplier);
    r += randlc(x, multiplier);
    r += randlc(x, multiplier);
    r += randlc(x, multiplier);
    keys[i] = static_cast<int>(k * r);
  }
  for (int i = 0; i < test_array_size; ++i) index[i] = cls->test_index[i];

  const bool gpu = acc::get_device_type() == acc::device_type::nvidia;
  std::printf("NPB IS class %c (%s form): %ld keys in [0, %d), %d iterations, on %s\n", cls->name,
              plain ? "plain" : "fast", total_keys, max_key, max_iterations, gpu ? "nvidia" : "host");
  // The fast form queues every construct and waits once, after the last iteration; the plain
  // form waits for each (NPB-GPU also runs a ranking without a host round trip).
  const int queue = plain ? acc::async_sync : 1;
  int passed = 0;
  double seconds = 0;
  {
    acc::data region{acc::copy(keys), acc::copyout(count), acc::create(probe), acc::copyin(index)};
    // The host ranks by NPB-OMP's buckets, the GPU by an atomic histogram and a scan (rank()).
    bucket_work buckets(gpu ? 0 : total_keys, cls->max_key_log2, gpu ? 0 : bucket_work::blocks);
    acc::data bucket_region{acc::create(buckets.sorted), acc::create(buckets.at), acc::create(buckets.start),
                            acc::if_(!gpu)};
    bucket_work* const host_buckets = gpu ? nullptr : &buckets;
    // One untimed iteration (NPB: "to guarantee initialization of all data and code pages"),
    // whose verification does not count (slot 0).
    rank(1, 0, queue, keys, count, probe, index, host_buckets);
    if (!plain) acc::wait(queue);
    const auto start = std::chrono::steady_clock::now();
    for (int it = 1; it <= max_iterations; ++it) rank(it, it, queue, keys, count, probe, index, host_buckets);
    acc::update_self(probe, acc::async(queue));
    if (!plain) acc::wait(queue);
    passed += partial_verify(*cls, probe);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }  // keys and counts come back here
  if (full_verify(keys, count)) ++passed;
  const bool ok = passed == test_array_size * max_iterations + 1;
  std::printf("  time = %.4f s, Mop/s = %.2f (keys ranked)\n", seconds,
              double(max_iterations) * double(total_keys) / seconds * 1e-6);
  std::printf("  Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "is: %s\n", e.what());
  return 1;
}
