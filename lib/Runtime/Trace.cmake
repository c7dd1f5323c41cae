# The trace library (docs/runtime.md): libddtc_trace.so, preloaded into an
# unmodified MPI program, records the datatypes it commits and how it uses
# them, and writes one format v1 file per rank at MPI_Finalize.
# Included by lib/Runtime/CMakeLists.txt.

# Helpers shared by both runtime libraries (and by nothing that may link
# LLVM, CLI11 or nlohmann): output patterns, atomic files, the settings
# file (which ddtc-bench reads too) and the names of the kernel cache (which
# `ddtc cache` writes). Free of MPI: one for every family.
add_library(ddtcRuntimeSupport STATIC
  ${CMAKE_CURRENT_LIST_DIR}/KernelCacheLayout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/RuntimeSettings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/RuntimeSupport.cpp
  ${CMAKE_CURRENT_LIST_DIR}/SettingsStore.cpp
)
target_link_libraries(ddtcRuntimeSupport PUBLIC ddtcIR ddtcFormat)
set_target_properties(ddtcRuntimeSupport PROPERTIES POSITION_INDEPENDENT_CODE ON)

# Only the MPI_ wrappers are exported (the version script also hides the
# C++ library's template instances): the IR compiled into the library must
# not interpose on, or be interposed by, a program's own copy of ddtc.
# The Fortran entry points are mpi_* (and MPI_*).
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/ddtc_trace.map
  "{\n  global: MPI_*; mpi_*;\n  local: *;\n};\n")

# Open MPI's Fortran bindings, and MPICH's mpi_f08 for calls without a
# buffer, call the PMPI_ functions directly: the libraries define those
# Fortran entry points themselves (FortranBindings.cpp; Rows names the rows
# of FortranCalls.def Target wraps).
function(ddtc_add_fortran_bindings Target Rows)
  target_sources(${Target} PRIVATE ${DDTC_TRACE_SOURCE_DIR}/FortranBindings.cpp)
  target_compile_definitions(${Target} PRIVATE DDTC_FORTRAN_BINDINGS=1 ${Rows})
endfunction()

# libddtc_trace<Suffix>.so for the MPI of Family.
set(DDTC_TRACE_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR})
function(ddtc_add_trace_library Suffix Family)
  set(Trace ddtc_trace${Suffix})
  add_library(${Trace} SHARED
    ${DDTC_TRACE_SOURCE_DIR}/FamilyGuard.cpp
    ${DDTC_TRACE_SOURCE_DIR}/Tracer.cpp
    ${DDTC_TRACE_SOURCE_DIR}/TraceWrappers.cpp
  )
  target_link_libraries(${Trace} PRIVATE ddtcMPI${Suffix} ddtcRuntimeSupport
    ddtcIR ddtcTarget ddtcMPIFamily_${Family} ${CMAKE_DL_LIBS})
  set_target_properties(${Trace} PROPERTIES
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/ddtc_trace.map)
  target_link_options(${Trace} PRIVATE -Wl,--no-undefined
    -Wl,--version-script=${CMAKE_CURRENT_BINARY_DIR}/ddtc_trace.map)
  ddtc_add_fortran_bindings(${Trace} DDTC_FORTRAN_TRACE)
  install(TARGETS ${Trace} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

ddtc_add_trace_library("" mpich)
if(openmpi IN_LIST DDTC_MPI_FAMILIES)
  ddtc_add_trace_library(_openmpi openmpi)
endif()
