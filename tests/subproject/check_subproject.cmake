# ctest subproject_defaults: addbo taken in by a parent project with add_subdirectory()
# (CMakeLists.txt beside this file) builds the library only.
#   cmake -DSOURCE_DIR=<this directory> -DADDBO_SOURCE_DIR=<addbo> -DWORK_DIR=<scratch>
#         -DC_COMPILER=... -DCXX_COMPILER=... -P check_subproject.cmake
# Checks: the tests, benchmarks and bindings options default to OFF and none of their targets
# exists (the build's targets are an allowed list); the parent's build type is left alone; the
# parent's program compiles against addbo.h through the addbo target, which is the shared
# library with the version of include/addbo/addbo.h. Only the parent's own source is compiled:
# building the core would take minutes, and the main build links and runs the same library.
cmake_minimum_required(VERSION 3.16)
file(REMOVE_RECURSE "${WORK_DIR}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${output}")
  endif()
  set(output "${output}" PARENT_SCOPE)
endfunction()

run("configuring the parent project" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}"
  -G "Unix Makefiles" "-DADDBO_SOURCE_DIR=${ADDBO_SOURCE_DIR}"
  "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")

set(failures "")
file(STRINGS "${WORK_DIR}/CMakeCache.txt" cache)
foreach(option TESTS BENCHMARKS BINDINGS)
  if(NOT "ADDBO_BUILD_${option}:BOOL=OFF" IN_LIST cache)
    string(APPEND failures "ADDBO_BUILD_${option} is not OFF by default in a subproject\n")
  endif()
endforeach()
if(NOT "CMAKE_BUILD_TYPE:STRING=" IN_LIST cache)
  string(APPEND failures "addbo set the parent's CMAKE_BUILD_TYPE\n")
endif()

# Every target of the build: the library's, the parent's, and CMake's own.
run("listing the targets" "${CMAKE_COMMAND}" --build "${WORK_DIR}" --target help)
string(REGEX MATCHALL "\\.\\.\\. [^ \n]+" targets "${output}")
set(allowed all clean depend edit_cache rebuild_cache install install/local install/strip
  list_install_components addbo addbo_core addbo_static addbo_parent parent.o parent.i parent.s)
foreach(target IN LISTS targets)
  string(REPLACE "... " "" target "${target}")
  if(NOT target IN_LIST allowed)
    string(APPEND failures "unexpected target in a subproject build: ${target}\n")
  endif()
endforeach()
if(NOT "... addbo" IN_LIST targets)
  string(APPEND failures "no target addbo in the subproject build\n")
endif()

# The parent's program compiles against the target's include directories.
run("compiling the parent's program" "${CMAKE_COMMAND}" --build "${WORK_DIR}" --target parent.o)

# The library the parent links, and its versions, against the header's.
file(STRINGS "${ADDBO_SOURCE_DIR}/include/addbo/addbo.h" header_lines
  REGEX "^#define ADDBO_VERSION_(MAJOR|MINOR|PATCH) ")
set(version "")
foreach(line IN LISTS header_lines)
  string(REGEX REPLACE "^#define ADDBO_VERSION_[A-Z]+ +([0-9]+).*" "\\1" number "${line}")
  list(APPEND version "${number}")
endforeach()
list(GET version 0 major)
list(JOIN version "." version)
file(READ "${WORK_DIR}/addbo_link.txt" link)
set(expected "libaddbo.so.${version}|SHARED_LIBRARY|${version}|${major}")
if(NOT link STREQUAL expected)
  string(APPEND failures "the parent links ${link}, expected ${expected}\n")
endif()

if(failures)
  message(FATAL_ERROR "${failures}")
endif()
message(STATUS "subproject: library targets only, ${link}")
