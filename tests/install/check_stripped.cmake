# install_stripped, run with cmake -P after install_prefix: the installed libraries in PREFIX are
# stripped as configured (ADDBO_INSTALL_STRIP: no debug information; libaddbo.so without its
# symbol table either, its dynamic symbols intact); then a second install into DEBUG_PREFIX with
# ADDBO_INSTALL_DEBUG_INFO=ON (cmake_install.cmake reads the options again) must leave
# libaddbo.so stripped but linked (.gnu_debuglink, same build ID) to LIBDIR/.debug/<file>.debug,
# where gdb, when given, finds the source line of addbo_ask; libaddbo.a keeps its own. The sizes
# are printed (docs/installing.md quotes them).
# Definitions: BUILD_DIR, PREFIX, DEBUG_PREFIX, LIBDIR, LIBRARIES ("<file name>=<build tree
# file>", "|"-separated), STRIP, DEBUG_INFO, READELF, GDB (may be empty or -NOTFOUND).

set(failures 0)
function(fail message)
  message(SEND_ERROR "${message}")
  math(EXPR count "${failures} + 1")
  set(failures ${count} PARENT_SCOPE)
endfunction()

function(sections file out)
  execute_process(COMMAND "${READELF}" -S -W "${file}" OUTPUT_VARIABLE text RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${READELF} -S failed on ${file}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(build_id file out)
  execute_process(COMMAND "${READELF}" -n "${file}" OUTPUT_VARIABLE text)
  string(REGEX MATCH "Build ID: ([0-9a-f]+)" found "${text}")
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

# check(<prefix> <strip> <debug info>): the libraries installed in <prefix>.
macro(check prefix strip debug_info)
  foreach(entry IN LISTS libraries)
    string(REGEX REPLACE "=.*" "" name "${entry}")
    string(REGEX REPLACE "^[^=]*=" "" built "${entry}")
    set(installed "${prefix}/${LIBDIR}/${name}")
    sections("${built}" built_sections)
    sections("${installed}" installed_sections)
    set(built_debug FALSE)
    if(built_sections MATCHES "\\.debug_info")
      set(built_debug TRUE)
    endif()
    file(SIZE "${built}" built_size)
    file(SIZE "${installed}" installed_size)
    set(report "${name}: ${built_size} bytes in the build tree, ${installed_size} installed")
    set(shared FALSE)
    if(name MATCHES "\\.so")
      set(shared TRUE)
    endif()

    if(${strip} AND shared)
      if(installed_sections MATCHES "\\.debug_info|\\.symtab")
        fail("${installed}: not stripped")
      endif()
      if(NOT installed_sections MATCHES "\\.dynsym")
        fail("${installed}: no dynamic symbol table")
      endif()
    elseif(${strip} AND NOT ${debug_info} AND installed_sections MATCHES "\\.debug_info")
      fail("${installed}: still has debug information")
    endif()

    if(${strip} AND ${debug_info} AND built_debug)
      if(shared)
        set(debug_file "${prefix}/${LIBDIR}/.debug/${name}.debug")
        if(NOT installed_sections MATCHES "\\.gnu_debuglink")
          fail("${installed}: no .gnu_debuglink")
        endif()
        if(NOT EXISTS "${debug_file}")
          fail("not installed: ${debug_file}")
        else()
          sections("${debug_file}" debug_sections)
          build_id("${installed}" library_id)
          build_id("${debug_file}" debug_id)
          file(SIZE "${debug_file}" debug_size)
          string(APPEND report ", ${debug_size} of debug information in ${LIBDIR}/.debug/")
          if(NOT debug_sections MATCHES "\\.debug_info")
            fail("${debug_file}: no .debug_info")
          endif()
          if(NOT library_id STREQUAL debug_id)
            fail("build IDs differ: '${library_id}' (library), '${debug_id}' (debug file)")
          endif()
          # gdb reads .gnu_debuglink and looks in .debug/ beside the library.
          if(GDB AND NOT GDB MATCHES "-NOTFOUND$")
            execute_process(COMMAND "${GDB}" -nx -batch -ex "info line addbo_ask" "${installed}"
              OUTPUT_VARIABLE gdb_output ERROR_VARIABLE gdb_output)
            if(NOT gdb_output MATCHES "Line [0-9]+ of \"[^\"]*addbo_c\\.cpp\"")
              fail("gdb did not find the debug information of ${installed}:\n${gdb_output}")
            else()
              string(APPEND report " (gdb finds it)")
            endif()
          endif()
        endif()
      elseif(NOT installed_sections MATCHES "\\.debug_info")
        fail("${installed}: the debug information was not kept")
      endif()
    endif()
    message(STATUS "${report}")
  endforeach()
endmacro()

string(REPLACE "|" ";" libraries "${LIBRARIES}")
message(STATUS "As installed by install_prefix (ADDBO_INSTALL_STRIP=${STRIP}, "
  "ADDBO_INSTALL_DEBUG_INFO=${DEBUG_INFO}):")
check("${PREFIX}" STRIP DEBUG_INFO)

file(REMOVE_RECURSE "${DEBUG_PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" "-DCMAKE_INSTALL_PREFIX=${DEBUG_PREFIX}"
  -DADDBO_INSTALL_STRIP=ON -DADDBO_INSTALL_DEBUG_INFO=ON -P "${BUILD_DIR}/cmake_install.cmake"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "install with ADDBO_INSTALL_DEBUG_INFO=ON failed (${status}):\n${output}")
endif()
set(on ON)
message(STATUS "Installed with ADDBO_INSTALL_STRIP=ON, ADDBO_INSTALL_DEBUG_INFO=ON:")
check("${DEBUG_PREFIX}" on on)

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) of the installed libraries failed")
endif()
