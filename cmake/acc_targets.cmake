# The library's two targets; shared by this build and, through the export, by consumers.
#   acc::headers  include path, C++20, nvcc's lambda flags: serial host backend (+ CUDA).
#   acc::acc      acc::headers plus OpenMP when the compiler has it: parallel host backend.
add_library(acc_headers INTERFACE)
add_library(acc::headers ALIAS acc_headers)
set_target_properties(acc_headers PROPERTIES EXPORT_NAME headers)
target_include_directories(acc_headers INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                                 $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(acc_headers INTERFACE cxx_std_20)
# CMake 3.25 knows no C++20 flag for nvcc 13 (cuda_std_20 is "not known"), so say it here;
# nvcc accepts a repeated -std, and the last one wins.
target_compile_options(acc_headers INTERFACE
  $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 --extended-lambda --expt-relaxed-constexpr>)

add_library(acc INTERFACE)
add_library(acc::acc ALIAS acc)
target_link_libraries(acc INTERFACE acc_headers)
include(${CMAKE_CURRENT_LIST_DIR}/acc_openmp.cmake)
acc_link_openmp(acc)
