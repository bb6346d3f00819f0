// V&V kernels_loop_reduction_*: `kernels loop reduction(op:...)` for every operator, as a
// scalar and as an array of slots, and a worker / vector reduction inside a gang loop.
// Every loop of these tests is a `kernels loop` whose iterations are independent (the
// reduction clause says so), so it is the parallel loop it maps to.
#include "reduction_family.hpp"

#define VV_REDUCTION_CASES(opname, D)                                                              \
  TEST_CASE("vv kernels_loop_reduction_" opname "_general", "[vv][reduction]") { vv::general_family<D>(); } \
  TEST_CASE("vv kernels_loop_reduction_" opname "_loop", "[vv][reduction]") { vv::loop_family<D>(); }       \
  TEST_CASE("vv kernels_loop_reduction_" opname "_vector_loop", "[vv][reduction]") { vv::vector_loop_family<D>(); }

VV_REDUCTION_CASES("add", vv::add_d)
VV_REDUCTION_CASES("multiply", vv::multiply_d)
VV_REDUCTION_CASES("max", vv::max_d)
VV_REDUCTION_CASES("min", vv::min_d)
VV_REDUCTION_CASES("and", vv::and_d)
VV_REDUCTION_CASES("or", vv::or_d)
VV_REDUCTION_CASES("bitand", vv::bitand_d)
VV_REDUCTION_CASES("bitor", vv::bitor_d)
VV_REDUCTION_CASES("bitxor", vv::bitxor_d)
