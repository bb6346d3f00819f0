// Transfer bandwidth from and to pageable host memory, 1 MiB .. 1 GiB, against cudaMemcpy
// from and to pinned memory (the ceiling), each pair timed alternately in the same run:
//   - update_device / update_self of a present range (as a time-stepping port moves data);
//   - acc::memcpy_to_device / memcpy_from_device of pageable memory (always staged through
//     acc's pinned buffers, never registered: what a one-shot transfer gets);
//   - the first enter_data(copyin) of a range acc has never seen, device allocation included,
//     against one pinned cudaMemcpy of the same size: from pinned memory the CPU has just written,
//     as the program has just written the range it enters (the like-for-like comparison: a DMA
//     reading lines still dirty in the CPU's caches is slower: bench/results/h100-transfer.txt), and
//     from a pinned buffer written long before. Each run takes the median of several first
//     enters (fresh ranges), each beside the two pinned copies.
// Every size is measured in `runs` consecutive runs (medians of alternating repetitions each).
// Targets: updates >= 0.95x pinned in every run at every size; a first
// enter <= 1.3x the pinned copy. Staged copies are reported, not judged.
//
//   bench_transfer [max MiB = 1024] [runs = 5]
#include <acc/parallel.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "bench_transfer: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

template <class F>
double time_once(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> t) {
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

struct pair_times {
  double ref, acc;
};

// Median seconds of `reps` synchronous calls of each, alternating ref and acc, after one
// warm-up of each.
template <class Ref, class Acc>
pair_times alternate(int reps, Ref&& ref, Acc&& acc) {
  ref();
  acc();
  std::vector<double> r, a;
  for (int k = 0; k < reps; ++k) {
    r.push_back(time_once(ref));
    a.push_back(time_once(acc));
  }
  return {median(r), median(a)};
}

struct worst {
  double low = 1e30, high = 0;
  void add(double x) {
    low = std::min(low, x);
    high = std::max(high, x);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::size_t max_mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  if (acc::get_num_devices(acc::device_type::nvidia) == 0) {
    std::printf("bench_transfer: no NVIDIA GPU; nothing to measure\n");
    return 0;
  }
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties");
  std::printf("bench_transfer on %s; GB/s (1e9 bytes/s), medians of alternating repetitions; %d runs per size\n",
              prop.name, runs);
  std::printf("ratio: pinned cudaMemcpy time / acc time, the lowest of the runs; enter: acc time / pinned copy, "
              "the highest of the runs; pin new: from pinned memory written just before, pin old: written long before\n");
  std::printf("%6s | %7s %7s %6s %7s %6s | %7s %7s %6s %7s %6s | %8s %8s %6s %8s %6s\n", "MiB", "h2d pin", "update",
              "ratio", "staged", "ratio", "d2h pin", "update", "ratio", "staged", "ratio", "enter ms", "pin new", "ratio",
              "pin old", "ratio");

  bool updates_ok = true, enter_ok = true, enter_old_ok = true;
  double enter_largest = 0;  // the worst enter ratio at the largest size (1 GiB by default)
  for (std::size_t mib = 1; mib <= max_mib; mib *= 4) {
    const std::size_t bytes = mib << 20;
    const int reps = static_cast<int>(std::clamp<std::size_t>(1024 / mib, 5, 21));
    char* pinned = nullptr;
    char* pinned_new = nullptr;  // rewritten before each of its copies, as a program's fresh data
    char* device = nullptr;
    check(cudaMallocHost(&pinned, bytes), "cudaMallocHost");
    check(cudaMallocHost(&pinned_new, bytes), "cudaMallocHost");
    check(cudaMalloc(&device, bytes), "cudaMalloc");
    std::memset(pinned, 3, bytes);
    // Pageable memory, touched so that page faults are not measured as transfers.
    std::vector<char> user(bytes, 2), scratch(bytes, 1);
    const auto h2d_pin = [&] { check(cudaMemcpy(device, pinned, bytes, cudaMemcpyHostToDevice), "h2d"); };
    const auto d2h_pin = [&] { check(cudaMemcpy(pinned, device, bytes, cudaMemcpyDeviceToHost), "d2h"); };

    // A range entered once and updated repeatedly; the warm-up transfers are those after
    // which acc page-locks it (present_table-inl.hpp, pin_after_transfers).
    acc::view<char> v("user", user.data(), bytes);
    acc::enter_data(acc::copyin(v));
    for (int k = 0; k < 3; ++k) {
      acc::update_device(v);
      acc::update_self(v);
    }
    worst up_h2d, up_d2h, st_h2d, st_d2h, enter, enter_old;
    std::vector<double> gb_pin_h2d, gb_up_h2d, gb_st_h2d, gb_pin_d2h, gb_up_d2h, gb_st_d2h, enter_ms, new_ms, old_ms;
    const double gb = static_cast<double>(bytes) / 1e9;
    for (int run = 0; run < runs; ++run) {
      const pair_times uh = alternate(reps, h2d_pin, [&] { acc::update_device(v); });
      const pair_times ud = alternate(reps, d2h_pin, [&] { acc::update_self(v); });
      const pair_times sh = alternate(reps, h2d_pin, [&] { acc::memcpy_to_device(device, scratch.data(), bytes); });
      const pair_times sd = alternate(reps, d2h_pin, [&] { acc::memcpy_from_device(scratch.data(), device, bytes); });
      up_h2d.add(uh.ref / uh.acc);
      up_d2h.add(ud.ref / ud.acc);
      st_h2d.add(sh.ref / sh.acc);
      st_d2h.add(sd.ref / sd.acc);
      gb_pin_h2d.push_back(gb / uh.ref);
      gb_up_h2d.push_back(gb / uh.acc);
      gb_st_h2d.push_back(gb / sh.acc);
      gb_pin_d2h.push_back(gb / ud.ref);
      gb_up_d2h.push_back(gb / ud.acc);
      gb_st_d2h.push_back(gb / sd.acc);

      // First enters of ranges acc has never seen: each a fresh allocation, written, entered
      // once, between a pinned copy of memory written just before and one of old memory.
      const int enters = mib <= 64 ? 9 : 3;
      std::vector<double> e_s, new_s, old_s;
      for (int j = 0; j < enters; ++j) {
        std::memset(pinned_new, run + j, bytes);
        new_s.push_back(time_once([&] {
          check(cudaMemcpy(device, pinned_new, bytes, cudaMemcpyHostToDevice), "h2d");
        }));
        std::vector<char> fresh(bytes, static_cast<char>(run + j));
        acc::view<char> f("fresh", fresh.data(), bytes);
        e_s.push_back(time_once([&] { acc::enter_data(acc::copyin(f)); }));
        acc::exit_data(acc::delete_(f));
        old_s.push_back(time_once(h2d_pin));
      }
      enter.add(median(e_s) / median(new_s));
      enter_old.add(median(e_s) / median(old_s));
      enter_ms.push_back(median(e_s) * 1e3);
      new_ms.push_back(median(new_s) * 1e3);
      old_ms.push_back(median(old_s) * 1e3);
    }
    acc::exit_data(acc::delete_(v));

    std::printf("%6zu | %7.2f %7.2f %6.3f %7.2f %6.3f | %7.2f %7.2f %6.3f %7.2f %6.3f | %8.3f %8.3f %6.3f %8.3f %6.3f\n",
                mib, median(gb_pin_h2d), median(gb_up_h2d), up_h2d.low, median(gb_st_h2d), st_h2d.low,
                median(gb_pin_d2h), median(gb_up_d2h), up_d2h.low, median(gb_st_d2h), st_d2h.low, median(enter_ms),
                median(new_ms), enter.high, median(old_ms), enter_old.high);
    std::fflush(stdout);
    updates_ok = updates_ok && up_h2d.low >= 0.95 && up_d2h.low >= 0.95;
    enter_ok = enter_ok && enter.high <= 1.3;
    enter_old_ok = enter_old_ok && enter_old.high <= 1.3;
    enter_largest = enter_old.high;
    check(cudaFreeHost(pinned), "cudaFreeHost");
    check(cudaFreeHost(pinned_new), "cudaFreeHost");
    check(cudaFree(device), "cudaFree");
  }
  std::printf("update_device and update_self >= 0.95x pinned cudaMemcpy in every run at every size: %s\n",
              updates_ok ? "PASS" : "FAIL");
  std::printf("first enter_data(copyin) of pageable memory <= 1.3x the pinned copy of memory written just before, "
              "in every run at every size: %s\n",
              enter_ok ? "PASS" : "FAIL");
  std::printf("first enter_data(copyin) of pageable memory <= 1.3x the pinned copy of memory written long before, "
              "in every run at every size: %s\n",
              enter_old_ok ? "PASS" : "FAIL");
  std::printf("first enter_data(copyin) of pageable memory <= 1.3x the pinned copy of memory written long before, "
              "in every run at the largest size: %s\n",
              enter_largest <= 1.3 ? "PASS" : "FAIL");
  return 0;
}
