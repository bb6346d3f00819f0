// A construct compiled without nvcc (this file: g++, header-only) in a program whose current
// device is a GPU: it runs on the host, and must read and leave the GPU's copies of the present
// arrays it captures, as OpenACC's compute constructs use the device copy of present data. A
// stand-in GPU over host memory (separate allocations, so a stale host copy shows) replaces the
// runtime's device operations for each case, so this runs on any machine.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include "support/arrays.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct counts {
  int allocs = 0, to_device = 0, to_host = 0;
};
counts* active = nullptr;

namespace gpu {
int device_count() noexcept { return 1; }
void wait(int, int, const acc::detail::call_site&) {}
void wait_all(int, const acc::detail::call_site&) {}
bool test(int, int, const acc::detail::call_site&) { return true; }
void wait_async(int, int, int, const acc::detail::call_site&) {}
void* alloc(int, std::size_t bytes, int, const std::string&, const acc::detail::call_site&) {
  ++active->allocs;
  void* p = std::malloc(bytes ? bytes : 1);
  std::memset(p, 0xAB, bytes);  // not the host's values
  return p;
}
void release(int, void* p, int) noexcept { std::free(p); }
void to_device(int, void* dst, const void* src, std::size_t bytes, int, acc::detail::host_memory,
               const acc::detail::call_site&) {
  ++active->to_device;
  std::memcpy(dst, src, bytes);
}
void to_host(int, void* dst, const void* src, std::size_t bytes, int, acc::detail::host_memory,
             const acc::detail::call_site&) {
  ++active->to_host;
  std::memcpy(dst, src, bytes);
}
bool pin(const void*, std::size_t) noexcept { return false; }
void unpin(const void*) noexcept {}
void mem_info(int, std::size_t* free, std::size_t* total) noexcept {
  *free = std::size_t(1) << 30;
  *total = std::size_t(1) << 31;
}
void fill_zero(int, void* p, std::size_t bytes, int, const acc::detail::call_site&) { std::memset(p, 0, bytes); }
bool test_all(int, const acc::detail::call_site&) { return true; }
void init_device(int, const acc::detail::call_site&) {}
}  // namespace gpu

/// Makes the stand-in the current device for one test case (this thread's device type unset,
/// so the runtime places constructs on it) and puts the runtime back after it.
class stand_in_gpu {
public:
  stand_in_gpu() {
    ops_.device_count = gpu::device_count;
    ops_.wait = gpu::wait;
    ops_.wait_all = gpu::wait_all;
    ops_.test = gpu::test;
    ops_.wait_async = gpu::wait_async;
    ops_.alloc = gpu::alloc;
    ops_.release = gpu::release;
    ops_.to_device = gpu::to_device;
    ops_.to_host = gpu::to_host;
    ops_.pin = gpu::pin;
    ops_.unpin = gpu::unpin;
    ops_.mem_info = gpu::mem_info;
    ops_.fill_zero = gpu::fill_zero;
    ops_.test_all = gpu::test_all;
    ops_.init_device = gpu::init_device;
    active = &counts_;
    auto& st = acc::detail::state();
    before_ = st.cuda.exchange(&ops_);
    count_before_ = st.nvidia_count.exchange(-1);
  }
  ~stand_in_gpu() {
    auto& st = acc::detail::state();
    st.cuda.store(before_);
    st.nvidia_count.store(count_before_);
    active = nullptr;
  }
  const counts& operator*() const { return counts_; }
  const counts* operator->() const { return &counts_; }

private:
  acc::detail::device_ops ops_{};
  counts counts_;
  const acc::detail::device_ops* before_ = nullptr;
  int count_before_ = -1;
};

}  // namespace

TEST_CASE("a construct compiled for the host, GPU current: writes inside a data region reach the GPU's copy",
          "[runtime][mixed]") {
  for (const std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(1021)}) {
    INFO("n = " << n);
    std::vector<double> x(n);
    acc_test::fill_random(x, 1, -10.0, 10.0);
    std::vector<double> expect(n);
    for (std::size_t i = 0; i < n; ++i) expect[i] = 2 * x[i] + 1;
    stand_in_gpu gpu;
    REQUIRE(acc::get_device_type() == acc::device_type::nvidia);
    acc::array<double> a("a", n);
    for (std::size_t i = 0; i < n; ++i) a[i] = x[i];
    {
      acc::data region{acc::copy(a)};
      acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(std::size_t i) { a[i] = 2 * a[i]; });
      acc::parallel_loop(n, ACC_LAMBDA(std::size_t i) { a[i] += 1; });
      // Inside the region the GPU's copy holds the results (the host's is stale by OpenACC's
      // rules; here it is whatever the host run last copied back).
      const double* device = acc::deviceptr(a);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(device[i] == expect[i]);
    }
    // The region's copy-out brings the GPU's copy back.
    for (std::size_t i = 0; i < n; ++i) REQUIRE(a[i] == expect[i]);
  }
}

TEST_CASE("a construct compiled for the host, GPU current: reads the GPU's copy of present data, not the host's",
          "[runtime][mixed]") {
  const std::size_t n = 97;
  std::vector<double> x(n);
  acc_test::fill_random(x, 2, -10.0, 10.0);
  stand_in_gpu gpu;
  acc::array<double> a("a", n), out("out", n);
  for (std::size_t i = 0; i < n; ++i) a[i] = x[i];
  acc::enter_data(acc::copyin(a));
  for (std::size_t i = 0; i < n; ++i) a[i] = -1;  // the host's copy changes; the GPU's does not
  const acc::view<const double> av = a;
  acc::parallel_loop(n, ACC_LAMBDA(std::size_t i) { out[i] = av[i] * 3; });
  for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == x[i] * 3);
  double total = 0, expect = 0;
  for (std::size_t i = 0; i < n; ++i) expect += x[i];
  acc::parallel_loop(n, acc::default_present, acc::reduction(acc::plus, total),
                     ACC_LAMBDA(std::size_t i, double& s) { s += av[i]; });
  REQUIRE(total == Approx(expect).epsilon(1e-12));
  // The host run read the GPU's copy through the host's (an update_self, as acc::adaptive's host
  // runs make); a const capture is not copied back.
  for (std::size_t i = 0; i < n; ++i) REQUIRE(a[i] == x[i]);
  const int to_device = gpu->to_device;
  acc::exit_data(acc::delete_(a));
  REQUIRE(gpu->to_device == to_device);
}

TEST_CASE("a construct compiled for the host, GPU current: absent arrays run as on the host, with no transfers",
          "[runtime][mixed]") {
  const std::size_t n = 31;
  stand_in_gpu gpu;
  acc::array<int> a("a", n);
  for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<int>(i);
  acc::parallel_loop(n, ACC_LAMBDA(std::size_t i) { a[i] *= 5; });
  for (std::size_t i = 0; i < n; ++i) REQUIRE(a[i] == static_cast<int>(5 * i));
  REQUIRE(gpu->allocs == 0);
  REQUIRE(gpu->to_device == 0);
  REQUIRE(gpu->to_host == 0);
  REQUIRE_THROWS_AS(acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(std::size_t i) { a[i] = 0; }),
                    acc::not_present_error);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(a[i] == static_cast<int>(5 * i));
  acc::parallel_loop(0, ACC_LAMBDA(std::size_t i) { a[i] = 0; });
  REQUIRE(gpu->to_host == 0);
}

TEST_CASE("a program with no CUDA backend says so when asked for a GPU", "[runtime][mixed]") {
  // This executable has no nvcc-compiled unit, so no CUDA backend registered itself: the error
  // says that, rather than that the machine has no GPU.
  REQUIRE(acc::detail::state().cuda.load() == nullptr);
  REQUIRE_THROWS_WITH(acc::set_device_type(acc::device_type::nvidia),
                      Catch::Contains("no NVIDIA GPU is available: this program has no CUDA backend (none of its "
                                      "source files was compiled as CUDA: a .cu file, or nvcc -x cu)"));
  REQUIRE(acc::get_device_type() == acc::device_type::host);
}

TEST_CASE("an array scan compiled for the host, GPU current: scans the GPU's copies", "[runtime][mixed]") {
  for (const std::size_t n : {std::size_t(1), std::size_t(97)}) {
    INFO("n = " << n);
    stand_in_gpu gpu;
    acc::array<long> in("in", n), out("out", n);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<long>(i % 7) - 3;
    std::vector<long> expect(n);
    long sum = 0;
    for (std::size_t i = 0; i < n; ++i) expect[i] = sum += in[i];
    {
      acc::data region{acc::copyin(in), acc::copyout(out)};
      for (std::size_t i = 0; i < n; ++i) in[i] = 1000;  // stale on the host; the GPU's copy holds the input
      acc::inclusive_scan(in, out);
      const long* device = acc::deviceptr(out);
      for (std::size_t i = 0; i < n; ++i) REQUIRE(device[i] == expect[i]);
    }
    for (std::size_t i = 0; i < n; ++i) REQUIRE(out[i] == expect[i]);
  }
}
