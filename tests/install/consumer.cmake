# A program that uses an installed addbo (PREFIX) and nothing from the build tree, built and run.
#   MODE=find_package:      configures and builds consumer/ (C and C++ programs,
#                           find_package(addbo); also linked to addbo::addbo_static when STATIC)
#   MODE=pkg_config:        compiles consumer/consumer.c with the flags of `pkg-config addbo`
#   MODE=pkg_config_static: the same with `pkg-config --static`, linked to libaddbo.a
#   MODE=dlopen:            compiles EXAMPLE (dlopen_quickstart.c) with the installed headers
#                           and DL_LIBS only, and runs it on the installed libaddbo.so.MAJOR
# Other definitions: SOURCE_DIR (consumer/), WORK_DIR, C_COMPILER, CXX_COMPILER,
# SANITIZE_FLAGS, VERSION, PKGCONFIGDIR, PKG_CONFIG, READELF, SHARED, STATIC (the libraries
# installed), LIBDIR and INCLUDEDIR (relative to PREFIX).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  message(STATUS "${ARGN}\n${output}")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}")
  endif()
endfunction()

# A statically linked consumer must not need libaddbo.so at run time.
function(expect_no_libaddbo_needed executable)
  execute_process(COMMAND "${READELF}" -d "${executable}" OUTPUT_VARIABLE dynamic
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR dynamic MATCHES "\\[libaddbo")
    message(FATAL_ERROR "${executable} needs libaddbo.so:\n${dynamic}")
  endif()
  message(STATUS "${executable}: linked statically to libaddbo.a")
endfunction()

# pkg-config sees only the installed addbo.pc.
function(use_installed_pc)
  set(ENV{PKG_CONFIG_LIBDIR} "${PREFIX}/${PKGCONFIGDIR}")
  set(ENV{PKG_CONFIG_PATH} "")
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
  if(STATIC)
    # The C consumer from a C-only project (consumer/c_only: no C++ compiler enabled), and the
    # C++ wrapper, whose classes share their names with the core's inside libaddbo.a.
    run("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/c_only" -B "${WORK_DIR}/c_only"
        "-DCMAKE_PREFIX_PATH=${PREFIX}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
        "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_C_FLAGS=${SANITIZE_FLAGS}"
        "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
    run("${CMAKE_COMMAND}" --build "${WORK_DIR}/c_only")
    foreach(program c_only/consumer_c_static consumer_cpp_static)
      expect_no_libaddbo_needed("${WORK_DIR}/${program}")
      run("${WORK_DIR}/${program}")
    endforeach()
  endif()
elseif(MODE STREQUAL "pkg_config_static")
  use_installed_pc()
  execute_process(COMMAND "${PKG_CONFIG}" --static --cflags --libs addbo OUTPUT_VARIABLE flags
    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status)
  # Libs.private follows -laddbo: the C++ runtime and the threads library.
  if(NOT status EQUAL 0 OR NOT flags MATCHES "-laddbo .*-l")
    message(FATAL_ERROR "pkg-config --static --cflags --libs addbo: '${flags}'")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  if(SHARED)
    # Beside libaddbo.so, -laddbo finds the shared library: ask for the archive, as
    # docs/installing.md says.
    list(TRANSFORM flags REPLACE "^-laddbo$" "-Wl,-Bstatic;-laddbo;-Wl,-Bdynamic")
  endif()
  run("${C_COMPILER}" ${sanitize} -std=c99 -Wall -Wextra -Werror "${SOURCE_DIR}/consumer.c"
      ${flags} -o "${WORK_DIR}/consumer_c")
  expect_no_libaddbo_needed("${WORK_DIR}/consumer_c")
  run("${WORK_DIR}/consumer_c")
elseif(MODE STREQUAL "dlopen")
  # The installed headers, and no libaddbo on the command line: addbo_dl.h loads it.
  set(dl_flags)
  foreach(library IN LISTS DL_LIBS)
    list(APPEND dl_flags "-l${library}")
  endforeach()
  run("${C_COMPILER}" ${sanitize} -std=c99 -Wall -Wextra -Werror "-I${PREFIX}/${INCLUDEDIR}"
      "${EXAMPLE}" ${dl_flags} -o "${WORK_DIR}/dlopen_quickstart")
  string(REGEX MATCH "^[0-9]+" major "${VERSION}")
  run("${WORK_DIR}/dlopen_quickstart" "${PREFIX}/${LIBDIR}/libaddbo.so.${major}")
elseif(MODE STREQUAL "pkg_config")
  use_installed_pc()
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
  message(FATAL_ERROR "MODE must be find_package, pkg_config, pkg_config_static or dlopen")
endif()
