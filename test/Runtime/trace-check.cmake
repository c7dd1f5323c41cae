# The helper of the trace library's tests (trace-check.cpp), in
# test/Runtime of the build tree, once per MPI family (trace-check,
# trace-check-openmpi). Included by test/CMakeLists.txt.
set(DDTC_TRACE_CHECK_SOURCE ${CMAKE_CURRENT_LIST_DIR}/trace-check.cpp)
# Suffix is empty for MPICH, -openmpi for Open MPI.
function(ddtc_add_trace_check Suffix)
  string(REPLACE "-" "_" LibSuffix "${Suffix}")
  set(Name trace-check${Suffix})
  add_executable(${Name} ${DDTC_TRACE_CHECK_SOURCE})
  target_link_libraries(${Name} PRIVATE ddtcMPI${LibSuffix} ddtcReader ddtcIR
    ddtcTarget ddtcTesting nlohmann_json::nlohmann_json)
  set_target_properties(${Name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/Runtime)
endfunction()
