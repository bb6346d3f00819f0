// The CUDA side of the acc runtime, compiled once: streams, device memory, staged transfers,
// graphs, the errors of CUDA calls (include/acc/backend/cuda/runtime-inl.hpp) and launch
// planning (launch-inl.hpp). Host code over the CUDA runtime API only, so the C++ compiler
// builds it. acc_runtime is a static library and only translation units that nvcc compiled
// refer to this object, so only programs that have one link it (and the CUDA runtime with it,
// which nvcc links anyway); the CMake targets announce it with ACC_RUNTIME_CUDA.
#define ACC_DETAIL_BUILDING_RUNTIME 1
#include <acc/backend/cuda/runtime-inl.hpp>
#include <acc/backend/cuda/launch-inl.hpp>
