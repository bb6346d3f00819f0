# Builds one program for one acc backend (internal to this repository; not installed).
# acc_add_backend_executable(<name> <backend> <sources...>)
# The same sources built for one backend: serial (no OpenMP), openmp, or cuda (nvcc; a CUDA
# source property is per directory, so .cu files that include the .cpp stand in for them).
function(acc_add_backend_executable name backend)
  set(sources ${ARGN})
  if(backend STREQUAL "cuda")
    set(cu_sources)
    foreach(src IN LISTS sources)
      get_filename_component(stem ${src} NAME_WE)
      get_filename_component(abs ${src} ABSOLUTE)
      set(cu ${CMAKE_CURRENT_BINARY_DIR}/cuda/${name}/${stem}.cu)
      file(GENERATE OUTPUT ${cu} CONTENT "#include \"${abs}\"\n")
      list(APPEND cu_sources ${cu})
    endforeach()
    set(sources ${cu_sources})
  endif()
  add_executable(${name} ${sources})
  if(backend STREQUAL "serial")
    target_link_libraries(${name} PRIVATE acc::headers)
  else()
    target_link_libraries(${name} PRIVATE acc::acc)
  endif()
  # -Wno-restrict: g++ 12 reports std::string concatenation at -O2 and above as overlapping
  # memcpy (GCC bug 105329), a false positive in the standard library, not in acc.
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Werror -Wno-restrict>)
endfunction()
