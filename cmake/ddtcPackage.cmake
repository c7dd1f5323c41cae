#===- cmake/ddtcPackage.cmake - the installable CMake package --------------===#
#
# Makes ddtc a CMake package, usable two ways with find_package(ddtc):
#   - installed: `cmake --install <build> [--prefix P]` puts the tool in
#     P/bin and the package in P/lib/cmake/ddtc;
#   - from the build tree, without installing: ddtc_DIR=<build> (or <build>
#     in CMAKE_PREFIX_PATH).
# Either way it imports the tool as ddtc::ddtc and defines ddtc_generate()
# (cmake/ddtcGenerate.cmake). Included by the top-level CMakeLists.txt after
# tools/, whose CMakeLists.txt puts the ddtc target in the export set
# ddtcTargets.
#
#===------------------------------------------------------------------------===#
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DDTC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/ddtc" CACHE STRING
    "Where `cmake --install` puts ddtc's CMake package, relative to the prefix")

# Before 1.0 a minor version may change the interface.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/ddtcConfigVersion.cmake"
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)

# Build tree: the package files beside build.ninja, imported target pointing
# at the tool as built.
export(EXPORT ddtcTargets NAMESPACE ddtc::
       FILE "${PROJECT_BINARY_DIR}/ddtcTargets.cmake")
configure_file("${PROJECT_SOURCE_DIR}/cmake/ddtcConfig.cmake"
               "${PROJECT_BINARY_DIR}/ddtcConfig.cmake" COPYONLY)
configure_file("${PROJECT_SOURCE_DIR}/cmake/ddtcGenerate.cmake"
               "${PROJECT_BINARY_DIR}/ddtcGenerate.cmake" COPYONLY)

# Install tree: the imported target's location is relative to the prefix, so
# the installed package can be moved.
install(EXPORT ddtcTargets NAMESPACE ddtc::
        DESTINATION "${DDTC_INSTALL_CMAKEDIR}")
install(FILES
          "${PROJECT_SOURCE_DIR}/cmake/ddtcConfig.cmake"
          "${PROJECT_SOURCE_DIR}/cmake/ddtcGenerate.cmake"
          "${PROJECT_BINARY_DIR}/ddtcConfigVersion.cmake"
        DESTINATION "${DDTC_INSTALL_CMAKEDIR}")
