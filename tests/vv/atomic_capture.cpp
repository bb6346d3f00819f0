// OpenACC V&V `atomic capture` tests with one statement (`v = x op= e`, `v = x++`...;
// Tests/atomic_capture_*.cpp) in acc: the captured values must fit one sequential order.

#include "atomic_cases.hpp"

using vv::capture;
using vv::form;

TEST_CASE("vv atomic_capture_bitand_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits('&'), acc::bit_and);
}

TEST_CASE("vv atomic_capture_bitor_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits('|'), acc::bit_or);
}

TEST_CASE("vv atomic_capture_bitxor_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::bits('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_capture_divided_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::multiply(), acc::divides);
}

TEST_CASE("vv atomic_capture_expr_bitand_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::bits('&'), acc::bit_and);
}

TEST_CASE("vv atomic_capture_expr_bitor_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::bits('|'), acc::bit_or);
}

TEST_CASE("vv atomic_capture_expr_bitxor_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::bits('^'), acc::bit_xor);
}

TEST_CASE("vv atomic_capture_expr_divided_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::multiply(), acc::divides);
}

TEST_CASE("vv atomic_capture_expr_lshift_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::expr_shifts(), acc::shift_left);
}

TEST_CASE("vv atomic_capture_expr_minus_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::expr_minus(), acc::minus);
}

TEST_CASE("vv atomic_capture_expr_multiply_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_capture_expr_plus_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_capture_expr_rshift_x", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::e_op_x, capture::after>(vv::cases::expr_shifts(), acc::shift_right);
}

TEST_CASE("vv atomic_capture_lshift_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::shifts(true), acc::shift_left);
}

TEST_CASE("vv atomic_capture_minus_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::minus(), acc::minus);
}

TEST_CASE("vv atomic_capture_multiply_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::multiply(), acc::multiplies);
}

TEST_CASE("vv atomic_capture_plus_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::plus(), acc::plus);
}

TEST_CASE("vv atomic_capture_postdecrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::histogram(false), acc::minus);
}

TEST_CASE("vv atomic_capture_postincrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::before>(vv::cases::histogram(false), acc::plus);
}

TEST_CASE("vv atomic_capture_predecrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::histogram(false), acc::minus);
}

TEST_CASE("vv atomic_capture_preincrement", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::histogram(false), acc::plus);
}

TEST_CASE("vv atomic_capture_rshift_equals", "[vv][atomic]") {
  vv::reseed(__LINE__);
  vv::run_atomic<form::x_op_e, capture::after>(vv::cases::shifts(false), acc::shift_right);
}
