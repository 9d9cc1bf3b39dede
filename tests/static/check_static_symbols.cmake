# ctest capi_static_symbols, run with cmake -P: the symbols that libaddbo.a defines globally are
# exactly the functions declared in addbo.h (cmake/AddboStaticLibrary.cmake makes the rest
# local), and the core is inside (so that the first check does not pass vacuously).
#   cmake -DNM=<nm> -DLIBRARY=<libaddbo.a> -DHEADER=<addbo.h> -P check_static_symbols.cmake

file(READ "${HEADER}" header)
string(REGEX MATCHALL "ADDBO_API[^;(]*[ *]addbo_[a-z_]+\\(" declarations "${header}")
set(expected)
foreach(declaration IN LISTS declarations)
  string(REGEX MATCH "addbo_[a-z_]+\\($" name "${declaration}")
  string(REGEX REPLACE "\\($" "" name "${name}")
  list(APPEND expected "T ${name}")
endforeach()
list(SORT expected)
list(LENGTH expected count)
if(count LESS 15)
  message(FATAL_ERROR "found only ${count} declarations in ${HEADER}")
endif()

# Lines "0000000000001234 T addbo_ask" (an archive also prints "addbo.o:" and blank lines).
execute_process(COMMAND "${NM}" -g --defined-only "${LIBRARY}" OUTPUT_VARIABLE text
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} -g failed on ${LIBRARY}")
endif()
string(REGEX MATCHALL "[0-9a-f]+ [A-Za-z] [^\n]+" lines "${text}")
set(globals)
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^[0-9a-f]+ " "" line "${line}")
  list(APPEND globals "${line}")
endforeach()
list(SORT globals)
if(NOT globals STREQUAL expected)
  set(extra ${globals})
  list(REMOVE_ITEM extra ${expected})
  set(missing ${expected})
  list(REMOVE_ITEM missing ${globals})
  message(FATAL_ERROR "libaddbo.a: global symbols not in addbo.h [${extra}], "
    "functions of addbo.h missing [${missing}]")
endif()

execute_process(COMMAND "${NM}" -C "${LIBRARY}" OUTPUT_VARIABLE all)
if(NOT all MATCHES " t addbo::core::parse_config_text\\(")
  message(FATAL_ERROR "${LIBRARY} does not contain the core's addbo::core::parse_config_text (local)")
endif()
message(STATUS "libaddbo.a defines globally exactly the ${count} functions of addbo.h")
