# Part B of the V&V translation: parallel*, serial*, kernels*, acc_* (runtime routines),
# init*, shutdown*, set*, kernel_*.
list(APPEND ACC_VV_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/parallel_loop_reduction.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernels_loop_reduction.cpp
  ${CMAKE_CURRENT_LIST_DIR}/parallel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/parallel_loop.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernels.cpp
  ${CMAKE_CURRENT_LIST_DIR}/runtime.cpp
  ${CMAKE_CURRENT_LIST_DIR}/serial.cpp
)
