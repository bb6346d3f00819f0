// Inputs of the V&V `atomic` tests (facts from the suite's Tests/atomic_*.cpp: which location
// each iteration updates, operand ranges, initial values), as vv::atomic_case.
#pragma once

#include "atomic_harness.hpp"

namespace vv::cases {
namespace {

inline int mod_slots() { return n / 10 + 1; }

/// totals[x % (n/10+1)] += a[x] * b[x], a and b uniform in [0, 10), totals from 0.
inline atomic_case<double> plus() {
  return by_mod(mod_slots(), 0.0, [](int) { return uniform() * uniform(); });
}
/// totals[(int)((a + b) / 2)] += a * b: ten locations chosen by the data.
inline atomic_case<double> plus_binned() {
  atomic_case<double> c;
  c.init.assign(10, 0.0);
  for (int x = 0; x < n; ++x) {
    const double a = uniform(), b = uniform();
    c.add(static_cast<int>((a + b) / 2), a * b);
  }
  return c;
}
/// totals[x % 10] -= a[x] + b[x].
inline atomic_case<double> minus() {
  return by_mod(10, 0.0, [](int) { return uniform() + uniform(); });
}
/// totals = a[x] - totals, totals[x % (n/10+1)] from 0.
inline atomic_case<double> expr_minus() {
  return by_mod(mod_slots(), 0.0, [](int) { return uniform(); });
}
/// totals[x % (n/10+1)] *= a[x] + b[x] (also /=), totals from 1.
inline atomic_case<double> multiply() {
  return by_mod(mod_slots(), 1.0, [](int) { return uniform() + uniform(); });
}
/// totals[x / 10] /= a[x] + b[x], totals from 1.
inline atomic_case<double> divide_div10() {
  return by_div10(1.0, [](int) { return uniform() + uniform(); });
}

/// Eight-bit operands: for & each bit set with probability .933 and totals from 255, for |
/// each bit set with probability .067 and totals from 0 (about half the bits of ten operands
/// end up set either way), for ^ probability .5.
inline double bit_probability(char op) { return op == '&' ? .933 : op == '|' ? 1 - .933 : .5; }
inline int bit_init(char op) { return op == '&' ? 255 : 0; }
inline atomic_case<int> bits(char op) {
  return by_mod(mod_slots(), bit_init(op), [op](int) { return static_cast<int>(random_bits(8, bit_probability(op))); });
}
inline atomic_case<int> bits_div10(char op) {
  return by_div10(bit_init(op), [op](int) { return static_cast<int>(random_bits(8, bit_probability(op))); });
}

/// distribution[(int)(a * b / 10)] +-= 1 for a[x], b[x] (`nested`: a[x], b[y] for every x, y).
inline atomic_case<int> histogram(bool nested) {
  atomic_case<int> c;
  c.init.assign(10, 0);
  std::vector<double> a(n), b(n);
  for (int x = 0; x < n; ++x) {
    a[x] = uniform();
    b[x] = uniform();
  }
  for (int x = 0; x < n; ++x) {
    if (nested)
      for (int y = 0; y < n; ++y) c.add(static_cast<int>(a[x] * b[y] / 10), 1);
    else
      c.add(static_cast<int>(a[x] * b[x] / 10), 1);
  }
  return c;
}

/// a[x] <<= 1 (or >>= 1) once for every set bit of a random 7-bit b[x]; a from 1 (from 1 << 7
/// for right shifts), so a[x] ends at 1 << popcount(b[x]) (or 1 << (7 - popcount)).
inline atomic_case<unsigned> shifts(bool left) {
  atomic_case<unsigned> c;
  c.init.assign(n, left ? 1u : 1u << 7);
  for (int x = 0; x < n; ++x) {
    const unsigned b = random_bits(7, .5);
    for (int y = 0; y < 7; ++y)
      if ((b >> y) & 1u) c.add(x, 1u);
  }
  return c;
}
/// b[x] = a[x*3 + y] << b[x] (or >>) for y in 0..2, a in [0, 4), b from 0.
inline atomic_case<unsigned> expr_shifts() {
  atomic_case<unsigned> c;
  c.init.assign(n, 0u);
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < 3; ++y) c.add(x, static_cast<unsigned>(uniform(4.0)));
  return c;
}

}  // namespace
}  // namespace vv::cases
