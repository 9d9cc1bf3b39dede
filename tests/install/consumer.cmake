# A program that uses an installed addbo (PREFIX) and nothing from the build tree, built and run.
#   MODE=find_package: configures and builds consumer/ (C and C++ programs, find_package(addbo))
#   MODE=pkg_config:   compiles consumer/consumer.c with the flags of `pkg-config addbo`
# Other definitions: SOURCE_DIR (consumer/), WORK_DIR, C_COMPILER, CXX_COMPILER,
# SANITIZE_FLAGS, VERSION, PKGCONFIGDIR, PKG_CONFIG.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  message(STATUS "${ARGN}\n${output}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
separate_arguments(sanitize UNIX_COMMAND "${SANITIZE_FLAGS}")

if(MODE STREQUAL "find_package")
  run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}"
      "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
      "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
      "-DCMAKE_C_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}"
      "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}" "-DEXPECTED_PREFIX=${PREFIX}")
  run("${CMAKE_COMMAND}" --build "${WORK_DIR}")
  run("${WORK_DIR}/consumer_c")
  run("${WORK_DIR}/consumer_cpp")
elseif(MODE STREQUAL "pkg_config")
  # Only the installed addbo.pc is visible.
  set(ENV{PKG_CONFIG_LIBDIR} "${PREFIX}/${PKGCONFIGDIR}")
  set(ENV{PKG_CONFIG_PATH} "")
  execute_process(COMMAND "${PKG_CONFIG}" --modversion addbo OUTPUT_VARIABLE version
    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT version STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config --modversion addbo: '${version}', expected '${VERSION}'")
  endif()
  execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs addbo OUTPUT_VARIABLE flags
    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
  execute_process(COMMAND "${PKG_CONFIG}" --variable=libdir addbo OUTPUT_VARIABLE libdir
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT status EQUAL 0 OR NOT flags MATCHES "-laddbo")
    message(FATAL_ERROR "pkg-config --cflags --libs addbo: '${flags}'")
  endif()
  # The .pc file is relocatable: its directories must lie in the prefix it was installed to.
  get_filename_component(libdir_real "${libdir}" REALPATH)
  get_filename_component(prefix_real "${PREFIX}" REALPATH)
  string(FIND "${libdir_real}" "${prefix_real}/" at)
  if(NOT at EQUAL 0)
    message(FATAL_ERROR "pkg-config libdir '${libdir}' is not under '${PREFIX}'")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run("${C_COMPILER}" ${sanitize} -std=c99 -Wall -Wextra -Werror "${SOURCE_DIR}/consumer.c"
      ${flags} "-Wl,-rpath,${libdir}" -o "${WORK_DIR}/consumer_c")
  run("${WORK_DIR}/consumer_c")
else()
  message(FATAL_ERROR "MODE must be find_package or pkg_config")
endif()
