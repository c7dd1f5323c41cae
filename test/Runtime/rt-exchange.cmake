# The programs of the substitution runtime's tests (rt-exchange.cpp,
# rt-collectives.cpp, rt-collective-forms.cpp and the one-sided
# rt-onesided.cpp), in test/Runtime of
# the build tree, once per MPI family (rt-exchange, rt-exchange-openmpi,
# ...). Included by test/CMakeLists.txt.
set(DDTC_RT_TEST_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
# Suffix is empty for MPICH, -openmpi for Open MPI; Family names the family
# (rt-collective-forms needs MPI 4's persistent collectives).
function(ddtc_add_rt_exchange Suffix Family)
  string(REPLACE "-" "_" LibSuffix "${Suffix}")
  set(Programs rt-exchange rt-collectives)
  if(DDTC_${Family}_HAS_MPI4_CALLS)
    list(APPEND Programs rt-collective-forms)
  endif()
  foreach(Program ${Programs})
    set(Name ${Program}${Suffix})
    add_executable(${Name} ${DDTC_RT_TEST_SOURCE_DIR}/${Program}.cpp)
    target_link_libraries(${Name} PRIVATE ddtcMPI${LibSuffix} ddtcReader
      ddtcIR ddtcTarget)
    set_target_properties(${Name} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/Runtime)
  endforeach()
  # MPI alone: the program knows nothing of ddtc.
  set(Name rt-onesided${Suffix})
  add_executable(${Name} ${DDTC_RT_TEST_SOURCE_DIR}/rt-onesided.cpp)
  target_link_libraries(${Name} PRIVATE ddtcMPI${LibSuffix})
  set_target_properties(${Name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/Runtime)
endfunction()
