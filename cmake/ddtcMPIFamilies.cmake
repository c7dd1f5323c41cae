#===- cmake/ddtcMPIFamilies.cmake - The MPI libraries ddtc builds for -----===#
#
# The preload libraries wrap MPI functions by name, so they are compiled
# against one MPI ABI each (docs/runtime.md, "MPI families"):
#
#   mpich    MPICH's ABI (MPICH, Intel MPI, MVAPICH, Cray MPICH), found by
#            CMake's FindMPI with MPICH's wrappers (the top CMakeLists.txt);
#            target ddtcMPIFamily_mpich.
#   openmpi  Open MPI, where its compiler wrapper is found (DDTC_OPENMPI_CC,
#            default mpicc.openmpi) and DDTC_ENABLE_OPENMPI is on;
#            target ddtcMPIFamily_openmpi, from the flags the wrapper
#            reports.
#
# Each target carries the features ddtc's wrappers depend on, probed in the
# library itself rather than assumed from its version (MPISupport.h):
# DDTC_MPI_LARGE_COUNT (MPI 4's `_c` functions) and DDTC_MPI_4_CALLS (MPI
# 4's persistent collectives and MPI_Isendrecv). DDTC_MPI_FAMILIES lists the
# families found.
#
#===----------------------------------------------------------------------===#
include(CheckSymbolExists)

# Defines ddtcMPIFamily_<Family> on the include directories, libraries and
# options of the imported target Mpi, with the features it has.
function(ddtc_add_mpi_family Family Mpi)
  get_target_property(Includes ${Mpi} INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(Libraries ${Mpi} INTERFACE_LINK_LIBRARIES)
  set(CMAKE_REQUIRED_INCLUDES ${Includes})
  set(CMAKE_REQUIRED_LIBRARIES ${Libraries})
  set(CMAKE_REQUIRED_QUIET ON)
  check_symbol_exists(PMPI_Send_c mpi.h DDTC_${Family}_HAS_LARGE_COUNT)
  check_symbol_exists(PMPI_Isendrecv mpi.h DDTC_${Family}_HAS_MPI4_CALLS)
  foreach(Feature LARGE_COUNT MPI4_CALLS)
    if(DDTC_${Family}_HAS_${Feature})
      set(${Feature} 1)
    else()
      set(${Feature} 0)
    endif()
  endforeach()
  add_library(ddtcMPIFamily_${Family} INTERFACE)
  target_link_libraries(ddtcMPIFamily_${Family} INTERFACE ${Mpi})
  target_compile_definitions(ddtcMPIFamily_${Family} INTERFACE
    DDTC_MPI_LARGE_COUNT=${LARGE_COUNT} DDTC_MPI_4_CALLS=${MPI4_CALLS}
    # Neither library's C++ bindings: ddtc calls the C functions only.
    MPICH_SKIP_MPICXX OMPI_SKIP_MPICXX)
  message(STATUS "MPI family ${Family}: large-count calls ${LARGE_COUNT}, "
                 "MPI 4 calls ${MPI4_CALLS}")
  set(DDTC_MPI_FAMILIES ${DDTC_MPI_FAMILIES} ${Family} PARENT_SCOPE)
endfunction()

# Open MPI's wrapper reports its flags itself (--showme:*); FindMPI finds
# one MPI per build, and MPICH is that one.
function(ddtc_find_openmpi)
  find_program(DDTC_OPENMPI_CC NAMES mpicc.openmpi
    DOC "Open MPI's C compiler wrapper (for libddtc_rt_openmpi.so)")
  if(NOT DDTC_OPENMPI_CC)
    return()
  endif()
  foreach(Part incdirs libdirs libs)
    execute_process(COMMAND ${DDTC_OPENMPI_CC} --showme:${Part}
      OUTPUT_VARIABLE Out RESULT_VARIABLE Rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT Rc EQUAL 0)
      message(STATUS "${DDTC_OPENMPI_CC} --showme:${Part} failed: no Open MPI "
                     "build")
      return()
    endif()
    separate_arguments(${Part} UNIX_COMMAND "${Out}")
  endforeach()
  set(Libraries "")
  foreach(Lib ${libs})
    find_library(Found_${Lib} NAMES ${Lib} HINTS ${libdirs} NO_DEFAULT_PATH)
    if(NOT Found_${Lib})
      message(STATUS "Open MPI's lib${Lib} not found in ${libdirs}")
      return()
    endif()
    list(APPEND Libraries ${Found_${Lib}})
  endforeach()
  # Open MPI's C++ library is for its C++ bindings, which ddtc does not use.
  list(FILTER Libraries EXCLUDE REGEX "mpi_cxx")
  add_library(ddtc_openmpi_c INTERFACE IMPORTED)
  set_target_properties(ddtc_openmpi_c PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${incdirs}"
    INTERFACE_LINK_LIBRARIES "${Libraries}")
  ddtc_add_mpi_family(openmpi ddtc_openmpi_c)
  set(DDTC_MPI_FAMILIES ${DDTC_MPI_FAMILIES} PARENT_SCOPE)
  get_filename_component(Bin ${DDTC_OPENMPI_CC} DIRECTORY)
  find_program(DDTC_OPENMPI_MPIEXEC NAMES mpiexec.openmpi HINTS ${Bin}
    DOC "Open MPI's launcher")
endfunction()
