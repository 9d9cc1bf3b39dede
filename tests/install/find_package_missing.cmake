# install_find_package_missing_component: find_package(addbo ... COMPONENTS <component>) of a
# library kind that is not installed fails, and says why and what to do (issue 27, item 5.8:
# it failed with "considered to be NOT FOUND" and no reason). A project of its own in WORK_DIR.
# Input: PREFIX, WORK_DIR, COMPONENT (static or shared), C_COMPILER.
file(REMOVE_RECURSE "${WORK_DIR}")
file(WRITE "${WORK_DIR}/CMakeLists.txt" "cmake_minimum_required(VERSION 3.16)
project(missing_component LANGUAGES C)
find_package(addbo 0.1 REQUIRED CONFIG COMPONENTS ${COMPONENT})
")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${WORK_DIR}" -B "${WORK_DIR}/build" "-DCMAKE_PREFIX_PATH=${PREFIX}"
          -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "-DCMAKE_C_COMPILER=${C_COMPILER}"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message(STATUS "${output}")
string(REGEX REPLACE "[ \t\r\n]+" " " flat "${output}")  # CMake wraps the reason's lines
if(status EQUAL 0 OR NOT flat MATCHES "the ${COMPONENT} library \\(libaddbo\\.(a|so)\\) is not installed in this addbo .* -DADDBO_BUILD_(STATIC|SHARED)=ON")
  message(FATAL_ERROR "expected find_package to fail naming the missing ${COMPONENT} library "
    "and the option to build it (${status})")
endif()
