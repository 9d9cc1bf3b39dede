# The version of addbo is written in one place, include/addbo/addbo.h (ADDBO_VERSION_MAJOR,
# _MINOR, _PATCH), which programs read at compile time. Included before project(), this reads
# it into ADDBO_VERSION ("MAJOR.MINOR.PATCH") for project(VERSION), from which the library's
# SONAME and version, addbo.pc, addboConfigVersion.cmake and the jar's manifest take it.
get_filename_component(addbo_version_header "${CMAKE_CURRENT_LIST_DIR}/../include/addbo/addbo.h"
  ABSOLUTE)
file(STRINGS "${addbo_version_header}" addbo_version_lines
  REGEX "^#define ADDBO_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+ *$")
set(ADDBO_VERSION "")
foreach(part MAJOR MINOR PATCH)
  if(NOT addbo_version_lines MATCHES "#define ADDBO_VERSION_${part} +([0-9]+)")
    message(FATAL_ERROR "${addbo_version_header}: no line \"#define ADDBO_VERSION_${part} <number>\"")
  endif()
  string(APPEND ADDBO_VERSION "${CMAKE_MATCH_1}.")
endforeach()
string(REGEX REPLACE "\\.$" "" ADDBO_VERSION "${ADDBO_VERSION}")
# A change of the header's version re-runs the configuration.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${addbo_version_header}")
