# The library's targets; shared by this build and, through the export, by consumers.
#   acc::runtime  the runtime compiled once (src/runtime.cpp): present table, queues, device
#                 selection, NVTX names. Plain C++: no kernels, so one build serves g++ and
#                 nvcc translation units alike; NVTX and the CUDA side of the runtime (streams,
#                 device memory, staged transfers: src/runtime_cuda.cpp) when the CUDA
#                 toolkit's headers are found.
#   acc::headers  include path, C++20, nvcc's lambda flags, acc::runtime: serial host backend
#                 (+ CUDA).
#   acc::acc      acc::headers plus OpenMP when the compiler has it: parallel host backend.
add_library(acc_runtime STATIC ${PROJECT_SOURCE_DIR}/src/runtime.cpp)
add_library(acc::runtime ALIAS acc_runtime)
set_target_properties(acc_runtime PROPERTIES EXPORT_NAME runtime OUTPUT_NAME acc_runtime
                                             POSITION_INDEPENDENT_CODE ON)
target_include_directories(acc_runtime PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_features(acc_runtime PUBLIC cxx_std_20)
find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND)
  # nvtx3 is header-only; only its headers are needed (it loads the profiler with dlopen).
  target_include_directories(acc_runtime PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
  target_link_libraries(acc_runtime PUBLIC ${CMAKE_DL_LIBS})
  # The CUDA side of the runtime, compiled once rather than in every nvcc translation unit;
  # only programs with such a unit pull this object out of the static library.
  target_sources(acc_runtime PRIVATE ${PROJECT_SOURCE_DIR}/src/runtime_cuda.cpp)
  target_compile_definitions(acc_runtime INTERFACE ACC_RUNTIME_CUDA)
endif()
find_package(Threads REQUIRED)
target_link_libraries(acc_runtime PUBLIC Threads::Threads)

add_library(acc_headers INTERFACE)
add_library(acc::headers ALIAS acc_headers)
set_target_properties(acc_headers PROPERTIES EXPORT_NAME headers)
target_include_directories(acc_headers INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                                 $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(acc_headers INTERFACE cxx_std_20)
target_compile_definitions(acc_headers INTERFACE ACC_SEPARATE_RUNTIME)
target_link_libraries(acc_headers INTERFACE acc_runtime)
# CMake 3.25 knows no C++20 flag for nvcc 13 (cuda_std_20 is "not known"), so say it here;
# nvcc accepts a repeated -std, and the last one wins. A body that calls a host function (one
# without ACC_ROUTINE) is only a warning to nvcc, which then compiles the kernel without the
# body: an error instead (--Werror cross-execution-space-call).
target_compile_options(acc_headers INTERFACE
  "$<$<COMPILE_LANGUAGE:CUDA>:-std=c++20;--extended-lambda;--expt-relaxed-constexpr;SHELL:--Werror cross-execution-space-call>")

add_library(acc INTERFACE)
add_library(acc::acc ALIAS acc)
target_link_libraries(acc INTERFACE acc_headers)
include(${CMAKE_CURRENT_LIST_DIR}/acc_openmp.cmake)
acc_link_openmp(acc)
