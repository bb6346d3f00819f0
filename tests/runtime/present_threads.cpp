// The present table under several host threads, against a scripted device: the runtime is compiled
// into this file (header-only, g++), and its device operations are replaced by ones over host
// memory whose copies can be held up, so that the table's GPU paths (enter_action's allocation and
// copy-in outside the table's lock, the frees) run on any machine, at chosen moments. The device
// number is one no other code uses. A GPU runs the same path in 13_present_model's thread cases.
#include <acc/data.hpp>
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <exception>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using acc::detail::data_kind;
using acc::detail::host_span;
using acc::detail::ref_counter;

constexpr int device = 7;

/// What the scripted device did, and what its next copies do.
struct script {
  std::atomic<int> allocs{0}, releases{0}, copies{0};
  std::atomic<const void*> hold_source{nullptr};  // a copy-in from here waits for `go` (at most 10 s)
  std::atomic<const void*> fail_source{nullptr};  // a copy-in from here throws, once
  std::atomic<bool> holding{false}, go{false}, released_on_time{false};
};
script* active = nullptr;

void* fake_alloc(int, std::size_t bytes, int, const std::string&, const acc::detail::call_site&) {
  ++active->allocs;
  return ::operator new(bytes);
}
void fake_release(int, void* p, int) noexcept {
  ++active->releases;
  ::operator delete(p);
}
void fake_to_device(int, void* dst, const void* src, std::size_t bytes, int, acc::detail::host_memory,
                    const acc::detail::call_site&) {
  if (src == active->hold_source.load()) {
    active->holding = true;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!active->go && std::chrono::steady_clock::now() < until) std::this_thread::yield();
    active->released_on_time = active->go.load();
  }
  const void* failing = src;
  if (active->fail_source.compare_exchange_strong(failing, nullptr)) throw std::runtime_error("scripted copy failure");
  ++active->copies;
  std::memcpy(dst, src, bytes);
}
void fake_to_host(int, void* dst, const void* src, std::size_t bytes, int, acc::detail::host_memory,
                  const acc::detail::call_site&) {
  std::memcpy(dst, src, bytes);
}
void fake_wait(int, int, const acc::detail::call_site&) {}

/// Installs the scripted device for one test case and puts the real operations back after it.
class scripted_device {
public:
  scripted_device() {
    ops_.alloc = fake_alloc;
    ops_.release = fake_release;
    ops_.to_device = fake_to_device;
    ops_.to_host = fake_to_host;
    ops_.wait = fake_wait;
    active = &script_;
    before_ = acc::detail::state().cuda.exchange(&ops_);
  }
  ~scripted_device() {
    // What a failed case left on the device goes, so that the next case starts from nothing.
    auto& st = acc::detail::state();
    {
      std::lock_guard lock(st.present_mutex);
      for (auto& [begin, e] : st.present[device]) fake_release(device, e.device, acc::detail::queue_sync);
      st.present.erase(device);
      st.present_generation.fetch_add(1);
    }
    st.cuda.store(before_);
    active = nullptr;
  }
  script& operator*() { return script_; }
  script* operator->() { return &script_; }

private:
  acc::detail::device_ops ops_{};
  script script_;
  const acc::detail::device_ops* before_ = nullptr;
};

acc::detail::call_site site(const char* construct = "enter_data") { return {construct}; }

bool enter(const host_span& s, data_kind kind = data_kind::copyin) {
  return acc::detail::enter_action(device, kind, s, ref_counter::dynamic, acc::detail::queue_sync, site());
}
void exit_delete(const host_span& s) {
  acc::detail::exit_action(device, data_kind::delete_, s, ref_counter::dynamic, false, acc::detail::queue_sync,
                           site("exit_data"));
}
const double* device_copy(const host_span& s) {
  return static_cast<const double*>(acc::detail::present_address(device, s));
}

/// A thread that enters `s`; what it throws lands in `failure`.
std::thread enter_on_thread(const host_span& s, std::exception_ptr& failure) {
  return std::thread([s, &failure] {
    try {
      enter(s);
    } catch (...) {
      failure = std::current_exception();
    }
  });
}

/// Waits for `flag` at most 10 s: whether it came.
bool wait_until(const std::atomic<bool>& flag) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!flag && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  return flag;
}

}  // namespace

TEST_CASE("another thread's data actions go on while an enter copies in", "[runtime][present][threads]") {
  scripted_device d;
  std::vector<double> a(4099, 1.0), b(97, 2.0);
  const host_span sa{a.data(), a.size() * sizeof(double), "a"}, sb{b.data(), b.size() * sizeof(double), "b"};
  d->hold_source = a.data();
  std::exception_ptr failure;
  std::thread entering = enter_on_thread(sa, failure);
  if (!wait_until(d->holding)) d->go = true;
  // While a's copy-in is held up: a is not present yet, and b enters and leaves.
  const bool a_absent_meanwhile = device_copy(sa) == nullptr;
  enter(sb);
  const double* b_copy = device_copy(sb);
  const bool b_copied = b_copy && b_copy[0] == 2.0 && b_copy[96] == 2.0;
  exit_delete(sb);
  const bool b_gone = device_copy(sb) == nullptr;
  d->go = true;
  entering.join();
  if (failure) std::rethrow_exception(failure);

  REQUIRE(d->released_on_time);  // b's actions did not wait for a's copy
  REQUIRE(a_absent_meanwhile);
  REQUIRE(b_copied);
  REQUIRE(b_gone);
  const double* a_copy = device_copy(sa);
  REQUIRE(a_copy != nullptr);
  REQUIRE(std::vector<double>(a_copy, a_copy + a.size()) == a);
  exit_delete(sa);
  REQUIRE(device_copy(sa) == nullptr);
  REQUIRE(d->allocs == 2);
  REQUIRE(d->releases == 2);
}

TEST_CASE("threads entering the same data at once make one device copy with a reference each",
          "[runtime][present][threads]") {
  scripted_device d;
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(4099));
  constexpr int threads = 6;
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.5 * double(i) - 3.0;
  const host_span sx{x.data(), n * sizeof(double), "x"};
  d->hold_source = x.data();
  std::vector<const double*> seen(threads, nullptr);
  std::vector<std::exception_ptr> failure(threads);
  std::atomic<int> started{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        ++started;
        enter(sx);
        seen[t] = device_copy(sx);
      } catch (...) {
        failure[t] = std::current_exception();
      }
    });
  // The first enter holds its copy until every thread has started; the others find the range
  // being entered and wait for it.
  const bool held = wait_until(d->holding);
  while (started < threads) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  d->go = true;
  for (auto& th : pool) th.join();
  for (auto& e : failure)
    if (e) std::rethrow_exception(e);

  REQUIRE(held);
  REQUIRE(d->allocs == 1);
  REQUIRE(d->copies == 1);
  for (int t = 0; t < threads; ++t) {
    INFO("thread " << t);
    REQUIRE(seen[t] != nullptr);
    REQUIRE(seen[t] == seen[0]);
  }
  REQUIRE(std::vector<double>(seen[0], seen[0] + n) == x);
  for (int t = 0; t < threads; ++t) {
    REQUIRE(device_copy(sx) == seen[0]);  // a reference left for each exit still to come
    exit_delete(sx);
  }
  REQUIRE(device_copy(sx) == nullptr);
  REQUIRE(d->releases == 1);
}

TEST_CASE("an enter whose copy-in fails leaves nothing, and the enter that waited on it makes its own",
          "[runtime][present][threads]") {
  scripted_device d;
  std::vector<double> x(1000, 4.0);
  const host_span sx{x.data(), x.size() * sizeof(double), "x"};
  d->hold_source = x.data();
  d->fail_source = x.data();
  std::exception_ptr first_failure;
  std::thread first = enter_on_thread(sx, first_failure);
  const bool held = wait_until(d->holding);
  std::exception_ptr second_failure;
  std::thread second = enter_on_thread(sx, second_failure);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  d->go = true;
  first.join();
  second.join();
  if (second_failure) std::rethrow_exception(second_failure);

  REQUIRE(held);
  REQUIRE(first_failure);
  REQUIRE_THROWS_WITH(std::rethrow_exception(first_failure), "scripted copy failure");
  REQUIRE(d->allocs == 2);
  REQUIRE(d->releases == 1);  // the failed enter's allocation
  const double* copy = device_copy(sx);
  REQUIRE(copy != nullptr);
  REQUIRE(std::vector<double>(copy, copy + x.size()) == x);
  exit_delete(sx);
  REQUIRE(device_copy(sx) == nullptr);
  REQUIRE(d->releases == 2);
}

TEST_CASE("an enter or a mapping that overlaps data another thread is entering is refused once it is in",
          "[runtime][present][threads]") {
  scripted_device d;
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(97));
  std::vector<double> buffer(2 * n + 1, 1.5);
  const host_span low{buffer.data(), (n + 1) * sizeof(double), "low"};
  const host_span high{buffer.data() + n, (n + 1) * sizeof(double), "high"};  // shares element n
  d->hold_source = buffer.data();
  std::exception_ptr failure;
  std::thread entering = enter_on_thread(low, failure);
  const bool held = wait_until(d->holding);
  std::string enter_error, map_error;
  std::vector<double> program_memory(n + 1);
  std::thread overlapping([&] {
    try {
      enter(high);
    } catch (const acc::not_present_error& e) {
      enter_error = e.what();
    }
    try {
      acc::detail::map_action(device, high, program_memory.data(), site("map_data"));
    } catch (const acc::error& e) {
      map_error = e.what();
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  d->go = true;
  entering.join();
  overlapping.join();
  if (failure) std::rethrow_exception(failure);

  INFO(enter_error << " / " << map_error);
  REQUIRE(held);
  REQUIRE(enter_error.find("'high' (") != std::string::npos);
  REQUIRE(enter_error.find("is only partly present on device 7") != std::string::npos);
  REQUIRE(map_error.find("'high' is already present on device 7") != std::string::npos);
  REQUIRE(d->allocs == 1);
  REQUIRE(device_copy(low) != nullptr);
  REQUIRE(device_copy(high) == nullptr);
  exit_delete(low);
  REQUIRE(device_copy(low) == nullptr);
  REQUIRE(d->releases == 1);
}

// An acc::array's last owner tells the runtime its host memory goes (forget_host_range): every
// entry inside it leaves the table, and its device copy is freed, whatever its counts.
TEST_CASE("host memory about to be freed takes its device copies with it", "[runtime][present]") {
  scripted_device d;
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(4099));
  std::vector<double> x(2 * n, 3.0);
  const host_span first{x.data(), n * sizeof(double), "first"}, second{x.data() + n, n * sizeof(double), "second"};
  enter(first);
  enter(first);
  enter(second);
  REQUIRE(d->allocs == 2);
  acc::detail::forget_host_range(x.data() + n - 1, 2 * sizeof(double));  // one element of each
  REQUIRE(device_copy(first) == nullptr);
  REQUIRE(device_copy(second) == nullptr);
  REQUIRE(d->releases == 2);
}

// A data region naming one array in several clauses (copyout(a) and copy(a), say): the first
// clause allocates, so it also copies in and out for the later ones (merge_repeated), as
// compilers merge such clauses. The scripted device shows the copies.
TEST_CASE("one array in a region's copyout and copy clauses is copied in and out once", "[runtime][present]") {
  scripted_device d;
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(4099));
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 0.25 * double(i) + 1.0;
  const host_span sx{x.data(), n * sizeof(double), "x"};
  acc::detail::data_action actions[2] = {{data_kind::copyout, sx, 0, false}, {data_kind::copy, sx, 0, false}};
  acc::detail::merge_repeated(actions, 2);
  acc::detail::enter_actions(actions, 2, device, ref_counter::structured, acc::detail::queue_sync, site("data"));
  const double* copy = device_copy(sx);
  REQUIRE(copy != nullptr);
  REQUIRE(d->allocs == 1);
  REQUIRE(d->copies == 1);  // copy's copy-in, done by copyout's entry
  REQUIRE(std::vector<double>(copy, copy + n) == x);
  for (std::size_t i = 0; i < n; ++i) const_cast<double*>(copy)[i] = -double(i);
  acc::detail::exit_region(actions, 2, device, acc::detail::queue_sync, true, site("data"));
  REQUIRE(device_copy(sx) == nullptr);
  REQUIRE(d->releases == 1);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(x[i] == -double(i));  // copied out once the last reference went
}

// acc::hostptr on a GPU: the host address of a device address inside a present range's copy,
// and none for the address one past its end.
TEST_CASE("host_address maps the device copy's addresses, and not the one past its end", "[runtime][present]") {
  scripted_device d;
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(97));
  std::vector<double> x(n, 2.0);
  const host_span sx{x.data(), n * sizeof(double), "x"};
  enter(sx);
  const double* copy = device_copy(sx);
  REQUIRE(copy != nullptr);
  REQUIRE(acc::detail::host_address(device, copy) == x.data());
  REQUIRE(acc::detail::host_address(device, copy + (n - 1)) == x.data() + (n - 1));
  REQUIRE(acc::detail::host_address(device, copy + n) == nullptr);
  exit_delete(sx);
  REQUIRE(acc::detail::host_address(device, copy) == nullptr);
}
