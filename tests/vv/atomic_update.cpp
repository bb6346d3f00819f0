// OpenACC V&V `atomic` and `atomic update` tests (Tests/atomic_*.cpp, Tests/atomic_update_*.cpp)
// in acc: each runs the suite's statement from every iteration of a parallel loop on a few
// locations and checks the locations against the sequential result (vv::run_atomic).

#include "atomic_cases.hpp"

using vv::capture;
using vv::form;

TEST_CASE("vv atomic_bitand_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('&'), acc::bit_and);
}

TEST_CASE("vv atomic_bitor_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('|'), acc::bit_or);
}

TEST_CASE("vv atomic_bitxor_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_divided_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::multiply(), acc::divides);
}

TEST_CASE("vv atomic_expr_bitand_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::bits('&'), acc::bit_and);
}

TEST_CASE("vv atomic_expr_bitor_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::bits('|'), acc::bit_or);
}

TEST_CASE("vv atomic_expr_bitxor_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::bits('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_expr_divided_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::multiply(), acc::divides);
}

TEST_CASE("vv atomic_expr_lshift_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::expr_shifts(), acc::shift_left);
}

TEST_CASE("vv atomic_expr_minus_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::expr_minus(), acc::minus);
}

TEST_CASE("vv atomic_expr_multiply_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_expr_plus_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::plus_binned(), acc::plus);
}

TEST_CASE("vv atomic_expr_rshift_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::expr_shifts(), acc::shift_right);
}

TEST_CASE("vv atomic_lshift_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_minus_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_multiply_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_plus_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_postdecrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::histogram(false), acc::minus);
}

TEST_CASE("vv atomic_postincrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::histogram(true), acc::plus);
}

TEST_CASE("vv atomic_predecrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::histogram(true), acc::minus);
}

TEST_CASE("vv atomic_preincrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::histogram(true), acc::plus);
}

TEST_CASE("vv atomic_rshift_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::shifts(false), acc::shift_right);
}

TEST_CASE("vv atomic_update_bitand_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('&'), acc::bit_and);
}

TEST_CASE("vv atomic_update_bitor_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('|'), acc::bit_or);
}

TEST_CASE("vv atomic_update_bitxor_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_update_divided_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::multiply(), acc::divides);
}

TEST_CASE("vv atomic_update_expr_bitand_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::bits('&'), acc::bit_and);
}

TEST_CASE("vv atomic_update_expr_bitor_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::bits('|'), acc::bit_or);
}

TEST_CASE("vv atomic_update_expr_bitxor_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::bits('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_update_expr_divided_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::multiply(), acc::divides);
}

TEST_CASE("vv atomic_update_expr_lshift_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::expr_shifts(), acc::shift_left);
}

TEST_CASE("vv atomic_update_expr_minus_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::expr_minus(), acc::minus);
}

TEST_CASE("vv atomic_update_expr_multiply_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_update_expr_plus_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::plus_binned(), acc::plus);
}

TEST_CASE("vv atomic_update_expr_rshift_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::none>(vv::cases::expr_shifts(), acc::shift_right);
}

TEST_CASE("vv atomic_update_lshift_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_update_minus_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_update_multiply_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_update_plus_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_update_postdecrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::histogram(false), acc::minus);
}

TEST_CASE("vv atomic_update_postincrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::histogram(true), acc::plus);
}

TEST_CASE("vv atomic_update_predecrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::histogram(true), acc::minus);
}

TEST_CASE("vv atomic_update_preincrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::histogram(true), acc::plus);
}

TEST_CASE("vv atomic_update_rshift_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::shifts(false), acc::shift_right);
}

TEST_CASE("vv atomic_update_x_bitand_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('&'), acc::bit_and);
}

TEST_CASE("vv atomic_update_x_bitor_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('|'), acc::bit_or);
}

TEST_CASE("vv atomic_update_x_bitxor_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_update_x_divided_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::multiply(), acc::divides);
}

TEST_CASE("vv atomic_update_x_lshift_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_update_x_minus_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_update_x_multiply_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_update_x_plus_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::plus_binned(), acc::plus);
}

TEST_CASE("vv atomic_update_x_rshift_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::shifts(false), acc::shift_right);
}

TEST_CASE("vv atomic_x_bitand_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('&'), acc::bit_and);
}

TEST_CASE("vv atomic_x_bitor_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('|'), acc::bit_or);
}

TEST_CASE("vv atomic_x_bitxor_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::bits('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_x_divided_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::multiply(), acc::divides);
}

TEST_CASE("vv atomic_x_lshift_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_x_minus_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_x_multiply_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_x_plus_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::plus_binned(), acc::plus);
}

TEST_CASE("vv atomic_x_rshift_expr", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::none>(vv::cases::shifts(false), acc::shift_right);
}
