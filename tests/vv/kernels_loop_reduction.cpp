// V&V kernels_loop_reduction_*: `kernels loop reduction(op:...)` for every operator, as a
// scalar and as an array of slots, and a worker / vector reduction inside a gang loop.
// Every loop of these tests is a `kernels loop` whose iterations are independent (the
// reduction clause says so), so it is the parallel loop it maps to.
#include "reduction_family.hpp"

// Operators of their own: the same template instantiated with ACC_LAMBDA in two CUDA
// translation units crashes under nvcc (see docs/conformance.md), so these differ from
// parallel_loop_reduction.cpp's.
namespace kernels_ops {
struct add_d : vv::add_d {};
struct multiply_d : vv::multiply_d {};
struct max_d : vv::max_d {};
struct min_d : vv::min_d {};
struct and_d : vv::and_d {};
struct or_d : vv::or_d {};
struct bitand_d : vv::bitand_d {};
struct bitor_d : vv::bitor_d {};
struct bitxor_d : vv::bitxor_d {};
}  // namespace kernels_ops

#define VV_REDUCTION_CASES(opname, D)                                                              \
  TEST_CASE("vv kernels_loop_reduction_" opname "_general", "[vv][reduction]") { vv::general_family<D>(); } \
  TEST_CASE("vv kernels_loop_reduction_" opname "_loop", "[vv][reduction]") { vv::loop_family<D>(); }       \
  TEST_CASE("vv kernels_loop_reduction_" opname "_vector_loop", "[vv][reduction]") { vv::vector_loop_family<D>(); }

VV_REDUCTION_CASES("add", kernels_ops::add_d)
VV_REDUCTION_CASES("multiply", kernels_ops::multiply_d)
VV_REDUCTION_CASES("max", kernels_ops::max_d)
VV_REDUCTION_CASES("min", kernels_ops::min_d)
VV_REDUCTION_CASES("and", kernels_ops::and_d)
VV_REDUCTION_CASES("or", kernels_ops::or_d)
VV_REDUCTION_CASES("bitand", kernels_ops::bitand_d)
VV_REDUCTION_CASES("bitor", kernels_ops::bitor_d)
VV_REDUCTION_CASES("bitxor", kernels_ops::bitxor_d)
