// acc's headers add no warning to a program built with the strict flags HPC codes use, as errors,
// when acc comes in through add_subdirectory, FetchContent or a plain -I (not as a system
// include, which would hide them). tests/CMakeLists.txt compiles this unit with those flags by
// g++ without and with OpenMP, and by nvcc (its host compiler, with the flags that the code nvcc
// generates does not trip itself), then runs it. Header-only, so that the runtime's definitions
// are compiled with the flags too. Every public construct, with the index and element types
// programs use, is checked against the sequential loop: a wrong result fails as a warning does.
#include <acc/detail/selection.hpp>  // selection_report, which benchmarks print
#include <acc/parallel.hpp>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what, std::source_location where = std::source_location::current()) {
  if (ok) return;
  std::fprintf(stderr, "strict_warnings.cpp:%lu: wrong: %s\n", static_cast<unsigned long>(where.line()), what);
  ++failures;
}

// ---- parallel_loop: a count, a range, collapse(2) and collapse(3), reduction clauses ----------

template <class I, class T>
void loops(I n) {
  acc::array<T> x("x", n), y("y", n);
  for (I i = 0; i < n; ++i) x[i] = T(i % 7), y[i] = T(1);
  acc::parallel_loop(n, ACC_LAMBDA(I i) { y[i] = T(2) * x[i] + y[i]; });
  bool ok = true;
  for (I i = 0; i < n; ++i) ok = ok && y[i] == T(2) * T(i % 7) + T(1);
  check(ok, "parallel_loop over a count");

  acc::parallel_loop(acc::range(I(1), n), ACC_LAMBDA(I i) { y[i] = x[i - 1]; });
  ok = y[0] == T(1);
  for (I i = 1; i < n; ++i) ok = ok && y[i] == x[i - 1];
  check(ok, "parallel_loop over a range");

  const I ni = 7, nj = 13, nk = 5;
  acc::array<T, 2> a("a", ni, nj);
  acc::parallel_loop(acc::collapse(ni, nj), ACC_LAMBDA(I i, I j) { a(i, j) = T(i * 100 + j); });
  acc::array<T, 3> b("b", ni, nj, nk);
  acc::parallel_loop(acc::collapse(acc::range(I(1), ni), nj, nk),
                     ACC_LAMBDA(I i, I j, I k) { b(i, j, k) = a(i, j) + T(k); });
  ok = true;
  for (I i = 0; i < ni; ++i)
    for (I j = 0; j < nj; ++j) {
      ok = ok && a(i, j) == T(i * 100 + j);
      for (I k = 0; k < nk && i > 0; ++k) ok = ok && b(i, j, k) == T(i * 100 + j + k);
    }
  check(ok, "parallel_loop over collapse(2) and collapse(3)");

  T sum = T(0), largest = T(0), seq_sum = T(0), seq_largest = T(0);
  acc::parallel_loop(n, acc::reduction(acc::plus, sum), acc::reduction(acc::maximum, largest),
                     ACC_LAMBDA(I i, T& s, T& m) {
                       s += x[i];
                       m = acc::maximum(m, x[i]);
                     });
  for (I i = 0; i < n; ++i) seq_sum += x[i], seq_largest = x[i] > seq_largest ? x[i] : seq_largest;
  check(sum == seq_sum && largest == seq_largest, "parallel_loop reduction clauses");

  T corner = T(0);
  acc::parallel_loop(acc::collapse(ni, nj), acc::reduction(acc::plus, corner),
                     ACC_LAMBDA(I i, I j, T& s) { s += a(i, j); });
  T seq_corner = T(0);
  for (I i = 0; i < ni; ++i)
    for (I j = 0; j < nj; ++j) seq_corner += a(i, j);
  check(corner == seq_corner, "parallel_loop reduction clause over collapse(2)");
}

// ---- parallel_reduce: the operators, an initial value, min_loc / max_loc ----------------------

template <class I, class T>
void reductions(I n) {
  acc::array<T> x("x", n);
  for (I i = 0; i < n; ++i) x[i] = T((i * 37) % 101);
  T sum = T(0), hi = x[0], lo = x[0];
  I at_hi = 0, at_lo = 0;
  for (I i = 0; i < n; ++i) {
    sum += x[i];
    if (x[i] > hi) hi = x[i], at_hi = i;
    if (x[i] < lo) lo = x[i], at_lo = i;
  }
  check(acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(I i) { return x[i]; }) == sum, "parallel_reduce plus");
  check(acc::parallel_reduce(n, acc::plus, ACC_LAMBDA(I i) { return x[i]; }, T(5)) == sum + T(5),
        "parallel_reduce plus from an initial value");
  check(acc::parallel_reduce(n, acc::maximum, ACC_LAMBDA(I i) { return x[i]; }) == hi, "parallel_reduce maximum");
  check(acc::parallel_reduce(n, acc::minimum, ACC_LAMBDA(I i) { return x[i]; }) == lo, "parallel_reduce minimum");
  const I few = 9;
  T product = T(1);
  for (I i = 0; i < few; ++i) product *= T(i % 3 + 1);
  check(acc::parallel_reduce(few, acc::multiplies, ACC_LAMBDA(I i) { return T(i % 3 + 1); }) == product,
        "parallel_reduce multiplies");
  check(acc::parallel_reduce(n, acc::min_loc, ACC_LAMBDA(I i) { return acc::loc(x[i], i); }) == acc::loc(lo, at_lo),
        "parallel_reduce min_loc");
  check(acc::parallel_reduce(n, acc::max_loc, ACC_LAMBDA(I i) { return acc::loc(x[i], i); }) == acc::loc(hi, at_hi),
        "parallel_reduce max_loc");
  const I ni = 11, nj = 6;
  T grid = T(0);
  for (I i = 0; i < ni; ++i)
    for (I j = 0; j < nj; ++j) grid += T(i + j);
  check(acc::parallel_reduce(acc::collapse(ni, nj), acc::plus, ACC_LAMBDA(I i, I j) { return T(i + j); }) == grid,
        "parallel_reduce over collapse(2)");
  if constexpr (std::is_integral_v<T>) {
    T ones = T(0), anded = ~T(0), xored = T(0);
    for (I i = 0; i < n; ++i) ones |= x[i], anded &= x[i] | T(64), xored ^= x[i];
    check(acc::parallel_reduce(n, acc::bit_or, ACC_LAMBDA(I i) { return x[i]; }) == ones, "parallel_reduce bit_or");
    check(acc::parallel_reduce(n, acc::bit_and, ACC_LAMBDA(I i) { return x[i] | T(64); }) == anded,
          "parallel_reduce bit_and");
    check(acc::parallel_reduce(n, acc::bit_xor, ACC_LAMBDA(I i) { return x[i]; }) == xored, "parallel_reduce bit_xor");
    check(acc::parallel_reduce(n, acc::logical_or, ACC_LAMBDA(I i) { return x[i] > T(99); }) == (hi > T(99)),
          "parallel_reduce logical_or");
    check(acc::parallel_reduce(n, acc::logical_and, ACC_LAMBDA(I i) { return x[i] >= T(0); }),
          "parallel_reduce logical_and");
  }
}

// ---- acc::parallel: gang, worker and vector loops, g.shared, loop_reduce, loop_scan ---------

template <class I, class T>
void regions(I rows, I cols) {
  acc::array<T, 2> m("m", rows, cols), reversed("reversed", rows, cols), prefix("prefix", rows, cols);
  acc::array<T> totals("totals", rows);
  for (I r = 0; r < rows; ++r)
    for (I c = 0; c < cols; ++c) m(r, c) = T((r * 3 + c) % 10);
  // Row r reversed through team memory: a vector loop fills it, a worker loop reads it back.
  acc::parallel(acc::num_gangs(3), acc::num_workers(2), acc::vector_length(32), acc::shared_bytes(64 * sizeof(T)),
                ACC_LAMBDA(const acc::gang_t& g) {
                  const auto row = g.shared<T>(1, cols);  // taken once, before the gang loop
                  acc::loop(g, acc::gang, rows, [&](I r) {
                    acc::loop(g, acc::vector, cols, [&](I c) { row(0, c) = m(r, c); });
                    acc::loop(g, acc::worker, cols, [&](I c) { reversed(r, c) = row(0, cols - 1 - c); });
                  });
                });
  // Each row's inclusive scan (loop_scan) and total (loop_reduce), one per gang.
  T all = T(0);
  acc::parallel(acc::num_gangs(2), acc::reduction(acc::plus, all), ACC_LAMBDA(const acc::gang_t& g, T& a) {
    acc::loop(g, acc::gang, rows, [&](I r) {
      const T total = acc::loop_scan(g, acc::vector, cols, acc::plus, [&](I c, T& p, bool final) {
        p += m(r, c);
        if (final) prefix(r, c) = p;
      });
      a += acc::loop_reduce(g, acc::worker_vector, cols, acc::plus, [&](I c) { return m(r, c); });
      acc::single(g, acc::per_gang, [&] { totals[r] = total; });
      acc::barrier(g);
    });
  });
  bool ok = true;
  T seq_all = T(0);
  for (I r = 0; r < rows; ++r) {
    T run = T(0);
    for (I c = 0; c < cols; ++c) {
      run += m(r, c);
      ok = ok && reversed(r, c) == m(r, cols - 1 - c) && prefix(r, c) == run;
    }
    ok = ok && totals[r] == run;
    seq_all += run;
  }
  check(ok, "gang, worker and vector loops, g.shared, loop_scan");
  check(all == seq_all, "parallel with a reduction clause and loop_reduce");
}

// ---- the scans: array scans and parallel_scan --------------------------------------------------

template <class I, class T>
void scans(I n) {
  acc::array<T> x("x", n), y("y", n), z("z", n);
  for (I i = 0; i < n; ++i) x[i] = T(i % 5 + 1);
  acc::inclusive_scan(x, y);
  acc::exclusive_scan(x, z, T(3));
  bool ok = true;
  T run = T(0);
  for (I i = 0; i < n; ++i) {
    ok = ok && z[i] == run + T(3);
    run += x[i];
    ok = ok && y[i] == run;
  }
  check(ok, "inclusive_scan and exclusive_scan of arrays");
  acc::inclusive_scan(x.data(), n, y.data(), acc::maximum);
  ok = true;
  for (I i = 0; i < n; ++i) ok = ok && y[i] == T(i < 4 ? i + 1 : 5);
  check(ok, "inclusive_scan of pointers with acc::maximum");
  const T total = acc::parallel_scan(n, ACC_LAMBDA(I i, T& p, bool final) {
    if (final) z[i] = p;
    p += x[i];
  });
  ok = total == run;
  run = T(0);
  for (I i = 0; i < n; ++i) ok = ok && z[i] == run, run += x[i];
  check(ok, "parallel_scan");
}

// ---- tile_loop: cached halos, dist_private, tile-level acc::cache and per_iteration ----------

template <class I, class T>
void tiles(I ni, I nj) {
  acc::array<T, 2> a("a", ni, nj), sums("sums", ni, nj), twice("twice", ni, nj), scratch("scratch", ni, nj);
  for (I i = 0; i < ni; ++i)
    for (I j = 0; j < nj; ++j) a(i, j) = T((i * 7 + j) % 11);
  acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(8, 16), acc::cached(a, acc::fetch, acc::halo(1, 1), acc::halo(1, 1)),
                 acc::dist_private(scratch),
                 ACC_LAMBDA(I i, I j, const acc::cached_view<T, 2>& ac, const acc::cached_view<T, 2>& sc) {
                   T s = ac(i, j);
                   if (ac.contains(i - 1, j)) s += ac(i - 1, j);
                   if (ac.contains(i, j + 1)) s += ac(i, j + 1);
                   sc(i, j) = s;
                   sums(i, j) = sc(i, j);
                 });
  acc::tile_loop(acc::collapse(ni, nj), acc::tile_size(8, 8), acc::cache_bytes(64 * sizeof(T)),
                 ACC_LAMBDA(const acc::tile_t<2, I>& t) {
                   const auto ac = acc::cache(t, a, acc::fixed(t.origin(0), 8), acc::fixed(t.origin(1), 8));
                   acc::per_iteration<T> v(t, T(0));
                   acc::tile_for(t, [&](I i, I j) { v(i, j) = ac(i, j) + ac(i, j); });
                   acc::tile_for(t, [&](I i, I j) { twice(i, j) = v(i, j); });
                 });
  bool ok = true;
  for (I i = 0; i < ni; ++i)
    for (I j = 0; j < nj; ++j) {
      T s = a(i, j);
      if (i > 0) s += a(i - 1, j);
      if (j + 1 < nj) s += a(i, j + 1);
      ok = ok && sums(i, j) == s && twice(i, j) == a(i, j) + a(i, j);
    }
  check(ok, "tile_loop with cached halos, dist_private, acc::cache and per_iteration");
}

// ---- data regions, enter / exit data, updates; async queues and waits ------------------------

template <class T>
void data_and_async(long n) {
  acc::array<T> a("a", n), b("b", n), c("c", n);
  std::vector<T> host(static_cast<std::size_t>(n), T(2));
  const acc::view<T> v("v", host.data(), n);
  for (long i = 0; i < n; ++i) a[i] = T(i % 9), b[i] = T(1);
  {
    acc::data region{acc::copyin(a), acc::copy(b), acc::create(c), acc::copy(v)};
    check(acc::is_present(a) && acc::is_present(v), "acc::data makes its arrays present");
    acc::parallel_loop(n, acc::default_present, acc::async(1), ACC_LAMBDA(long i) { c[i] = a[i] + b[i]; });
    acc::parallel_loop(n, acc::default_present, acc::async(2), ACC_LAMBDA(long i) { v[i] = v[i] * T(3); });
    acc::wait(1, 2);
    check(acc::async_test(1) && acc::async_test_all(), "queues are done after acc::wait");
    acc::parallel_loop(n, acc::default_present, acc::async(1), ACC_LAMBDA(long i) { b[i] = c[i] + v[i]; });
    acc::wait_all();
  }
  bool ok = true;
  for (long i = 0; i < n; ++i) ok = ok && b[i] == T(i % 9) + T(1) + T(6) && v[i] == T(6);
  check(ok, "acc::data, async and wait");

  acc::enter_data(acc::copyin(a), acc::create(c, acc::zero));
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(long i) { c[i] = a[i] * T(2); });
  acc::update_self(acc::section(c, 0, static_cast<std::size_t>(n / 2)));
  acc::update_self(c, acc::if_present);
  for (long i = 0; i < n; ++i) a[i] = T(1);
  acc::update_device(a);
  acc::parallel_loop(n, acc::default_present, ACC_LAMBDA(long i) { c[i] = c[i] + a[i]; });
  acc::exit_data(acc::copyout(c), acc::delete_(a), acc::finalize);
  ok = !acc::is_present(a) && !acc::is_present(c);
  for (long i = 0; i < n; ++i) ok = ok && c[i] == T(i % 9) * T(2) + T(1);
  check(ok, "enter_data, updates and exit_data");
}

// ---- atomics ------------------------------------------------------------------------------

template <class I, class T>
void atomics(I n) {
  acc::array<T> counters("counters", 5), old("old", n);
  for (I k = 0; k < 5; ++k) counters[k] = T(0);
  acc::parallel_loop(n, ACC_LAMBDA(I i) {
    acc::atomic_add(&counters[0], T(1));
    acc::atomic_update(counters[1], acc::maximum, T(i % 50));
    acc::atomic_ref<T>(counters[2]) += T(2);
    old[i] = acc::atomic_capture(counters[3], acc::plus, T(1));
    if (i == 0) acc::atomic_write(counters[4], acc::atomic_read(counters[4]) + T(7));
  });
  T seen = T(0), expect = T(0);
  for (I i = 0; i < n; ++i) seen += old[i], expect += T(i);
  check(counters[0] == T(n) && counters[1] == T(n < 50 ? n - 1 : 49) && counters[2] == T(2 * n) &&
            counters[3] == T(n) && counters[4] == T(7) && seen == expect,
        "atomic_add, atomic_update, atomic_ref, atomic_capture, atomic_read and atomic_write");
}

// ---- serial, graphs, devices, selection ------------------------------------------------------

void graph_step(acc::array<long> x, int n) {
  acc::parallel_loop(n, acc::async(4), ACC_LAMBDA(int i) { x[i] += i; });
}

void constructs_without_types(int n) {
  acc::array<long> x("x", n);
  for (int i = 0; i < n; ++i) x[i] = 0;
  acc::serial(ACC_LAMBDA() {
    for (int i = 0; i < n; ++i) x[i] = 1;
  });
  acc::enter_data(acc::copyin(x));  // a graph's constructs find their data present
  acc::graph g;
  g.record(acc::async(4), [=] { graph_step(x, n); });
  for (int r = 0; r < 3; ++r) g.replay();
  acc::wait(4);
  acc::exit_data(acc::copyout(x));
  acc::parallel_loop(n, acc::all_devices, ACC_LAMBDA(int i) { x[i] *= 2; });
  bool ok = !acc::devices_of(acc::all_devices).empty();
  for (int i = 0; i < n; ++i) ok = ok && x[i] == 2 * (1 + 3L * i);
  check(ok, "serial, a replayed graph and acc::all_devices");

  acc::parallel_loop(n, acc::tuned, ACC_LAMBDA(int i) { x[i] += 1; });
  acc::parallel_loop(n, acc::adaptive, ACC_LAMBDA(int i) { x[i] -= 1; });
  const long sum = acc::parallel_reduce(n, acc::adaptive, acc::tuned, acc::plus, ACC_LAMBDA(int i) { return x[i]; });
  check(sum == 2L * n + 3L * n * (n - 1), "acc::tuned and acc::adaptive");
  // Only constructs placed on a GPU are selected: a host run has nothing to report.
  const std::string report = acc::detail::selection_report();
  check(acc::get_device_type() == acc::device_type::nvidia || report.empty(), "selection_report on the host");
}

// ---- the runtime routines ----------------------------------------------------------------------

void runtime_routines() {
  const acc::device_type t = acc::get_device_type();
  check(acc::get_num_devices(acc::device_type::host) == 1, "one host device");
  const int dev = acc::get_device_num(t);
  acc::set_device_num(dev, t);
  check(acc::get_device_num(t) == dev && acc::get_device_type() == t, "set_device_num keeps the device");
  acc::set_default_async(3);
  check(acc::get_default_async() == 3, "set_default_async");
  acc::set_default_async(acc::async_default);
  acc::init(acc::device_type::host);
  acc::set(t, acc::device_num(dev));
  check(acc::on_device(acc::device_type::host), "host code runs on the host");
  check(acc::get_property(0, acc::device_type::host, acc::device_property::shared_memory_support) == 1,
        "the host device shares memory");
  check(acc::get_property_string(0, acc::device_type::host, acc::device_property::name) == "host", "the host's name");
  const char text[] = "strict warnings";
  char back[sizeof text] = {};
  void* p = acc::malloc(sizeof text);
  acc::memcpy_to_device(p, text, sizeof text);
  acc::memcpy_from_device(back, p, sizeof text);
  acc::free(p);
  check(std::memcmp(text, back, sizeof text) == 0, "malloc, memcpy_to_device, memcpy_from_device and free");
}

}  // namespace

int main() {
  loops<int, float>(1000);
  loops<long, double>(1001);
  loops<std::size_t, int>(999);
  loops<unsigned, long>(257);
  reductions<int, double>(1000);
  reductions<long, int>(777);
  reductions<std::size_t, long>(1024);
  reductions<unsigned, float>(300);
  regions<int, double>(9, 40);
  regions<long, int>(5, 17);
  regions<std::size_t, float>(4, 33);
  scans<int, long>(1000);
  scans<long, double>(2049);
  scans<std::size_t, int>(513);
  scans<unsigned, float>(100);
  tiles<int, float>(30, 41);
  tiles<long, double>(17, 9);
  data_and_async<double>(1000);
  data_and_async<int>(77);
  atomics<int, int>(1000);
  atomics<long, double>(500);
  atomics<std::size_t, float>(300);
  constructs_without_types(100);
  runtime_routines();
  if (failures) std::fprintf(stderr, "strict_warnings: %d wrong results\n", failures);
  else std::printf("strict_warnings: every construct matched the sequential loop\n");
  return failures ? 1 : 0;
}
