// OpenACC V&V `atomic capture` tests with a structured block (`{v = x; x op= e;}` and
// `{x op= e; v = x;}`; Tests/atomic_structured_*.cpp) in acc: acc::atomic_capture returns x
// before the update; the value after it is computed from that.

#include "atomic_cases.hpp"

using vv::capture;
using vv::form;

TEST_CASE("vv atomic_structured_assign_assign", "[vv][atomic]") {
  // {c = b; b = a;} as one atomic capture: acc::atomic_ref's exchange.
  vv::reseed(__LINE__);
  std::vector<double> av(vv::n), bv(vv::n);
  for (int x = 0; x < vv::n; ++x) {
    av[x] = vv::uniform();
    bv[x] = vv::uniform();
  }
  acc::array<double> a = vv::filled("a", av), b = vv::filled("b", bv), c("c", vv::n);
  {
    acc::data region{acc::copyin(a), acc::copy(b), acc::copyout(c)};
    acc::parallel_loop(vv::n, ACC_LAMBDA(int x) { c[x] = acc::atomic_ref<double>(b[x]).exchange(a[x]); });
  }
  for (int x = 0; x < vv::n; ++x) {
    REQUIRE(c[x] == bv[x]);
    REQUIRE(b[x] == av[x]);
  }
}

TEST_CASE("vv atomic_structured_assign_bitand_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::bits_div10('&'), acc::bit_and);
}

TEST_CASE("vv atomic_structured_assign_bitor_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::bits_div10('|'), acc::bit_or);
}

TEST_CASE("vv atomic_structured_assign_bitxor_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::bits_div10('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_structured_assign_divided_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::divide_div10(), acc::divides);
}

TEST_CASE("vv atomic_structured_assign_expr_bitand_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::before>(vv::cases::bits_div10('&'), acc::bit_and);
}

TEST_CASE("vv atomic_structured_assign_expr_bitor_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::before>(vv::cases::bits_div10('|'), acc::bit_or);
}

TEST_CASE("vv atomic_structured_assign_expr_bitxor_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::before>(vv::cases::bits_div10('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_structured_assign_expr_divided_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::before>(vv::cases::divide_div10(), acc::divides);
}

TEST_CASE("vv atomic_structured_assign_expr_multiply_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::before>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_structured_assign_expr_plus_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::before>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_structured_assign_lshift_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_structured_assign_minus_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_structured_assign_multiply_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_structured_assign_plus_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_structured_assign_postdecrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::histogram(false), acc::minus);
}

TEST_CASE("vv atomic_structured_assign_postincrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::histogram(false), acc::plus);
}

TEST_CASE("vv atomic_structured_assign_predecrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::histogram(false), acc::minus);
}

TEST_CASE("vv atomic_structured_assign_preincrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::histogram(false), acc::plus);
}

TEST_CASE("vv atomic_structured_assign_rshift_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::shifts(false), acc::shift_right);
}

TEST_CASE("vv atomic_structured_assign_x_bitand_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::bits_div10('&'), acc::bit_and);
}

TEST_CASE("vv atomic_structured_assign_x_bitor_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::bits_div10('|'), acc::bit_or);
}

TEST_CASE("vv atomic_structured_assign_x_bitxor_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::bits_div10('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_structured_assign_x_divided_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::divide_div10(), acc::divides);
}

TEST_CASE("vv atomic_structured_assign_x_lshift_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_structured_assign_x_minus_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_structured_assign_x_multiply_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_structured_assign_x_plus_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_structured_assign_x_rshift_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::shifts(false), acc::shift_right);
}

TEST_CASE("vv atomic_structured_bitand_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits_div10('&'), acc::bit_and);
}

TEST_CASE("vv atomic_structured_bitor_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits_div10('|'), acc::bit_or);
}

TEST_CASE("vv atomic_structured_bitxor_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits_div10('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_structured_divided_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::divide_div10(), acc::divides);
}

TEST_CASE("vv atomic_structured_expr_bitand_x_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::bits_div10('&'), acc::bit_and);
}

TEST_CASE("vv atomic_structured_expr_bitor_x_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::bits_div10('|'), acc::bit_or);
}

TEST_CASE("vv atomic_structured_expr_bitxor_x_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::bits_div10('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_structured_expr_multiply_x_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_structured_expr_plus_x_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_structured_lshift_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_structured_minus_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_structured_multiply_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_structured_plus_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_structured_postdecrement_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::histogram(false), acc::minus);
}

TEST_CASE("vv atomic_structured_postincrement_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::histogram(false), acc::plus);
}

TEST_CASE("vv atomic_structured_predecrement_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::histogram(false), acc::minus);
}

TEST_CASE("vv atomic_structured_preincrement_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::histogram(false), acc::plus);
}

TEST_CASE("vv atomic_structured_rshift_equals_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::shifts(false), acc::shift_right);
}

TEST_CASE("vv atomic_structured_x_bitand_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits_div10('&'), acc::bit_and);
}

TEST_CASE("vv atomic_structured_x_bitor_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits_div10('|'), acc::bit_or);
}

TEST_CASE("vv atomic_structured_x_bitxor_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits_div10('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_structured_x_divided_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::divide_div10(), acc::divides);
}

TEST_CASE("vv atomic_structured_x_lshift_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_structured_x_minus_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_structured_x_multiply_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_structured_x_plus_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_structured_x_rshift_expr_assign", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::shifts(false), acc::shift_right);
}
