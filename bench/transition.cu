// Host runs of a large 2-D stencil right after GPU work on the same host arrays: each run's
// time, with what the process did meanwhile (page faults, context switches, the CPU time of
// threads other than the caller's OpenMP team) and the host's page state, to find why host
// runs that follow GPU runs are slower than host runs in a row (bench_adaptive's 2^28 stencil
// with host data: bench/results/h100-adaptive.txt). A diagnostic, not a comparison: it asserts
// only the stencil's result.
//   bench_transition [--log2 28] [--host 8]
#include <acc/parallel.hpp>

#include "check.cuh"
#include "timing.cuh"

#include <sys/resource.h>
#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

/// user + system ticks of every thread of this process, by thread id, with its name.
std::map<int, std::pair<long, std::string>> thread_ticks() {
  std::map<int, std::pair<long, std::string>> out;
  DIR* d = opendir("/proc/self/task");
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const std::string path = std::string("/proc/self/task/") + e->d_name + "/stat";
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f) continue;
    char buf[1024] = {};
    const size_t got = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[got] = 0;
    const char* open = std::strchr(buf, '(');
    const char* close = std::strrchr(buf, ')');
    if (!open || !close) continue;
    const std::string name(open + 1, close);
    // Fields after the name: state(3) ... utime(14) stime(15).
    long utime = 0, stime = 0;
    const char* p = close + 2;
    for (int field = 3; field < 14 && p; ++field) {
      p = std::strchr(p, ' ');
      if (p) ++p;
    }
    if (p && std::sscanf(p, "%ld %ld", &utime, &stime) == 2) out[std::atoi(e->d_name)] = {utime + stime, name};
  }
  closedir(d);
  return out;
}

long kib_of(const char* file, const char* key) {
  FILE* f = std::fopen(file, "r");
  if (!f) return -1;
  char line[512];
  long v = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, key, std::strlen(key)) == 0) v = std::atol(line + std::strlen(key));
  std::fclose(f);
  return v;
}

std::string first_line(const char* file) {
  FILE* f = std::fopen(file, "r");
  if (!f) return "-";
  char line[512] = {};
  if (!std::fgets(line, sizeof line, f)) line[0] = 0;
  std::fclose(f);
  std::string s(line);
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

struct grid {
  int side;
  acc::array<double, 2> in, out;
  explicit grid(int side) : side(side), in(side, side), out(side, side) {
    for (int i = 0; i < side; ++i)
      for (int j = 0; j < side; ++j) in(i, j) = double((i * 7 + j * 3) % 11), out(i, j) = 0;
  }
  void run(bool gpu) {
    acc::view<const double, 2> in = this->in;
    auto out = this->out;
    const auto space = acc::collapse(acc::range(1, side - 1), acc::range(1, side - 1));
    acc::parallel_loop(space, acc::if_(gpu), ACC_LAMBDA(int i, int j) {
      out(i, j) = 0.25 * (in(i - 1, j) + in(i + 1, j) + in(i, j - 1) + in(i, j + 1));
    });
  }
  bool check() const {
    for (int i = 1; i < side - 1; i += 7)
      for (int j = 1; j < side - 1; ++j)
        if (out(i, j) != 0.25 * (in(i - 1, j) + in(i + 1, j) + in(i, j - 1) + in(i, j + 1))) return false;
    return true;
  }
};

/// Times f once and prints the time with what else happened in the process meanwhile.
template <class F>
void timed(const char* what, F&& f) {
  rusage r0{}, r1{};
  getrusage(RUSAGE_SELF, &r0);
  const auto before = thread_ticks();
  const auto t0 = clock_type::now();
  f();
  const double ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
  const auto after = thread_ticks();
  getrusage(RUSAGE_SELF, &r1);
  // The threads that took the most CPU, whoever they are: the OpenMP team shows as the
  // program's name, CUDA's own threads as cuda-*.
  std::vector<std::pair<long, std::string>> busy;
  for (const auto& [tid, v] : after) {
    const auto it = before.find(tid);
    const long d = v.first - (it == before.end() ? 0 : it->second.first);
    if (d > 0) busy.push_back({d, v.second + "/" + std::to_string(tid)});
  }
  std::sort(busy.rbegin(), busy.rend());
  std::printf("  %-10s %9.2f ms  minflt %7ld  majflt %3ld  nivcsw %6ld  nvcsw %6ld  threads>0 %3zu  top:", what, ms,
              r1.ru_minflt - r0.ru_minflt, r1.ru_majflt - r0.ru_majflt, r1.ru_nivcsw - r0.ru_nivcsw,
              r1.ru_nvcsw - r0.ru_nvcsw, busy.size());
  for (std::size_t k = 0; k < busy.size() && k < 3; ++k) std::printf(" %s=%ld", busy[k].second.c_str(), busy[k].first);
  std::printf("\n");
}

void pages(const char* when) {
  std::printf("# %s: AnonHugePages %ld kB, Rss %ld kB\n", when, kib_of("/proc/self/smaps_rollup", "AnonHugePages:"),
              kib_of("/proc/self/smaps_rollup", "Rss:"));
}

}  // namespace

int main(int argc, char** argv) {
  if (!bench::have_gpu()) return 0;
  const int log2 = bench::int_arg(argc, argv, "--log2", 28), hosts = bench::int_arg(argc, argv, "--host", 8);
  const int side = int(std::lround(std::sqrt(std::ldexp(1.0, log2))));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("bench_transition: %d x %d doubles (2 arrays of %.2f GiB), %ld cores, %s\n", side, side,
              double(side) * side * 8 / (1 << 30), sysconf(_SC_NPROCESSORS_ONLN), prop.name);
  std::printf("# numa_balancing %s; THP %s; defrag %s; NUMA nodes:", first_line("/proc/sys/kernel/numa_balancing").c_str(),
              first_line("/sys/kernel/mm/transparent_hugepage/enabled").c_str(),
              first_line("/sys/kernel/mm/transparent_hugepage/defrag").c_str());
  for (int n = 0; n < 8; ++n) {
    const std::string p = "/sys/devices/system/node/node" + std::to_string(n) + "/cpulist";
    if (access(p.c_str(), R_OK) == 0) std::printf(" node%d=%s", n, first_line(p.c_str()).c_str());
  }
  std::printf("\n");
  grid g(side);
  const auto host_runs = [&](const char* label) {
    pages(label);
    for (int k = 0; k < hosts; ++k) timed("host", [&] { g.run(false); });
  };
  const auto gpu_runs = [&] {
    for (int k = 0; k < 3; ++k) timed("gpu", [&] { g.run(true); });
  };
  std::printf("## 1. host runs in a row\n");
  host_runs("start");
  std::printf("## 2. three GPU runs with the data on the host (copies in and out), then host runs\n");
  gpu_runs();
  host_runs("after GPU runs");
  std::printf("## 3. the same with 2 s of sleep before the host runs\n");
  gpu_runs();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  host_runs("after GPU runs and 2 s");
  std::printf("## 4. transfers only: enter_data(copyin) of both, exit_data(copyout out, delete in), three times\n");
  for (int k = 0; k < 3; ++k)
    timed("transfers", [&] {
      acc::enter_data(acc::copyin(g.in), acc::copyin(g.out));
      acc::exit_data(acc::copyout(g.out), acc::delete_(g.in));
    });
  host_runs("after transfers");
  std::printf("## 5. kernels only: enter_data(create) of both, three GPU runs, exit_data(delete)\n");
  acc::enter_data(acc::create(g.in), acc::create(g.out));
  gpu_runs();
  acc::exit_data(acc::delete_(g.in), acc::delete_(g.out));
  host_runs("after kernels only");
  std::printf("## 6. CUDA's own pageable copies (no acc) of both arrays, in and out, three times\n");
  {
    const std::size_t bytes = std::size_t(side) * side * sizeof(double);
    void* d = nullptr;
    CHECK(cudaMalloc(&d, 2 * bytes));
    for (int k = 0; k < 3; ++k)
      timed("cudaMemcpy", [&] {
        CHECK(cudaMemcpy(d, g.in.data(), bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(static_cast<char*>(d) + bytes, g.out.data(), bytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(g.out.data(), static_cast<char*>(d) + bytes, bytes, cudaMemcpyDeviceToHost));
      });
    CHECK(cudaFree(d));
  }
  host_runs("after CUDA's copies");
  if (!g.check()) {
    std::printf("wrong result\n");
    return 1;
  }
  return 0;
}
