// The acc runtime, compiled once: the present table, async queue bookkeeping, device
// selection and NVTX names (include/acc/detail/runtime-inl.hpp). The CMake targets acc::acc
// and acc::headers link this library and define ACC_SEPARATE_RUNTIME, so that every other
// translation unit sees only declarations.
#define ACC_DETAIL_BUILDING_RUNTIME 1
#include <acc/detail/runtime-inl.hpp>
