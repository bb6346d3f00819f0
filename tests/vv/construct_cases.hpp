//! @file V&V checks that `parallel`, `kernels` and `serial` share: data clauses on the compute
//! construct (a data region around it in acc), if, async / wait, default(present), deviceptr,
//! scalars that are firstprivate by default. `Run` launches a loop of n iterations the way the
//! construct does: acc::parallel_loop for `parallel` / `kernels` (loops that are independent),
//! one thread running the loop inside acc::serial for `serial`.
#pragma once

#include "vv.hpp"

#include <acc/serial.hpp>

namespace vv {
namespace {

inline acc::array<double> random_array(const char* name, int count, unsigned seed, double hi = 10) {
  std::mt19937 g(seed);
  acc::array<double> a(name, count);
  for (int x = 0; x < count; ++x) a[x] = uniform(g, hi);
  return a;
}

inline acc::array<double> filled(const char* name, int count, double v) {
  acc::array<double> a(name, count);
  for (int x = 0; x < count; ++x) a[x] = v;
  return a;
}

/// `parallel loop` / `kernels loop` (independent iterations).
struct loop_run {
  template <class F, class... C>
  void operator()(int count, F f, C... clauses) const {
    acc::parallel_loop(count, clauses..., f);
  }
};

/// `serial` with a loop inside: one thread runs every iteration in order.
struct serial_run {
  template <class F, class... C>
  void operator()(int count, F f, C... clauses) const {
    acc::serial(clauses..., ACC_LAMBDA() {
      for (int x = 0; x < count; ++x) f(x);
    });
  }
};

/// copy(a): the construct doubles a, and the host sees it.
template <class Run>
void copy_case(Run run) {
  auto a = random_array("a", n, 1), a0 = filled("a0", n, 0);
  for (int x = 0; x < n; ++x) a0[x] = a[x];
  {
    acc::data region{acc::copy(a)};
    run(n, ACC_LAMBDA(int x) { a[x] = 2 * a[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(a[x], 2 * a0[x]));
}

/// copyin(a): a copied in to fill b (copied out by an enclosing region); writes to a on a
/// device with its own memory do not come back.
template <class Run>
void copyin_case(Run run) {
  auto a = random_array("a", n, 2), a0 = filled("a0", n, 0), b = filled("b", n, 0);
  for (int x = 0; x < n; ++x) a0[x] = a[x];
  {
    acc::data outer{acc::copy(b)};
    acc::data region{acc::copyin(a)};
    run(n, ACC_LAMBDA(int x) { b[x] = a[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(a[x], b[x]));
  {
    acc::data region{acc::copyin(a)};
    run(n, ACC_LAMBDA(int x) { a[x] = 0.0; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(a[x], separate_memory() ? a0[x] : 0.0));
}

/// copyout(b): b = a on the device comes back; inside a region where b is already present,
/// copyout does not copy (the enclosing region does, or update self does).
template <class Run>
void copyout_case(Run run) {
  auto a = random_array("a", n, 3), b = filled("b", n, 0);
  {
    acc::data outer{acc::copyin(a)};
    acc::data region{acc::copyout(b)};
    run(n, ACC_LAMBDA(int x) { b[x] = a[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(a[x], b[x]));
  for (int x = 0; x < n; ++x) b[x] = a[x];
  {
    acc::data outer{acc::copyin(a), acc::copyin(b)};
    {
      acc::data region{acc::copyout(b)};
      run(n, ACC_LAMBDA(int x) { b[x] = b[x] - a[x]; });
    }
    if (separate_memory())  // b was present: copyout at the construct did not copy it back
      for (int x = 0; x < n; ++x) REQUIRE(same(a[x], b[x]));
    acc::update_self(b);
  }
  for (int x = 0; x < n; ++x) REQUIRE(std::abs(b[x]) <= 2 * precision);
}

/// copyout(zero: b): the device copy starts zeroed, so `b[x] += a[x]` leaves a in b. On the
/// host device the data is its own device copy (shared memory) and keeps its host values, so a
/// host b of ones ends as a + 1 there. Data already present is not zeroed (T3).
template <class Run>
void copyout_zero_case(Run run) {
  auto a = random_array("a", n, 31);
  for (double start : {0.0, 1.0}) {  // T1: b zero on the host; T2: b one on the host
    auto b = filled("b", n, start);
    {
      acc::data outer{acc::copyin(a)};
      acc::data region{acc::copyout(b, acc::zero)};
      run(n, ACC_LAMBDA(int x) { b[x] += a[x]; });
    }
    const double kept = separate_memory() ? 0.0 : start;
    for (int x = 0; x < n; ++x) REQUIRE(same(b[x], a[x] + kept));
  }
  auto b = filled("b", n, 1);
  {
    acc::data outer{acc::copyin(a), acc::copy(b)};
    acc::data region{acc::copyout(b, acc::zero)};
    run(n, ACC_LAMBDA(int x) { b[x] += a[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(b[x], a[x] + 1));
}

/// create(zero: b): device scratch that starts zeroed, read back with update_self. The suite
/// makes b present with an enclosing copyout first, where create(zero:) allocates nothing
/// (OpenACC 3.3 §2.7.10: present data is used as it is); here create(b, acc::zero) is what
/// enters b, and the present case is checked on its own: it is not zeroed.
template <class Run>
void create_zero_case(Run run) {
  auto a = random_array("a", n, 32), b = filled("b", n, 1);
  {
    acc::data region{acc::copyin(a), acc::create(b, acc::zero)};
    run(n, ACC_LAMBDA(int x) { b[x] += a[x]; });
    acc::update_self(b);
  }
  const double kept = separate_memory() ? 0.0 : 1.0;
  for (int x = 0; x < n; ++x) REQUIRE(same(b[x], a[x] + kept));
  for (int x = 0; x < n; ++x) b[x] = 1;
  {
    acc::data outer{acc::copyin(a), acc::copy(b)};
    acc::data region{acc::create(b, acc::zero)};
    run(n, ACC_LAMBDA(int x) { b[x] += a[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(b[x], a[x] + 1));
}

/// create(b): device-only scratch passes a to c.
template <class Run>
void create_case(Run run) {
  auto a = random_array("a", n, 4), b = filled("b", n, 0), c = filled("c", n, 0);
  {
    acc::data outer{acc::copyin(a), acc::copy(c)};
    acc::data region{acc::create(b)};
    run(n, ACC_LAMBDA(int x) { b[x] = a[x]; });
    run(n, ACC_LAMBDA(int x) { c[x] = b[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(a[x], c[x]));
}

/// No clause for c: implicitly copy. T2: c entered with ones, zeroed on the host; the construct
/// uses the present copy, so the host keeps zeros until exit data copies out a + b + 1.
template <class Run>
void default_copy_case(Run run) {
  auto a = random_array("a", n, 5), b = random_array("b", n, 6), c = filled("c", n, 0);
  {
    acc::data region{acc::copyin(a), acc::copyin(b)};
    run(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(c[x], a[x] + b[x]));
  if (!separate_memory()) return;  // the suite's devonly test
  for (int x = 0; x < n; ++x) c[x] = 1;
  acc::enter_data(acc::copyin(c));
  for (int x = 0; x < n; ++x) c[x] = 0;
  {
    acc::data region{acc::copyin(a), acc::copyin(b)};
    run(n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(c[x] == 0.0);
  acc::exit_data(acc::copyout(c));
  for (int x = 0; x < n; ++x) REQUIRE(same(c[x], a[x] + b[x] + 1));
}

/// default(present) over data entered before.
template <class Run>
void default_present_case(Run run) {
  auto a = filled("a", n, 0);
  acc::enter_data(acc::copyin(a));
  run(n, ACC_LAMBDA(int x) { a[x] = 1.0; }, acc::default_present);
  acc::exit_data(acc::copyout(a));
  for (int x = 0; x < n; ++x) REQUIRE(a[x] == 1.0);
}

/// deviceptr(b), b = acc_deviceptr(a): writes through b land in a's device copy.
template <class Run>
void deviceptr_case(Run run) {
  auto a = filled("a", n, 0);
  acc::enter_data(acc::copyin(a));
  double* b = acc::deviceptr(a);
  REQUIRE(b != nullptr);
  {
    acc::data region{acc::deviceptr(b, n)};
    acc::view<double> bv(b, n);
    run(n, ACC_LAMBDA(int x) { bv[x] = 1; });
  }
  acc::exit_data(acc::copyout(a));
  for (int x = 0; x < n; ++x) REQUIRE(a[x] == 1.0);
}

/// if(host) / if(accel): c = a + b either way; with data present and if false, the host runs
/// it on host memory, so the copied-out device c stays zero (devonly).
template <class Run>
void if_case(Run run) {
  const bool accel = true, host = false;
  auto a = random_array("a", n, 7), b = random_array("b", n, 8), c = filled("c", n, 0);
  run(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; }, acc::if_(host));
  for (int x = 0; x < n; ++x) REQUIRE(same(c[x], a[x] + b[x]));
  for (int x = 0; x < n; ++x) c[x] = 0;
  if (separate_memory()) {
    acc::enter_data(acc::copyin(a), acc::copyin(b), acc::copyin(c));
    run(n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; }, acc::if_(host));
    acc::exit_data(acc::delete_(a), acc::delete_(b), acc::copyout(c));
    for (int x = 0; x < n; ++x) REQUIRE(c[x] == 0.0);
  }
  acc::enter_data(acc::copyin(a), acc::copyin(b), acc::copyin(c));
  run(n, ACC_LAMBDA(int x) { c[x] += a[x] + b[x]; }, acc::if_(accel), acc::default_present);
  acc::exit_data(acc::delete_(a), acc::delete_(b), acc::copyout(c));
  for (int x = 0; x < n; ++x) REQUIRE(same(c[x], a[x] + b[x], 2));
}

/// present(a, b) copy(c).
template <class Run>
void present_case(Run run) {
  auto a = random_array("a", n, 9), b = random_array("b", n, 10), c = filled("c", n, 0);
  acc::enter_data(acc::copyin(a), acc::copyin(b));
  {
    acc::data region{acc::present(a), acc::present(b), acc::copy(c)};
    run(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; });
  }
  acc::exit_data(acc::delete_(a), acc::delete_(b));
  for (int x = 0; x < n; ++x) REQUIRE(same(c[x], a[x] + b[x]));
}

/// A scalar without a clause is firstprivate: the host's value, unchanged after.
template <class Run>
void scalar_default_firstprivate_case(Run run) {
  std::mt19937 g(11);
  auto a = random_array("a", n, 12), b = filled("b", n, 0);
  const double scalar = uniform(g, 10), scalar_copy = scalar;
  {
    acc::data region{acc::copyin(a), acc::copyout(b)};
    run(n, ACC_LAMBDA(int x) { b[x] = a[x] + scalar; });
  }
  for (int x = 0; x < n; ++x) REQUIRE(same(b[x], a[x] + scalar_copy));
  REQUIRE(scalar == scalar_copy);
}

/// async(1), async(2), then wait(1, 2) async(3), updates on each queue, waits one by one.
template <class Run>
void async_case(Run run) {
  auto a = random_array("a", n, 13), b = random_array("b", n, 14), d = random_array("d", n, 15),
       e = random_array("e", n, 16);
  auto c = filled("c", n, 0), f = filled("f", n, 0), gg = filled("g", n, 0);
  acc::data region{acc::copyin(a), acc::copyin(b), acc::copyin(d), acc::copyin(e), acc::copyin(c),
                   acc::copyin(f), acc::copyin(gg)};
  run(n, ACC_LAMBDA(int x) { c[x] = a[x] + b[x]; }, acc::async(1));
  run(n, ACC_LAMBDA(int x) { f[x] = d[x] + e[x]; }, acc::async(2));
  acc::wait_async(1, 3);
  acc::wait_async(2, 3);
  run(n, ACC_LAMBDA(int x) { gg[x] = c[x] + f[x]; }, acc::async(3));
  acc::update_self(c, acc::async(1));
  acc::update_self(f, acc::async(2));
  acc::update_self(gg, acc::async(3));
  acc::wait(1);
  for (int x = 0; x < n; ++x) REQUIRE(same(c[x], a[x] + b[x]));
  acc::wait(2);
  for (int x = 0; x < n; ++x) REQUIRE(same(f[x], d[x] + e[x]));
  acc::wait(3);
  for (int x = 0; x < n; ++x) REQUIRE(same(gg[x], a[x] + b[x] + d[x] + e[x], 3));
}

/// update device async(1), then a construct that waits for queue 1.
template <class Run>
void wait_case(Run run) {
  auto a = random_array("a", n, 17), b = filled("b", n, 0);
  for (int x = 0; x < n; ++x) b[x] = a[x];
  acc::enter_data(acc::create(a));
  acc::update_device(a, acc::async(1));
  acc::wait(1);
  run(n, ACC_LAMBDA(int x) { a[x] += 1; }, acc::default_present);
  acc::exit_data(acc::copyout(a));
  for (int x = 0; x < n; ++x) REQUIRE(same(a[x], b[x] + 1));
}

/// switch inside the loop body, with a fall-through case.
template <class Run>
void switch_case(Run run) {
  std::mt19937 g(18);
  acc::array<int> a("a", n);
  auto b = random_array("b", n, 19), c = filled("c", n, 0), b_host = filled("bh", n, 0);
  for (int x = 0; x < n; ++x) {
    a[x] = static_cast<int>(std::floor(uniform(g, 10)));
    b_host[x] = b[x];
  }
  acc::enter_data(acc::copyin(a), acc::copyin(b), acc::copyin(c));
  run(n, ACC_LAMBDA(int x) {
    switch (a[x]) {
      case 0: c[x] = b[x] * b[x]; break;
      case 1: c[x] = b[x] / b[x]; break;
      case 2: b[x] = b[x] / 2; [[fallthrough]];
      default: c[x] = a[x] + b[x];
    }
  }, acc::default_present);
  acc::exit_data(acc::delete_(a), acc::delete_(b), acc::copyout(c));
  for (int x = 0; x < n; ++x) {
    double tempc;
    switch (a[x]) {
      case 0: tempc = b_host[x] * b_host[x]; break;
      case 1: tempc = b_host[x] / b_host[x]; break;
      case 2: b_host[x] = b_host[x] / 2; [[fallthrough]];
      default: tempc = a[x] + b_host[x];
    }
    REQUIRE(same(c[x], tempc));
  }
}

}  // namespace
}  // namespace vv
