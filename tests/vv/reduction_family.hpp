//! @file The three shapes of the V&V reduction tests, for one operator each:
//! - general: `parallel loop reduction(op:x)` over a scalar (T1) and over an array of slots (T2);
//! - loop: a gang loop over rows whose worker (or vector) loop reduces a row, and a second loop
//!   at that level uses the row's result (T1: scalar, T2: five slots per row);
//! - the same run sequentially inside acc::serial (the suite's `serial loop` tests).
//! Each checks against the sequential fold of the same data from the same initial value.
#pragma once

#include "vv.hpp"

#include <acc/serial.hpp>

#include <limits>
#include <vector>

namespace vv {
namespace {

// One descriptor per operator: its element type, the suite's inputs and initial value.
struct add_d {
  using T = double;
  using op_t = acc::plus_t;
  static constexpr int count = n;
  static T init() { return 10; }
  static T gen(std::mt19937& g, int) { return uniform(g, 10) + uniform(g, 10); }
};
struct multiply_d {
  using T = double;
  using op_t = acc::multiplies_t;
  static constexpr int count = 128;  // the suite's multiplicitive_n
  static T init() { return 1; }
  static T gen(std::mt19937& g, int) { return 0.05 + uniform(g) + 0.05 + uniform(g); }
};
struct max_d {
  using T = double;
  using op_t = acc::maximum_t;
  static constexpr int count = n;
  static T init() { return 0; }
  static T gen(std::mt19937& g, int) { return uniform(g, 10) * uniform(g, 10); }
};
struct min_d {
  using T = double;
  using op_t = acc::minimum_t;
  static constexpr int count = n;
  static T init() { return 1000; }
  static T gen(std::mt19937& g, int) { return uniform(g, 10) * uniform(g, 10); }
};
struct and_d {  // &&: each element true with the false margin, so the result is false half the time
  using T = char;
  using op_t = acc::logical_and_t;
  static constexpr int count = n;
  static T init() { return 1; }
  static T gen(std::mt19937& g, int m) { return uniform(g) < false_margin(m) ? 1 : 0; }
};
struct or_d {
  using T = char;
  using op_t = acc::logical_or_t;
  static constexpr int count = n;
  static T init() { return 0; }
  static T gen(std::mt19937& g, int m) { return uniform(g) > false_margin(m) ? 1 : 0; }
};
struct bitand_d {
  using T = unsigned;
  using op_t = acc::bit_and_t;
  static constexpr int count = 10;  // the suite's T1 sets n = 10 for &
  static T init() { return 0xFFFFu; }
  static T gen(std::mt19937& g, int m) { return bits16(g, false_margin(m)); }
};
struct bitor_d {
  using T = unsigned;
  using op_t = acc::bit_or_t;
  static constexpr int count = n;
  static T init() { return 0; }
  static T gen(std::mt19937& g, int m) { return bits16(g, 1.0 - false_margin(m)); }
};
struct bitxor_d {
  using T = unsigned;
  using op_t = acc::bit_xor_t;
  static constexpr int count = n;
  static T init() { return 0; }
  static T gen(std::mt19937& g, int) { return static_cast<unsigned>(uniform(g, 2.0) * (1u << 30)); }
};

/// OpenACC runs a `loop worker` body once per iteration; acc runs it in every vector lane of the
/// worker, so the suite's read-modify-write `b[x] = b[x] + ...` in a worker loop goes through
/// acc::single(per_worker) (docs/porting.md, "Statements in a worker loop"). A vector loop's
/// body already runs once per iteration.
template <class Level, class F>
ACC_DETAIL_HD void once_per_lane_group(const acc::gang_t& gang, Level, const F& f) {
  if constexpr (Level::worker && !Level::vector) acc::single(gang, acc::per_worker, f);
  else f();
}

template <class D>
acc::array<typename D::T> inputs(int count, int margin_over, unsigned seed) {
  std::mt19937 g(seed);
  acc::array<typename D::T> a("a", count);
  for (int x = 0; x < count; ++x) a[x] = D::gen(g, margin_over);
  return a;
}

// ---- general: parallel loop reduction(op:total), and reduction(op:c[0:K]) ----

template <class D>
void general_scalar() {
  using T = typename D::T;
  typename D::op_t op{};
  const int count = D::count;
  auto a = inputs<D>(count, count, 1);
  T total = D::init();
  {
    acc::data region{acc::copyin(a)};
    acc::parallel_loop(count, acc::reduction(op, total), ACC_LAMBDA(int x, T& t) { t = op(t, a[x]); });
  }
  T host = D::init();
  for (int x = 0; x < count; ++x) host = op(host, a[x]);
  REQUIRE(same(total, host, 2.0 * count));
}

template <class D, int K = 10>
void general_slots() {
  using T = typename D::T;
  typename D::op_t op{};
  each_t<typename D::op_t, T, K> each{};
  const int count = K * D::count;
  auto a = inputs<D>(count, D::count, 2);
  slots<T, K> c;
  for (int k = 0; k < K; ++k) c.v[k] = D::init();
  {
    acc::data region{acc::copyin(a)};
    acc::parallel_loop(count, acc::reduction(each, c), ACC_LAMBDA(int x, slots<T, K>& s) {
      s.v[x % K] = op(s.v[x % K], a[x]);
    });
  }
  std::vector<T> host(K, D::init());
  for (int x = 0; x < count; ++x) host[x % K] = op(host[x % K], a[x]);
  for (int k = 0; k < K; ++k) REQUIRE(same(c.v[k], host[k], 2.0 * count));
}

// ---- loop: parallel loop gang over rows, loop worker|vector reduction inside ----

/// T1: rows of n; c[y] = a[y*n] op (reduction of the rest of the row); then, when `use`, a
/// second loop at the same level adds c[y] to every b of the row.
template <class D, class Level>
void loop_scalar(Level level, bool use, int rows = 10) {
  using T = typename D::T;
  typename D::op_t op{};
  const int m = D::count;
  auto a = inputs<D>(rows * m, m, 3);
  acc::array<T> c("c", rows);
  acc::array<unsigned> b("b", rows * m), b0("b0", rows * m);
  std::mt19937 g(4);
  for (int x = 0; x < rows * m; ++x) b[x] = b0[x] = static_cast<unsigned>(uniform(g, 1000));
  {
    acc::data region{acc::copyin(a), acc::copy(b), acc::copy(c)};
    acc::parallel(acc::num_gangs(rows), ACC_LAMBDA(const acc::gang_t& gang) {
      acc::loop(gang, acc::gang, rows, [&](int y) {
        const T rest = acc::loop_reduce(gang, level, m - 1, op, [&](int x) { return T(a[y * m + x + 1]); });
        const T temp = op(a[y * m], rest);
        c[y] = temp;
        if (use) acc::loop(gang, level, m, [&](int x) { once_per_lane_group(gang, level, [&] { b[y * m + x] = b[y * m + x] + unsigned(temp); }); });
      });
    });
  }
  for (int y = 0; y < rows; ++y) {
    T host = a[y * m];
    for (int x = 1; x < m; ++x) host = op(host, a[y * m + x]);
    REQUIRE(same(c[y], host, 2.0 * m));
    if (use)
      for (int x = 0; x < m; ++x) REQUIRE(b[y * m + x] == b0[y * m + x] + unsigned(c[y]));
  }
}

/// T2: five rows of 5*n; each row reduces into five slots that start from the row's first five
/// elements, and the second loop adds slot x%5 to b.
template <class D, class Level>
void loop_slots(Level level, bool use) {
  using T = typename D::T;
  using S = slots<T, 5>;
  typename D::op_t op{};
  each_t<typename D::op_t, T, 5> each{};
  const int m = 5 * D::count;
  auto a = inputs<D>(5 * m, D::count, 5);
  acc::array<T> c("c", 25);
  acc::array<unsigned> b("b", 5 * m), b0("b0", 5 * m);
  std::mt19937 g(6);
  for (int x = 0; x < 5 * m; ++x) b[x] = b0[x] = static_cast<unsigned>(uniform(g, 1000));
  {
    acc::data region{acc::copyin(a), acc::copy(b), acc::copy(c)};
    acc::parallel(acc::num_gangs(5), ACC_LAMBDA(const acc::gang_t& gang) {
      acc::loop(gang, acc::gang, 5, [&](int x) {
        const S part = acc::loop_reduce(gang, level, m, each, [&](int y) {
          S s = each.identity();
          s.v[y % 5] = a[x * m + y];
          return s;
        });
        S dev;
        for (int k = 0; k < 5; ++k) dev.v[k] = op(a[x * m + k], part.v[k]);
        for (int k = 0; k < 5; ++k) c[x * 5 + k] = dev.v[k];
        if (use) acc::loop(gang, level, m, [&](int y) { once_per_lane_group(gang, level, [&] { b[x * m + y] = b[x * m + y] + unsigned(dev.v[y % 5]); }); });
      });
    });
  }
  for (int x = 0; x < 5; ++x) {
    T host[5];
    for (int k = 0; k < 5; ++k) host[k] = a[x * m + k];
    for (int y = 0; y < m; ++y) host[y % 5] = op(host[y % 5], a[x * m + y]);
    for (int k = 0; k < 5; ++k) REQUIRE(same(c[x * 5 + k], host[k], 2.0 * m));
    if (use)
      for (int y = 0; y < m; ++y) REQUIRE(b[x * m + y] == b0[x * m + y] + unsigned(c[x * 5 + y % 5]));
  }
}

template <class D>
void loop_family() {
  loop_scalar<D>(acc::worker, true);
  loop_slots<D>(acc::worker, true);
}

template <class D>
void vector_loop_family() {
  loop_scalar<D>(acc::vector, false);
  loop_slots<D>(acc::vector, false);
}

template <class D>
void general_family() {
  general_scalar<D>();
  general_slots<D>();
}

// ---- serial: the same folds inside `serial` (one gang, one worker, one lane) ----

/// `serial loop reduction(op:total)`, then `serial` with a gang loop over rows and a worker
/// reduction inside: in a serial construct every loop runs sequentially in the one thread.
template <class D>
void serial_general() {
  using T = typename D::T;
  typename D::op_t op{};
  const int count = D::count;
  auto a = inputs<D>(count, count, 7);
  acc::array<T> total("total", 1);
  total[0] = D::init();
  {
    acc::data region{acc::copyin(a), acc::copy(total)};
    acc::serial(ACC_LAMBDA() {
      T t = total[0];
      for (int x = 0; x < count; ++x) t = op(t, a[x]);
      total[0] = t;
    });
  }
  T host = D::init();
  for (int x = 0; x < count; ++x) host = op(host, a[x]);
  REQUIRE(same(total[0], host, 2.0 * count));
}

template <class D>
void serial_rows(bool use) {
  using T = typename D::T;
  typename D::op_t op{};
  const int m = D::count, rows = 10;
  auto a = inputs<D>(rows * m, m, 8);
  acc::array<T> c("c", rows);
  acc::array<unsigned> b("b", rows * m), b0("b0", rows * m);
  std::mt19937 g(9);
  for (int x = 0; x < rows * m; ++x) b[x] = b0[x] = static_cast<unsigned>(uniform(g, 1000));
  {
    acc::data region{acc::copyin(a), acc::copy(b), acc::copy(c)};
    acc::serial(ACC_LAMBDA() {
      for (int y = 0; y < rows; ++y) {
        T temp = a[y * m];
        for (int x = 1; x < m; ++x) temp = op(temp, a[y * m + x]);
        c[y] = temp;
        if (use)
          for (int x = 0; x < m; ++x) b[y * m + x] = b[y * m + x] + unsigned(c[y]);
      }
    });
  }
  for (int y = 0; y < rows; ++y) {
    T host = a[y * m];
    for (int x = 1; x < m; ++x) host = op(host, a[y * m + x]);
    REQUIRE(same(c[y], host, 2.0 * m));
    if (use)
      for (int x = 0; x < m; ++x) REQUIRE(b[y * m + x] == b0[y * m + x] + unsigned(c[y]));
  }
}

}  // namespace
}  // namespace vv

namespace vv {
namespace {

/// A complex number with the + the suite's `float _Complex` / `double _Complex` reductions use.
template <class T>
struct cplx {
  T re = 0, im = 0;
  ACC_ROUTINE cplx() = default;
  ACC_ROUTINE constexpr cplx(int v) : re(T(v)), im(0) {}
  ACC_ROUTINE constexpr cplx(T r, T i) : re(r), im(i) {}
  ACC_ROUTINE friend cplx operator+(const cplx& a, const cplx& b) { return {a.re + b.re, a.im + b.im}; }
};

/// `reduction(+:total)` of type T over a[x] + b[x], from 10 (the type-check tests).
template <class T>
void add_typed(bool loop_form = false) {
  std::mt19937 g(40);
  acc::array<T> a("a", loop_form ? 10 * n : n), b("b", loop_form ? 10 * n : n);
  for (std::size_t x = 0; x < a.size(); ++x) {
    if constexpr (std::is_same_v<T, bool>) {
      a[x] = uniform(g) > .5;
      b[x] = uniform(g) > .5;
    } else if constexpr (std::is_class_v<T>) {
      a[x] = T(uniform(g, 10), uniform(g, 10));
      b[x] = T(uniform(g, 10), uniform(g, 10));
    } else {
      a[x] = static_cast<T>(uniform(g, 10));
      b[x] = static_cast<T>(uniform(g, 10));
    }
  }
  const T start = std::is_same_v<T, bool> ? T(1) : T(10);
  if (!loop_form) {
    T total = start;
    {
      acc::data region{acc::copyin(a), acc::copyin(b)};
      acc::parallel_loop(n, acc::reduction(acc::plus, total), ACC_LAMBDA(int x, T& t) { t = t + T(a[x] + b[x]); });
    }
    T host = start;
    for (int x = 0; x < n; ++x) host = host + T(a[x] + b[x]);
    if constexpr (std::is_class_v<T>) {
      // The suite's PRECISION, or float rounding under a different summation order.
      using R = decltype(total.re);
      const double tol = std::max(precision, double(std::numeric_limits<R>::epsilon()) * 4 * n);
      REQUIRE(std::abs(double(total.re - host.re)) <= tol * std::max(1.0, std::abs(double(host.re))));
      REQUIRE(std::abs(double(total.im - host.im)) <= tol * std::max(1.0, std::abs(double(host.im))));
    } else if constexpr (std::is_floating_point_v<T>) {
      REQUIRE(std::abs(double(total - host)) <= std::max(precision, double(std::numeric_limits<T>::epsilon()) * 4 * n) * std::max(1.0, std::abs(double(host))));
    } else {
      REQUIRE(total == host);
    }
  } else if constexpr (std::is_integral_v<T>) {
    // parallel loop gang private(total) { total = 10; loop worker reduction(+:total); d = total }
    acc::array<T> d("d", 10);
    {
      acc::data region{acc::copyin(a), acc::copyin(b), acc::copyout(d)};
      acc::parallel(ACC_LAMBDA(const acc::gang_t& gang) {
        acc::loop(gang, acc::gang, 10, [&](int y) {
          const T part = acc::loop_reduce(gang, acc::worker, n, acc::plus, [&](int x) { return T(a[y * n + x] + b[y * n + x]); });
          d[y] = T(start + part);
        });
      });
    }
    for (int y = 0; y < 10; ++y) {
      T host = start;
      for (int x = 0; x < n; ++x) host = T(host + T(a[y * n + x] + b[y * n + x]));
      REQUIRE(d[y] == host);
    }
  }
}

}  // namespace
}  // namespace vv
