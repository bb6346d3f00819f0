// Level 13: a property test of the present table. Random programs of enter_data, exit_data
// (with and without finalize), update_device / update_self and nested data regions over
// overlapping sections of several arrays run against a model of OpenACC's rules (3.3 §2.6.7,
// §2.7.2): a section inside a present range shares its entry and its two reference counts;
// one that overlaps a present range without lying inside it is an error that changes
// nothing; exit_data gives back a dynamic reference (all of them with finalize) and the data
// leaves when both counts are 0, and exit_data of absent data does nothing (§2.7.1); a region's clauses take structured references, given back at
// its end, and a region that fails on entry leaves nothing behind. After every step each
// array's presence is compared with the model's, section by section. Fixed seed: a failure
// names its case, which replays alone.
#include <acc/parallel.hpp>
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int arrays = 3;
constexpr int extents[arrays] = {23, 64, 9};

/// A present range of the model: elements [lo, hi) of one array and its reference counts.
struct entry {
  int array, lo, hi;
  int structured = 0, dynamic = 0;
};

/// A section: elements [lo, lo + len) of one array, len >= 1.
struct piece {
  int array, lo, len;
  int hi() const { return lo + len; }
};

enum class found { inside, overlaps, absent };

class model {
public:
  /// Whether p lies in one entry (that entry's index in *at), overlaps one without lying in
  /// it, or touches none.
  found find(const piece& p, std::size_t* at = nullptr) const {
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      const entry& e = entries_[k];
      if (e.array != p.array || p.hi() <= e.lo || e.hi <= p.lo) continue;
      if (e.lo <= p.lo && p.hi() <= e.hi) {
        if (at) *at = k;
        return found::inside;
      }
      return found::overlaps;
    }
    return found::absent;
  }
  bool present(const piece& p) const { return find(p) == found::inside; }

  /// A clause's entry: false (and no change) where it must fail. *took: a reference taken.
  bool enter(const piece& p, bool structured, bool must_be_present, bool no_create, bool* took) {
    *took = false;
    std::size_t k = 0;
    switch (find(p, &k)) {
      case found::overlaps:
        return false;
      case found::inside:
        ++(structured ? entries_[k].structured : entries_[k].dynamic);
        *took = true;
        return true;
      case found::absent:
        if (must_be_present) return false;
        if (no_create) return true;
        entry e{p.array, p.lo, p.hi()};
        (structured ? e.structured : e.dynamic) = 1;
        entries_.push_back(e);
        *took = true;
        return true;
    }
    return false;
  }

  /// exit_data of p: false where it must fail (p overlaps present data without lying inside
  /// it); absent data is no action.
  bool exit_dynamic(const piece& p, bool finalize) {
    std::size_t k = 0;
    const found where = find(p, &k);
    if (where == found::absent) return true;
    if (where == found::overlaps) return false;
    entry& e = entries_[k];
    if (e.dynamic == 0) return true;
    e.dynamic = finalize ? 0 : e.dynamic - 1;
    drop_if_unused(k);
    return true;
  }

  /// The end of a region's clause that took a reference.
  void exit_structured(const piece& p) {
    std::size_t k = 0;
    REQUIRE(find(p, &k) == found::inside);
    if (entries_[k].structured > 0) --entries_[k].structured;
    drop_if_unused(k);
  }

private:
  void drop_if_unused(std::size_t k) {
    if (entries_[k].structured == 0 && entries_[k].dynamic == 0) entries_.erase(entries_.begin() + static_cast<long>(k));
  }
  std::vector<entry> entries_;
};

/// One random program over fresh arrays, run against the model.
class program {
public:
  explicit program(unsigned seed) : rng_(seed) {
    static const char* const labels[arrays] = {"m0", "m1", "m2"};
    for (int a = 0; a < arrays; ++a) data_.emplace_back(labels[a], extents[a]);
  }

  void run() {
    for (int step = 0; step < 24; ++step) one_step(0);
  }

  std::string log() const { return log_.str(); }
  /// How many presence comparisons were made.
  long checks() const { return checks_; }

private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  /// Sections cluster on a few boundaries so that they often coincide, nest and overlap.
  piece random_piece() {
    const int a = pick(0, arrays - 1), n = extents[a];
    const int cuts[] = {0, n / 4, n / 3, n / 2, n - 1};
    int lo = pick(0, 2) == 0 ? pick(0, n - 1) : cuts[pick(0, 4)];
    int len = pick(0, 2) == 0 ? pick(1, n - lo) : (pick(0, 1) ? n - lo : (n / 4 > 0 ? n / 4 : 1));
    if (lo + len > n) len = n - lo;
    return {a, lo, len};
  }

  acc::section_t<int> section_of(const piece& p) { return acc::section(data_[p.array], p.lo, p.len); }

  std::string text(const piece& p) const {
    return "m" + std::to_string(p.array) + "[" + std::to_string(p.lo) + ":" + std::to_string(p.len) + "]";
  }

  /// Presence of every array's sections against the model: a few random ones and each whole
  /// array.
  void check_presence() {
    checks_ += 6 + arrays;
    for (int k = 0; k < 6; ++k) {
      const piece p = random_piece();
      if (acc::is_present(section_of(p)) != model_.present(p))
        FAIL(log() << "is_present(" << text(p) << ") is " << !model_.present(p) << ", the model says "
                   << model_.present(p));
    }
    for (int a = 0; a < arrays; ++a)
      if (acc::is_present(data_[a]) != model_.present(piece{a, 0, extents[a]}))
        FAIL(log() << "is_present(m" << a << ") differs from the model");
  }

  /// Runs f, which must succeed (ok) or throw acc::not_present_error and change nothing.
  template <class F>
  void expect(bool ok, const F& f) {
    if (ok) {
      f();  // an exception reaches the test case, which prints the log
      return;
    }
    try {
      f();
    } catch (const acc::not_present_error&) {
      return;
    }
    FAIL(log() << "expected acc::not_present_error");
  }

  void one_step(int depth) {
    const int what = pick(0, depth < 3 ? 9 : 7);
    const piece p = random_piece();
    if (what <= 2) {  // enter_data
      const bool create = pick(0, 1);
      bool took = false;
      const bool ok = model_.enter(p, false, false, false, &took);
      log_ << "enter_data(" << (create ? "create" : "copyin") << " " << text(p) << ")" << (ok ? "" : " fails") << "\n";
      const auto run = [&] {
        if (create) acc::enter_data(acc::create(section_of(p)));
        else acc::enter_data(acc::copyin(section_of(p)));
      };
      expect(ok, run);
    } else if (what <= 4) {  // exit_data
      const bool copyout = pick(0, 1), finalize = pick(0, 3) == 0;
      const bool ok = model_.exit_dynamic(p, finalize);
      log_ << "exit_data(" << (copyout ? "copyout" : "delete") << " " << text(p) << (finalize ? ", finalize" : "")
           << ")" << (ok ? "" : " fails") << "\n";
      const auto run = [&] {
        if (copyout && finalize) acc::exit_data(acc::copyout(section_of(p)), acc::finalize);
        else if (copyout) acc::exit_data(acc::copyout(section_of(p)));
        else if (finalize) acc::exit_data(acc::delete_(section_of(p)), acc::finalize);
        else acc::exit_data(acc::delete_(section_of(p)));
      };
      expect(ok, run);
    } else if (what <= 7) {  // update
      const bool to_device = pick(0, 1);
      const bool ok = model_.present(p);
      log_ << (to_device ? "update_device(" : "update_self(") << text(p) << ")" << (ok ? "" : " fails") << "\n";
      const auto run = [&] {
        if (to_device) acc::update_device(section_of(p));
        else acc::update_self(section_of(p));
      };
      expect(ok, run);
    } else {
      region(depth);
    }
    check_presence();
  }

  /// A data region of one or two clauses around a few nested steps.
  void region(int depth) {
    const piece a = random_piece(), b = random_piece();
    const int ka = pick(0, 5), kb = pick(0, 5);  // copy, copyin, copyout, create, present, no_create
    const bool two = pick(0, 1);
    static const char* const names[] = {"copy", "copyin", "copyout", "create", "present", "no_create"};
    // The model enters the clauses in order on a copy: the region keeps it only if all succeed.
    model trial = model_;
    bool took_a = false, took_b = false;
    bool ok = trial.enter(a, true, ka == 4, ka == 5, &took_a);
    if (ok && two) ok = trial.enter(b, true, kb == 4, kb == 5, &took_b);
    log_ << "data{" << names[ka] << " " << text(a);
    if (two) log_ << ", " << names[kb] << " " << text(b);
    log_ << "}" << (ok ? "" : " fails") << "\n";
    const auto open = [&](auto&&... c) {
      if (!ok) {
        expect(false, [&] { acc::data failing(c...); });
        return;
      }
      acc::data r{c...};
      model_ = trial;
      const int steps = pick(0, 3);
      for (int s = 0; s < steps; ++s) one_step(depth + 1);
      log_ << "end data\n";
      // The clauses' structured references are given back at the end of the region.
      if (took_b) model_.exit_structured(b);
      if (took_a) model_.exit_structured(a);
    };
    const auto with = [&](int kind, const piece& p, auto&& next) {
      const auto s = section_of(p);
      switch (kind) {
        case 0: return next(acc::copy(s));
        case 1: return next(acc::copyin(s));
        case 2: return next(acc::copyout(s));
        case 3: return next(acc::create(s));
        case 4: return next(acc::present(s));
        default: return next(acc::no_create(s));
      }
    };
    if (two) with(ka, a, [&](auto ca) { with(kb, b, [&](auto cb) { open(ca, cb); }); });
    else with(ka, a, [&](auto ca) { open(ca); });
  }

  std::mt19937 rng_;
  std::vector<acc::array<int>> data_;
  model model_;
  std::ostringstream log_;
  long checks_ = 0;
};

}  // namespace

TEST_CASE("the present table follows OpenACC's reference counting on random programs", "[13][present][property]") {
  constexpr int cases = 3000;
  for (int c = 0; c < cases; ++c) {
    CAPTURE(c);
    program p(0x5eed0000u + static_cast<unsigned>(c));
    try {
      p.run();
    } catch (const std::exception& e) {
      FAIL(p.log() << "threw: " << e.what());
    }
    REQUIRE(p.checks() > 0);
  }
}

namespace {

/// One call site, launched again and again: a construct remembers what it found in the
/// present table while the table does not change, and must notice every change. Scale factors
/// are powers of two, so a GPU's fused multiply-add gives the host's result.
void scale_present(const acc::view<double>& v, double by) {
  acc::parallel_loop(v.size(), acc::default_present, ACC_LAMBDA(std::size_t i) { v[i] = v[i] * by + 1.0; });
}

/// On the host: tells the thread that waits on `stage` that the body has begun (1), then waits
/// until that thread lets it end (2). A kernel never calls it (its constructs run on the host
/// device), but nvcc compiles the bodies for the device too.
ACC_ROUTINE inline void hand_over(int* stage) {
#if defined(__CUDA_ARCH__)
  (void)stage;
#else
  __atomic_store_n(stage, 1, __ATOMIC_RELEASE);
  while (__atomic_load_n(stage, __ATOMIC_ACQUIRE) != 2) std::this_thread::yield();
#endif
}

void wait_for_stage(const int* stage, int value) {
  while (__atomic_load_n(stage, __ATOMIC_ACQUIRE) != value) std::this_thread::yield();
}

}  // namespace

// OpenACC 3.3 §2.6.2, §2.6.7: a compute construct takes a structured reference on the present
// data it uses, so another host thread's exit_data ends only the dynamic one and the data stays
// (the same device copy, visible to every thread) until the construct ends. Run on the host
// device, where a body can wait for the main thread; the table's code is the GPU's.
TEST_CASE("a running construct holds a reference on its present data against other threads' exit_data",
          "[13][present][threads]") {
  const std::size_t n = GENERATE(1, 97);
  const bool copy_out = GENERATE(false, true);
  std::mt19937 rng(static_cast<unsigned>(n));
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> x(n);
  for (auto& e : x) e = dist(rng);
  std::vector<double> want = x;
  acc::view<double> vx(x.data(), n);
  const acc::device_type was = acc::get_device_type();
  acc::set_device_type(acc::device_type::host);
  acc::enter_data(acc::copyin(vx));

  int stage = 0;
  int* const s = &stage;
  std::exception_ptr failure;
  std::thread worker([&] {
    try {
      acc::set_device_type(acc::device_type::host);
      acc::parallel_loop(1, acc::default_present, ACC_LAMBDA(int) {
        hand_over(s);
        vx[0] += 1.0;
      });
    } catch (...) {
      failure = std::current_exception();
      __atomic_store_n(s, 1, __ATOMIC_RELEASE);
    }
  });
  wait_for_stage(s, 1);
  if (copy_out) acc::exit_data(acc::copyout(vx));
  else acc::exit_data(acc::delete_(vx));
  const bool present_during = acc::is_present(vx);
  // This thread's own construct over it still finds it, and gives its reference back.
  bool second_ran = false;
  try {
    scale_present(vx, 2.0);
    second_ran = true;
  } catch (...) {
  }
  const bool present_after_second = acc::is_present(vx);
  __atomic_store_n(s, 2, __ATOMIC_RELEASE);
  worker.join();
  const bool present_after = acc::is_present(vx);
  acc::set_device_type(was);
  if (failure) std::rethrow_exception(failure);

  REQUIRE(present_during);
  REQUIRE(second_ran);
  REQUIRE(present_after_second);
  REQUIRE_FALSE(present_after);
  // On the host device the data is the host array itself: both constructs wrote it.
  for (auto& e : want) e = e * 2.0 + 1.0;
  want[0] += 1.0;
  REQUIRE(x == want);
}

// A construct that fails on entry (default_present with one capture absent) gives back the
// references it took on the captures found before it.
TEST_CASE("a construct that fails on entry gives back the references it took", "[13][present]") {
  const std::size_t n = GENERATE(1, 4099);
  std::vector<double> x(n, 1.0), y(n, 2.0);
  acc::view<double> vx(x.data(), n), vy(y.data(), n);
  acc::enter_data(acc::copyin(vx));
  for (int round = 0; round < 2; ++round)  // the second launch may take the first one's lookups
    REQUIRE_THROWS_AS(acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(std::size_t i) { vx[i] += vy[i]; }),
                      acc::not_present_error);
  scale_present(vx, 2.0);
  scale_present(vx, 2.0);  // launched again: the memo's references are given back too
  acc::exit_data(acc::copyout(vx));
  REQUIRE_FALSE(acc::is_present(vx));
  REQUIRE(x == std::vector<double>(n, 7.0));
  REQUIRE(y == std::vector<double>(n, 2.0));
}

namespace {

/// Runs f(t) on `threads` threads that start together; rethrows the first failure.
template <class F>
void on_threads(int threads, F f) {
  int arrived = 0;
  std::vector<std::exception_ptr> failure(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      __atomic_add_fetch(&arrived, 1, __ATOMIC_ACQ_REL);
      wait_for_stage(&arrived, threads);
      try {
        f(t);
      } catch (...) {
        failure[t] = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  for (auto& e : failure)
    if (e) std::rethrow_exception(e);
}

/// Blocks until `threads` callers have arrived at `count` (a barrier used once).
void arrive_and_wait(int* count, int threads) {
  __atomic_add_fetch(count, 1, __ATOMIC_ACQ_REL);
  wait_for_stage(count, threads);
}

}  // namespace

// Threads entering the same data at once share one device copy, each with its own reference
// (OpenACC 3.3 §2.6.7). On a GPU the first allocates and copies in outside the table's lock and
// the others wait for its entry: each must find the whole copy, not a second one or half of it.
TEST_CASE("enters of the same data from several threads share one complete device copy",
          "[13][present][threads]") {
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(4099), std::size_t(1) << 21);
  constexpr int threads = 6;
  std::mt19937 rng(static_cast<unsigned>(n));
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> x(n);
  for (auto& e : x) e = dist(rng);
  const std::vector<double> original = x;
  acc::view<double> vx(x.data(), n);
  std::vector<std::vector<double>> y(threads, std::vector<double>(n, 0.0));
  std::vector<const void*> address(threads, nullptr);
  std::vector<char> present_while_held(threads, 0);
  int entered = 0;
  on_threads(threads, [&](int t) {
    acc::enter_data(acc::copyin(vx));
    address[t] = acc::deviceptr(vx);
    acc::view<double> vy(y[t].data(), n);
    acc::data region{acc::copyout(vy)};
    acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(std::size_t i) { vy[i] = 2.0 * vx[i] + 1.0; });
    arrive_and_wait(&entered, threads);  // every thread holds its reference before any gives it back
    present_while_held[t] = acc::is_present(vx);
    acc::exit_data(acc::delete_(vx));
  });
  REQUIRE_FALSE(acc::is_present(vx));
  std::vector<double> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = 2.0 * original[i] + 1.0;
  for (int t = 0; t < threads; ++t) {
    INFO("thread " << t);
    REQUIRE(present_while_held[t]);
    REQUIRE(address[t] != nullptr);
    REQUIRE(address[t] == address[0]);
    REQUIRE(y[t] == want);
  }
  REQUIRE(x == original);
}

// Two threads entering overlapping ranges at once: whichever enters first wins, and the other's
// range is then only partly present, an error that leaves the table as it was (OpenACC 3.3
// §2.7.2), in either order; never two device copies of the shared elements.
TEST_CASE("enters of overlapping data from two threads: one enters, the other is told it is partly present",
          "[13][present][threads]") {
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(97), std::size_t(1) << 20);
  for (int round = 0; round < 4; ++round) {
    std::vector<double> buffer(2 * n + 1, 1.5);
    acc::view<double> low(buffer.data(), n + 1), high(buffer.data() + n, n + 1);  // share element n
    std::vector<std::string> message(2);
    std::vector<char> entered(2, 0);
    on_threads(2, [&](int t) {
      try {
        acc::enter_data(acc::copyin(t == 0 ? low : high));
        entered[t] = 1;
      } catch (const acc::not_present_error& e) {
        message[t] = e.what();
      }
    });
    INFO("n " << n << ", round " << round << ": " << message[0] << message[1]);
    REQUIRE(entered[0] + entered[1] == 1);
    const int loser = entered[0] ? 1 : 0;
    REQUIRE(message[loser].find("only partly present") != std::string::npos);
    REQUIRE(message[1 - loser].empty());
    REQUIRE(acc::is_present(entered[0] ? low : high));
    REQUIRE_FALSE(acc::is_present(entered[0] ? high : low));
    acc::exit_data(acc::delete_(entered[0] ? low : high));
    REQUIRE_FALSE(acc::is_present(low));
    REQUIRE_FALSE(acc::is_present(high));
  }
}

TEST_CASE("a construct launched again uses the data present now, not what was present before",
          "[13][present]") {
  const std::size_t n = GENERATE(1, 97, 4099);
  std::mt19937 rng(static_cast<unsigned>(n));
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> x(n), y(n);
  for (auto& e : x) e = dist(rng);
  for (auto& e : y) e = dist(rng);
  std::vector<double> want_x = x, want_y = y;
  const auto expect = [](std::vector<double>& w, double by) {
    for (auto& e : w) e = e * by + 1.0;
  };
  acc::view<double> vx(x.data(), n), vy(y.data(), n);

  for (int round = 0; round < 3; ++round) {
    // Entered, launched twice (the second launch may take the first one's lookups), left.
    acc::enter_data(acc::copyin(vx));
    scale_present(vx, 2.0);
    scale_present(vx, 2.0);
    acc::exit_data(acc::copyout(vx));
    expect(want_x, 2.0);
    expect(want_x, 2.0);
    REQUIRE(x == want_x);

    // Absent now: the same call site must report it, not reuse what it found before.
    REQUIRE_THROWS_AS(scale_present(vx, 2.0), acc::not_present_error);
    REQUIRE(x == want_x);

    // Another array at the same call site, then the first again with a different device copy
    // (entered while the other is present, so its device memory is not the freed block).
    acc::enter_data(acc::copyin(vy));
    scale_present(vy, -0.5);
    acc::enter_data(acc::copyin(vx));
    scale_present(vx, 4.0);
    scale_present(vy, -0.5);
    acc::exit_data(acc::copyout(vy));
    scale_present(vx, 4.0);
    acc::exit_data(acc::copyout(vx));
    expect(want_y, -0.5);
    expect(want_y, -0.5);
    expect(want_x, 4.0);
    expect(want_x, 4.0);
    REQUIRE(y == want_y);
    REQUIRE(x == want_x);
  }

  // A section of the array present, then the whole: the construct over the whole array must
  // fail while only the section is present.
  if (n > 1) {
    acc::enter_data(acc::copyin(acc::section(vx, 0, n / 2)));
    REQUIRE_THROWS_AS(scale_present(vx, 2.0), acc::not_present_error);
    acc::exit_data(acc::delete_(acc::section(vx, 0, n / 2)));
  }
  REQUIRE_FALSE(acc::is_present(x.data(), n));
}

TEST_CASE("a data region whose array was freed inside it leaves alone new data at the same address",
          "[13][present]") {
  // An acc::array freed while a region over it is open drops its entry (forget_host_range, as
  // the array's last owner does); an allocation that gets the same address then enters as new
  // data. The first region's end must not give back the second region's reference. The buffer
  // stays allocated here, so that the second data's address is the first's.
  for (const std::size_t n : {std::size_t(1), std::size_t(1021)}) {
    INFO("n = " << n);
    std::vector<double> x(n);
    std::mt19937 gen(static_cast<unsigned>(n));
    // Whole numbers, so that 3 * x - 1 is exact whether or not the GPU fuses it into one fma.
    std::uniform_int_distribution<int> d(-5000, 5000);
    for (double& v : x) v = d(gen);
    acc::array<double> buffer("buffer", n);
    for (std::size_t i = 0; i < n; ++i) buffer[i] = x[i];
    auto first = std::make_unique<acc::data<acc::data_clause_t<acc::detail::data_kind::copy>>>(acc::copy(buffer));
    acc::detail::forget_host_range(buffer.data(), n * sizeof(double));  // "freed"
    REQUIRE_FALSE(acc::is_present(buffer));
    {
      acc::data second{acc::copy(buffer)};
      first.reset();  // the first region ends inside the second
      REQUIRE(acc::is_present(buffer));
      acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(std::size_t i) { buffer[i] = 3 * buffer[i] - 1; });
    }
    REQUIRE_FALSE(acc::is_present(buffer));
    for (std::size_t i = 0; i < n; ++i) REQUIRE(buffer[i] == 3 * x[i] - 1);
  }
}
