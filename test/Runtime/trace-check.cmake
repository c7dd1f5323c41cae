# The helper of the trace library's tests (trace-check.cpp), in
# test/Runtime of the build tree. Included by test/CMakeLists.txt.
add_executable(trace-check ${CMAKE_CURRENT_LIST_DIR}/trace-check.cpp)
target_link_libraries(trace-check PRIVATE ddtcMPI ddtcReader ddtcIR
  ddtcTesting nlohmann_json::nlohmann_json MPI::MPI_CXX)
set_target_properties(trace-check PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/Runtime)
