# install_readme_rpath: the README's C quickstart, compiled by the README's own lines that record
# the library's directory in the program (-Wl,-rpath,...), against a copy of the installed tree;
# then the copy's lib/pkgconfig is deleted, as in a deployment of the run-time files only, and
# the program must still run: its RUNPATH must not pass through lib/pkgconfig (issue 27, item
# 5.6: `-Wl,-rpath,$(pkg-config --variable=libdir addbo)` recorded .../lib/pkgconfig/../../lib).
# Input: PREFIX (the installed tree), README, WORK_DIR, PKGCONFIGDIR (relative to PREFIX),
# READELF.
include("${CMAKE_CURRENT_LIST_DIR}/markdown_block.cmake")
file(REMOVE_RECURSE "${WORK_DIR}")
set(copy "${WORK_DIR}/opt/addbo")
file(MAKE_DIRECTORY "${copy}")
execute_process(COMMAND cp -a "${PREFIX}/." "${copy}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cannot copy ${PREFIX} to ${copy}")
endif()

addbo_markdown_block("${README}" "### C, linked\n" "```c" program)
file(WRITE "${WORK_DIR}/quickstart.c" "${program}")
addbo_markdown_block("${README}" "or record the library's directory in the program" "```"
  commands)
message(STATUS "the README's lines:\n${commands}")
set(ENV{PKG_CONFIG_PATH} "${copy}/${PKGCONFIGDIR}")
set(ENV{PKG_CONFIG_LIBDIR} "${copy}/${PKGCONFIGDIR}")  # no other addbo.pc
set(ENV{LD_LIBRARY_PATH} "")
execute_process(COMMAND sh -e -c "${commands}" WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
addbo_quickstart_result("${README}" expected)
if(NOT status EQUAL 0 OR NOT output MATCHES "${expected}")
  message(FATAL_ERROR "the README's lines failed (${status}):\n${output}")
endif()

execute_process(COMMAND "${READELF}" -d "${WORK_DIR}/quickstart" OUTPUT_VARIABLE dynamic)
string(REGEX MATCH "R(UN)?PATH[^\n]*" runpath "${dynamic}")
message(STATUS "quickstart: ${runpath}")
if(runpath MATCHES "pkgconfig" OR NOT runpath MATCHES "${copy}")
  message(FATAL_ERROR "the recorded directory is not the copy's library directory: ${runpath}")
endif()
file(REMOVE_RECURSE "${copy}/${PKGCONFIGDIR}")
execute_process(COMMAND "${WORK_DIR}/quickstart" RESULT_VARIABLE status OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "quickstart fails without lib/pkgconfig (${status}): ${output}")
endif()
message(STATUS "runs without ${PKGCONFIGDIR}: ${output}")
