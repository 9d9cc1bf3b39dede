# Run by `cmake --install` for each installed libaddbo (install(CODE) in AddboPackaging.cmake):
# strips the installed copy and, for the shared library, moves its debug information to
# <libdir>/.debug/<file>.debug with a .gnu_debuglink to it. The debug information is taken from
# the build tree's file, because `cmake --install --strip` may already have stripped the copy.
# Input: ADDBO_INSTALL_STRIP, ADDBO_INSTALL_DEBUG_INFO, ADDBO_STRIP_INSTALLED (the installed
# file), ADDBO_STRIP_BUILT (the build tree's), ADDBO_STRIP_TYPE (SHARED_LIBRARY or
# STATIC_LIBRARY), ADDBO_STRIP_WORK_DIR, ADDBO_OBJCOPY, ADDBO_READELF.

function(addbo_strip_run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status ERROR_VARIABLE error)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "failed (${status}): ${ARGN}\n${error}")
  endif()
endfunction()

if(NOT ADDBO_INSTALL_STRIP)
  return()
endif()

if(ADDBO_STRIP_TYPE STREQUAL "STATIC_LIBRARY")
  # The symbol table stays: a linker needs it. The debug information goes, or is compressed
  # (linkers and gdb read compressed sections; 84 MB become 42 MB).
  if(NOT ADDBO_INSTALL_DEBUG_INFO)
    addbo_strip_run("${ADDBO_OBJCOPY}" --strip-debug "${ADDBO_STRIP_INSTALLED}")
    message(STATUS "Stripped of debug information: ${ADDBO_STRIP_INSTALLED}")
  else()
    addbo_strip_run("${ADDBO_OBJCOPY}" --compress-debug-sections=zlib "${ADDBO_STRIP_INSTALLED}")
    message(STATUS "Debug information compressed: ${ADDBO_STRIP_INSTALLED}")
  endif()
  return()
endif()

# A build without -g (Release, MinSizeRel) has no debug information to keep.
execute_process(COMMAND "${ADDBO_READELF}" -S -W "${ADDBO_STRIP_BUILT}"
  OUTPUT_VARIABLE sections RESULT_VARIABLE status)
set(debug_file "")
if(ADDBO_INSTALL_DEBUG_INFO AND status EQUAL 0 AND sections MATCHES "\\.debug_info")
  get_filename_component(name "${ADDBO_STRIP_INSTALLED}" NAME)
  get_filename_component(directory "${ADDBO_STRIP_INSTALLED}" DIRECTORY)
  file(MAKE_DIRECTORY "${ADDBO_STRIP_WORK_DIR}")
  set(extracted "${ADDBO_STRIP_WORK_DIR}/${name}.debug")
  addbo_strip_run("${ADDBO_OBJCOPY}" --only-keep-debug --compress-debug-sections=zlib
    "${ADDBO_STRIP_BUILT}" "${extracted}")
  # file(INSTALL) prints it and records it in install_manifest.txt, as for any installed file.
  file(INSTALL "${extracted}" DESTINATION "${directory}/.debug")
  set(debug_file "${directory}/.debug/${name}.debug")
endif()

# --strip-unneeded keeps the dynamic symbol table (the exported C API); an earlier
# .gnu_debuglink goes, as the copy may be one stripped by an earlier install.
addbo_strip_run("${ADDBO_OBJCOPY}" --strip-unneeded --remove-section=.gnu_debuglink
  "${ADDBO_STRIP_INSTALLED}")
if(debug_file)
  # Records the file's name and checksum; gdb finds it in .debug/ beside the library.
  addbo_strip_run("${ADDBO_OBJCOPY}" "--add-gnu-debuglink=${debug_file}" "${ADDBO_STRIP_INSTALLED}")
  message(STATUS "Stripped: ${ADDBO_STRIP_INSTALLED} (debug information: ${debug_file})")
else()
  message(STATUS "Stripped: ${ADDBO_STRIP_INSTALLED}")
endif()
