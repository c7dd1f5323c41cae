# The trace library (docs/runtime.md): libddtc_trace.so, preloaded into an
# unmodified MPI program, records the datatypes it commits and how it uses
# them, and writes one format v1 file per rank at MPI_Finalize.
# Included by lib/Runtime/CMakeLists.txt.

# Helpers shared by both runtime libraries (and by nothing that may link
# LLVM, CLI11 or nlohmann): output patterns, atomic files and the settings
# file (which ddtc-bench reads too).
add_library(ddtcRuntimeSupport STATIC
  ${CMAKE_CURRENT_LIST_DIR}/RuntimeSettings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/RuntimeSupport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SettingsStore.cpp
)
target_link_libraries(ddtcRuntimeSupport PUBLIC ddtcIR ddtcFormat)
set_target_properties(ddtcRuntimeSupport PROPERTIES POSITION_INDEPENDENT_CODE ON)

add_library(ddtc_trace SHARED
  ${CMAKE_CURRENT_LIST_DIR}/Tracer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/TraceWrappers.cpp
)
target_link_libraries(ddtc_trace PRIVATE ddtcMPI ddtcRuntimeSupport ddtcIR
  MPI::MPI_C ${CMAKE_DL_LIBS})
# Only the MPI_ wrappers are exported (the version script also hides the
# C++ library's template instances): the IR compiled into the library must
# not interpose on, or be interposed by, a program's own copy of ddtc.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/ddtc_trace.map
  "{\n  global: MPI_*;\n  local: *;\n};\n")
set_target_properties(ddtc_trace PROPERTIES
  CXX_VISIBILITY_PRESET hidden
  VISIBILITY_INLINES_HIDDEN ON
  LINK_DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/ddtc_trace.map)
target_link_options(ddtc_trace PRIVATE -Wl,--no-undefined
  -Wl,--version-script=${CMAKE_CURRENT_BINARY_DIR}/ddtc_trace.map)
install(TARGETS ddtc_trace LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
