// A 2x2 matrix of integers mod 2^32 under the matrix product: associative, not commutative,
// with an identity; the scan tests use it to show that order is kept.
#pragma once

#include <acc/parallel.hpp>

#include <cstdint>
#include <ostream>

namespace acc_test {

struct mat2 {
  std::uint32_t a, b, c, d;
  friend bool operator==(const mat2&, const mat2&) = default;
};
struct mat_product {
  ACC_ROUTINE mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
  }
  ACC_ROUTINE mat2 identity() const { return {1, 0, 0, 1}; }
};

inline std::ostream& operator<<(std::ostream& os, const mat2& m) {
  return os << "[" << m.a << " " << m.b << "; " << m.c << " " << m.d << "]";
}

}  // namespace acc_test
