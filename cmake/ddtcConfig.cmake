#===- cmake/ddtcConfig.cmake - find_package(ddtc) --------------------------===#
#
# The package configuration of ddtc, found by find_package(ddtc). The same
# file serves the installed package (<prefix>/lib/cmake/ddtc) and the build
# tree (ddtc_DIR=<build>): both put ddtcTargets.cmake, which imports the tool
# as ddtc::ddtc, and ddtcGenerate.cmake, which defines ddtc_generate(), next
# to it. The package has no components.
#
#===------------------------------------------------------------------------===#
include("${CMAKE_CURRENT_LIST_DIR}/ddtcTargets.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/ddtcGenerate.cmake")

foreach(Component IN LISTS ddtc_FIND_COMPONENTS)
  if(ddtc_FIND_REQUIRED_${Component})
    set(ddtc_FOUND FALSE)
    set(ddtc_NOT_FOUND_MESSAGE "ddtc has no component '${Component}'")
  endif()
endforeach()
