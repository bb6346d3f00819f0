// V&V parallel_loop_reduction_*: `parallel loop reduction(op:...)` for every operator, as a
// scalar and as an array of slots, and a worker / vector reduction inside a gang loop.
#include "reduction_family.hpp"

#define VV_REDUCTION_CASES(opname, D)                                                              \
  TEST_CASE("vv parallel_loop_reduction_" opname "_general", "[vv][reduction]") { vv::general_family<D>(); } \
  TEST_CASE("vv parallel_loop_reduction_" opname "_loop", "[vv][reduction]") { vv::loop_family<D>(); }       \
  TEST_CASE("vv parallel_loop_reduction_" opname "_vector_loop", "[vv][reduction]") { vv::vector_loop_family<D>(); }

VV_REDUCTION_CASES("add", vv::add_d)
VV_REDUCTION_CASES("multiply", vv::multiply_d)
VV_REDUCTION_CASES("max", vv::max_d)
VV_REDUCTION_CASES("min", vv::min_d)
VV_REDUCTION_CASES("and", vv::and_d)
VV_REDUCTION_CASES("or", vv::or_d)
VV_REDUCTION_CASES("bitand", vv::bitand_d)
VV_REDUCTION_CASES("bitor", vv::bitor_d)
VV_REDUCTION_CASES("bitxor", vv::bitxor_d)

TEST_CASE("vv parallel_loop_reduction_add_general_type_check_pt1", "[vv][reduction]") {
  vv::add_typed<bool>();
  vv::add_typed<char>();
  vv::add_typed<signed char>();
  vv::add_typed<unsigned char>();
  vv::add_typed<short>();
  vv::add_typed<int>();
  vv::add_typed<long>();
  vv::add_typed<long long>();
}

TEST_CASE("vv parallel_loop_reduction_add_general_type_check_pt2", "[vv][reduction]") {
  vv::add_typed<unsigned short>();
  vv::add_typed<unsigned>();
  vv::add_typed<unsigned long>();
  vv::add_typed<unsigned long long>();
  vv::add_typed<float>();
  vv::add_typed<double>();
#ifndef __CUDACC__  // nvcc: long double is double in device code; acc rejects it at compile time
  vv::add_typed<long double>();
#endif
  vv::add_typed<vv::cplx<float>>();
}

TEST_CASE("vv parallel_loop_reduction_add_general_type_check_pt3", "[vv][reduction]") {
  vv::add_typed<vv::cplx<double>>();
#ifndef __CUDACC__  // as above; a struct of long doubles is not caught at compile time
  vv::add_typed<vv::cplx<long double>>();
#endif
}

TEST_CASE("vv parallel_loop_reduction_add_loop_type_check_pt1", "[vv][reduction]") {
  vv::add_typed<char>(true);
  vv::add_typed<short>(true);
  vv::add_typed<int>(true);
  vv::add_typed<long long>(true);
  vv::add_typed<unsigned>(true);
}
