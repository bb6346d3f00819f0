# cmake -DMPIEXEC=.. -DNPFLAG=-np -DFLAGS="a;b" -DPROGRAM=.. -DARGS="n;iterations;halo" -P same_answer.cmake
# Runs PROGRAM on 1 and on 2 ranks and fails unless both print the same checksum line.
foreach(np 1 2)
  execute_process(COMMAND ${MPIEXEC} ${NPFLAG} ${np} ${FLAGS} ${PROGRAM} ${ARGS}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  message("-np ${np}:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mpi_heat2d -np ${np} failed (${rc})")
  endif()
  string(REGEX MATCH "checksum [^\n]*" sum_${np} "${out}")
  if(sum_${np} STREQUAL "")
    message(FATAL_ERROR "mpi_heat2d -np ${np} printed no checksum")
  endif()
endforeach()
if(NOT sum_1 STREQUAL sum_2)
  message(FATAL_ERROR "-np 1 and -np 2 differ: '${sum_1}' vs '${sum_2}'")
endif()
message("same answer on 1 and 2 ranks: ${sum_1}")
