# Adds OpenMP to an interface target for both C++ and CUDA sources: FindOpenMP (CMake 3.25)
# only covers the C++ compiler, and nvcc needs the flag handed to its host compiler so that
# the host fallback of CUDA builds runs in parallel too.
function(acc_link_openmp target)
  if(NOT TARGET OpenMP::OpenMP_CXX)
    find_package(OpenMP QUIET COMPONENTS CXX)
  endif()
  if(TARGET OpenMP::OpenMP_CXX)
    target_link_libraries(${target} INTERFACE OpenMP::OpenMP_CXX)
    target_compile_options(${target} INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fopenmp>)
  endif()
endfunction()
