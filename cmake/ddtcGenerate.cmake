#===- cmake/ddtcGenerate.cmake - ddtc_generate() ---------------------------===#
#
# Runs `ddtc emit` as a build step and compiles its output into a target, in
# the manner of protobuf_generate(). Loaded by ddtcConfig.cmake (installed
# package and build tree) and by ddtc's own top-level CMakeLists.txt, so that
# a project that adds ddtc with add_subdirectory() can call it too. The ddtc
# executable is the target ddtc::ddtc: imported from ddtcTargets.cmake, or
# the alias of the tool built alongside. Reference: docs/emit.md, "Using ddtc
# from CMake".
#
#   ddtc_generate(<target>
#                 DESCRIPTIONS <file>...   # format v1 descriptions (or traces)
#                 [PREFIX <name>]          # base name of the four files; one
#                                          # description only; default: the
#                                          # description's name without its
#                                          # last extension
#                 [OUTPUT_DIR <dir>]       # default: ddtc_generated/<target>
#                                          # in the current binary dir
#                 [MPI]                    # also compile PREFIX_mpi.c
#                                          # (ddtc_NAME_build) into <target>
#                 [SHARED]                 # <target> is a kernel library for
#                                          # the runtime (DDTC_KERNELS): made
#                                          # with add_library(SHARED) unless it
#                                          # exists, and then it must be shared
#                 [OPTIONS <arg>...]       # more arguments of `ddtc emit`
#                 [OUT_VAR <var>])         # set <var> to the generated files
#
#===------------------------------------------------------------------------===#
include_guard(GLOBAL)

function(ddtc_generate Target)
  cmake_parse_arguments(PARSE_ARGV 1 Arg "MPI;SHARED"
                        "PREFIX;OUTPUT_DIR;OUT_VAR" "DESCRIPTIONS;OPTIONS")
  if(Arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "ddtc_generate: unknown arguments: ${Arg_UNPARSED_ARGUMENTS}")
  endif()
  foreach(Keyword IN ITEMS PREFIX OUTPUT_DIR OUT_VAR)
    if(Keyword IN_LIST Arg_KEYWORDS_MISSING_VALUES)
      message(FATAL_ERROR "ddtc_generate: ${Keyword} needs a value")
    endif()
  endforeach()
  # SHARED makes the kernel library itself (after the checks below), so
  # that `ddtc_generate(halo_kernels SHARED DESCRIPTIONS trace.json)` is all
  # it takes; any other target must exist and be one sources can be added to.
  set(CreateLibrary FALSE)
  if(NOT TARGET ${Target})
    if(NOT Arg_SHARED)
      message(FATAL_ERROR "ddtc_generate: '${Target}' is not a target")
    endif()
    set(CreateLibrary TRUE)
    set(TargetType SHARED_LIBRARY)
  else()
    get_target_property(TargetType ${Target} TYPE)
    get_target_property(Aliased ${Target} ALIASED_TARGET)
    get_target_property(Imported ${Target} IMPORTED)
    if(Aliased OR Imported OR TargetType STREQUAL "INTERFACE_LIBRARY"
       OR TargetType STREQUAL "UTILITY")
      message(FATAL_ERROR "ddtc_generate: '${Target}' must be an executable or "
        "a library built by this project (it is ${TargetType})")
    endif()
    # A kernel library is loaded with dlopen: a module does as well.
    if(Arg_SHARED AND NOT TargetType STREQUAL "SHARED_LIBRARY"
       AND NOT TargetType STREQUAL "MODULE_LIBRARY")
      message(FATAL_ERROR "ddtc_generate: SHARED needs a shared library, "
        "but '${Target}' is a ${TargetType}; drop SHARED, or name a target "
        "that does not exist yet and ddtc_generate creates the library")
    endif()
  endif()
  if(NOT Arg_DESCRIPTIONS)
    message(FATAL_ERROR "ddtc_generate: DESCRIPTIONS needs at least one file")
  endif()
  list(LENGTH Arg_DESCRIPTIONS NumDescriptions)
  if(DEFINED Arg_PREFIX)
    if(NOT NumDescriptions EQUAL 1)
      message(FATAL_ERROR "ddtc_generate: PREFIX needs exactly one "
        "description, got ${NumDescriptions}; call ddtc_generate once per "
        "description to name each, or let the names default")
    endif()
    # The emitted sources include their header by base name, and the C
    # identifiers in it come from the type names, not from PREFIX: a path
    # here would only split the four files from the include directory.
    if(Arg_PREFIX MATCHES "[/\\]" OR Arg_PREFIX STREQUAL ""
       OR Arg_PREFIX STREQUAL "." OR Arg_PREFIX STREQUAL "..")
      message(FATAL_ERROR "ddtc_generate: PREFIX must be a file name without "
        "a directory, got '${Arg_PREFIX}' (use OUTPUT_DIR for the directory)")
    endif()
  endif()

  # The emitted code needs a C++ compiler, and the MPI code a C compiler; a
  # source of a language the project did not enable would be silently left
  # out of the build.
  get_property(Languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CXX" IN_LIST Languages)
    message(FATAL_ERROR "ddtc_generate: the generated pack/unpack code is "
      "C++; enable CXX in project() or enable_language()")
  endif()
  if(Arg_MPI AND NOT "C" IN_LIST Languages)
    message(FATAL_ERROR "ddtc_generate: MPI adds PREFIX_mpi.c, which is C; "
      "enable C in project() or enable_language()")
  endif()

  if(NOT TARGET ddtc::ddtc)
    message(FATAL_ERROR "ddtc_generate: no target ddtc::ddtc; call "
      "find_package(ddtc) first")
  endif()

  if(CreateLibrary)
    add_library(${Target} SHARED)
    # The runtime finds the kernels through the table the library registers
    # and exports (docs/emit.md, "Kernel table"): keep them visible even in
    # a project that hides symbols by default.
    set_target_properties(${Target} PROPERTIES
      POSITION_INDEPENDENT_CODE ON
      CXX_VISIBILITY_PRESET default
      C_VISIBILITY_PRESET default)
  endif()

  if(DEFINED Arg_OUTPUT_DIR)
    cmake_path(ABSOLUTE_PATH Arg_OUTPUT_DIR
               BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
               NORMALIZE OUTPUT_VARIABLE OutDir)
  else()
    set(OutDir "${CMAKE_CURRENT_BINARY_DIR}/ddtc_generated/${Target}")
  endif()

  set(Generated)
  set(Prefixes)
  foreach(Description IN LISTS Arg_DESCRIPTIONS)
    cmake_path(ABSOLUTE_PATH Description
               BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
               NORMALIZE OUTPUT_VARIABLE DescriptionPath)
    if(DEFINED Arg_PREFIX)
      set(Prefix "${Arg_PREFIX}")
    else()
      cmake_path(GET DescriptionPath STEM LAST_ONLY Prefix)
    endif()
    if(Prefix IN_LIST Prefixes)
      message(FATAL_ERROR "ddtc_generate: two descriptions of '${Target}' "
        "would both write ${OutDir}/${Prefix}.*; rename one, or generate it "
        "with its own ddtc_generate call and PREFIX")
    endif()
    list(APPEND Prefixes "${Prefix}")

    set(Base "${OutDir}/${Prefix}")
    set(Outputs "${Base}.h" "${Base}.cpp" "${Base}_mpi.h" "${Base}_mpi.c")
    cmake_path(RELATIVE_PATH DescriptionPath
               BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}"
               OUTPUT_VARIABLE ShownPath)
    # `ddtc emit` writes all four files or none; DEPENDS on the executable
    # target re-runs it when ddtc is rebuilt or reinstalled, and a change of
    # OPTIONS changes the command line, which Ninja also re-runs on.
    add_custom_command(
      OUTPUT ${Outputs}
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${OutDir}"
      COMMAND ddtc::ddtc emit "${DescriptionPath}" -o "${Base}" ${Arg_OPTIONS}
      DEPENDS "${DescriptionPath}" ddtc::ddtc
      COMMENT "ddtc: generating ${Prefix}.{h,cpp,_mpi.h,_mpi.c} from ${ShownPath}"
      VERBATIM)

    target_sources(${Target} PRIVATE "${Base}.h" "${Base}.cpp")
    if(Arg_MPI)
      target_sources(${Target} PRIVATE "${Base}_mpi.h" "${Base}_mpi.c")
    endif()
    list(APPEND Generated ${Outputs})
  endforeach()

  # Libraries pass the directory on to what links them (their headers may
  # include the generated ones); BUILD_INTERFACE keeps the build path out of
  # an installed export.
  if(TargetType STREQUAL "EXECUTABLE")
    target_include_directories(${Target} PRIVATE "${OutDir}")
  else()
    target_include_directories(${Target} PUBLIC "$<BUILD_INTERFACE:${OutDir}>")
  endif()

  if(DEFINED Arg_OUT_VAR)
    set(${Arg_OUT_VAR} ${Generated} PARENT_SCOPE)
  endif()
endfunction()
