# The program of the substitution runtime's tests (rt-exchange.cpp), in
# test/Runtime of the build tree. Included by test/CMakeLists.txt.
add_executable(rt-exchange ${CMAKE_CURRENT_LIST_DIR}/rt-exchange.cpp)
target_link_libraries(rt-exchange PRIVATE ddtcMPI ddtcReader ddtcIR
  MPI::MPI_CXX)
set_target_properties(rt-exchange PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/Runtime)
