// The cost of acc::adaptive's own machinery per call, on a machine without a GPU: a simulated
// GPU (device memory is host memory, a "kernel" is the host run plus a fixed launch latency)
// is registered in place of CUDA, so an adaptive call takes the whole path it takes on a GPU
// machine (residency probe, policy, timing, implicit data or host coherence). Per size and
// data setting it prints the median microseconds per call of the fixed host run, the fixed
// "GPU" run and the adaptive one, and adaptive / the better fixed one; then acc's report.
// Build: g++ -O3 -std=c++20 -fopenmp -Iinclude bench/host_adaptive.cpp -o host_adaptive
// Run:   ./host_adaptive [calls per size] [log2 sizes...]   (sizes: 4 10 14 16 unless given)
//        ./host_adaptive --only host|adaptive CALLS LOG2SIZE: the mean per call of one kind alone,
//        host-resident, after adaptive's warm-up (for perf stat: instructions per call of each)
#include <acc/data.hpp>
#include <acc/parallel.hpp>
#include <acc/detail/selection.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace d = acc::detail;
using clock_type = std::chrono::steady_clock;

// ---- the simulated GPU ----------------------------------------------------------------------

constexpr double launch_latency = 8e-6;  // what a launch and its synchronisation cost

void spin(double seconds) {
  const auto until = clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
  while (clock_type::now() < until) {
  }
}

int sim_count() noexcept { return 1; }
void sim_wait(int, int, const d::call_site&) {}
void sim_wait_all(int, const d::call_site&) {}
bool sim_test(int, int, const d::call_site&) { return true; }
void sim_wait_async(int, int, int, const d::call_site&) {}
void* sim_alloc(int, std::size_t bytes, int, const std::string&, const d::call_site&) { return std::malloc(bytes ? bytes : 1); }
void sim_release(int, void* p, int) noexcept { std::free(p); }
void sim_copy(int, void* dst, const void* src, std::size_t bytes, int, d::host_memory, const d::call_site&) {
  std::memcpy(dst, src, bytes);
  spin(2e-6);  // a copy's latency
}
bool sim_pin(const void*, std::size_t) noexcept { return false; }
void sim_unpin(const void*) noexcept {}
void sim_mem_info(int, std::size_t* free, std::size_t* total) noexcept { *free = *total = std::size_t(1) << 34; }
void* sim_symbol(int, const void*, const d::call_site&) { throw std::runtime_error("no symbols on the simulated GPU"); }
void sim_peer(int, void*, int, const void*, std::size_t, int, const d::call_site&) {}
void sim_begin(int, int, const d::call_site&) {}
void* sim_end(int, int, bool, const d::call_site&) { return nullptr; }
void sim_graph(int, int, void*, const d::call_site&) {}
void sim_destroy_graph(int, void*) noexcept {}
void sim_fill(int, void* p, std::size_t bytes, int, const d::call_site&) { std::memset(p, 0, bytes); }
void* sim_malloc(int, std::size_t bytes, const d::call_site&) { return std::malloc(bytes); }
void sim_free(int, void* p) noexcept { std::free(p); }
bool sim_test_all(int, const d::call_site&) { return true; }
std::string sim_name(int) { return "simulated"; }
std::string sim_driver() { return "0"; }
void sim_init(int, const d::call_site&) {}
void sim_shutdown(int, const d::call_site&) {}
void sim_wait_all_async(int, int, const d::call_site&) {}

const d::device_ops simulated{&sim_count, &sim_wait, &sim_wait_all, &sim_test, &sim_wait_async, &sim_alloc,
                              &sim_release, &sim_copy, &sim_copy, &sim_pin, &sim_unpin, &sim_mem_info, &sim_symbol,
                              &sim_peer, &sim_begin, &sim_end, &sim_graph, &sim_destroy_graph, &sim_fill,
                              &sim_malloc, &sim_free, &sim_test_all, &sim_name, &sim_driver, &sim_init,
                              &sim_shutdown, &sim_wait_all_async};

/// The "GPU" run of a construct: the host run on the device copies (host memory), after the
/// launch latency.
template <class Task, class Body>
void sim_kernel(const void* task, const void* body, const d::launch_context& ctx, void* result, const void*) {
  spin(launch_latency);
  d::entry_of<Task, Body>.run_host(task, body, ctx, result);
}

template <class Task, class Body>
d::construct_entry sim_entry() {
  d::construct_entry e = d::entry_of<Task, Body>;
  e.nvidia = {&sim_kernel<Task, Body>, nullptr};
  return e;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

enum mode { fixed_host, fixed_gpu, adaptive_choice };

/// A stream triad of n elements through the dispatch path, placed as `m` says.
struct triad {
  acc::array<double> a, b, c;
  explicit triad(std::int64_t n) : a(n), b(n), c(n) {
    for (std::int64_t i = 0; i < n; ++i) a[i] = 0, b[i] = 0.5, c[i] = double(i % 7);
  }
  void run(mode m) {
    acc::view<double> a = this->a;
    acc::view<const double> b = this->b, c = this->c;
    const auto body = [=](std::int64_t i) { a[i] = b[i] + 0.4 * c[i]; };
    static const d::call_site site{"parallel_loop", std::source_location::current()};
    const auto [space, total] = d::space_of(a.size(), site);
    using task_t = d::loop_task<std::remove_const_t<decltype(space)>>;
    const task_t task{{}, space, total};
    static const d::construct_entry entry = sim_entry<task_t, decltype(body)>();
    d::launch_spec spec;
    spec.if_ = m != fixed_host;
    if (m == adaptive_choice) spec.select = d::select_adaptive;
    alignas(decltype(body)) unsigned char copy[sizeof(body)];
    d::run_construct(entry, &task, false, total, spec, &body, copy, nullptr, site, nullptr);
  }
  bool check() const {
    for (std::int64_t i = 0; i < a.size(); ++i)
      if (a[i] != 0.5 + 0.4 * double(i % 7)) return false;
    return true;
  }
};

template <class F>
double seconds_of(F&& f) {
  const auto t0 = clock_type::now();
  f();
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  d::register_cuda_ops(&simulated);
  if (argc == 5 && std::strcmp(argv[1], "--only") == 0) {
    const mode m = std::strcmp(argv[2], "adaptive") == 0 ? adaptive_choice : fixed_host;
    const long calls = std::atol(argv[3]);
    triad k(std::int64_t(1) << std::atoi(argv[4]));
    for (int i = 0; i < 100; ++i) k.run(adaptive_choice);  // adaptive's warm-up either way
    const double s = seconds_of([&] {
      for (long i = 0; i < calls; ++i) k.run(m);
    });
    std::printf("%s: %.1f ns per call\n", argv[2], s / double(calls) * 1e9);
    std::fprintf(stderr, "%s", d::selection_report().c_str());
    return k.check() ? 0 : 1;
  }
  const int calls = argc > 1 ? std::atoi(argv[1]) : 2001;
  std::vector<int> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {4, 10, 14, 16};
  std::printf("# median us per call over %d calls; the simulated GPU: host memory, host kernels, %.0f us launches\n",
              calls, launch_latency * 1e6);
  std::printf("%-15s %-5s %10s %10s %10s %8s\n", "data", "size", "host", "gpu", "adaptive", "ratio");
  bool ok = true;
  {
    // The same arrays first on the host, then present: a call must see the change (the
    // present table's generation), not its memo of the host-resident calls before, or it runs
    // on the host copies and exit_data's copyout brings back the stale device copy of a.
    triad k(1 << 10);
    for (int i = 0; i < 50; ++i) k.run(adaptive_choice);
    std::fill(k.a.begin(), k.a.end(), 0.0);
    acc::enter_data(acc::copyin(k.a), acc::copyin(k.b), acc::copyin(k.c));
    for (int i = 0; i < 50; ++i) k.run(adaptive_choice);
    acc::exit_data(acc::copyout(k.a), acc::delete_(k.b), acc::delete_(k.c));
    if (!k.check()) std::printf("WRONG: adaptive missed that its data became present\n");
    ok = ok && k.check();
  }
  for (int resident = 0; resident < 2; ++resident)
    for (int e : sizes) {
      const std::int64_t n = std::int64_t(1) << e;
      triad k(n);
      if (resident) acc::enter_data(acc::copyin(k.a), acc::copyin(k.b), acc::copyin(k.c));
      std::vector<double> t[3];
      for (int i = 0; i < 20; ++i) k.run(adaptive_choice);  // adaptive's warm-up
      // Each mode's calls in a row, so that no mode is timed right after another's (threads
      // asleep, caches cold); the rounds take turns so that a slow spell hits all alike.
      for (int round = 0; round < 10; ++round)
        for (int m = 0; m < 3; ++m)
          for (int i = 0; i < calls / 10; ++i) {
            const auto one = [&] {
              if (resident && m == fixed_host) {
                acc::update_self(k.a), acc::update_self(k.b), acc::update_self(k.c);
                k.run(mode(m));
                acc::update_device(k.a);
              } else {
                k.run(mode(m));
              }
            };
            const double s = seconds_of(one);
            if (i) t[m].push_back(s);
          }
      if (resident) acc::exit_data(acc::copyout(k.a), acc::delete_(k.b), acc::delete_(k.c));
      ok = ok && k.check();
      const double h = median(t[0]), g = median(t[1]), a = median(t[2]);
      std::printf("%-15s 2^%-3d %10.2f %10.2f %10.2f %8.3f\n", resident ? "device-resident" : "host-resident", e,
                  h * 1e6, g * 1e6, a * 1e6, a / std::min(h, g));
    }
  std::printf("\n%s", d::selection_report().c_str());
  return ok ? 0 : 1;
}
