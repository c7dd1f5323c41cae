# The trace library (contracts §5): libddtc_trace.so, preloaded into an
# unmodified MPI program, records the datatypes it commits and how it uses
# them, and writes one format v1 file per rank at MPI_Finalize.
# Included by lib/Runtime/CMakeLists.txt.

# Helpers shared by both runtime libraries (and by nothing that may link
# LLVM, CLI11 or nlohmann): output patterns, JSON quoting, atomic files,
# and the v1 writer.
add_library(ddtcRuntimeSupport STATIC
  ${CMAKE_CURRENT_LIST_DIR}/RuntimeSupport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/TraceWriter.cpp
)
target_link_libraries(ddtcRuntimeSupport PUBLIC ddtcIR)
set_target_properties(ddtcRuntimeSupport PROPERTIES POSITION_INDEPENDENT_CODE ON)
