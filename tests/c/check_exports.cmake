# Test 7 (second half), run with cmake -P: the dynamic symbol table of libaddbo.so defines
# exactly the functions of addbo.h, while the full symbol table proves that the core is inside
# the library (so the first check is not passing vacuously).
#   cmake -DNM=<nm> -DLIBRARY=<libaddbo.so> -DHEADER=<addbo.h> -P check_exports.cmake

# The declared functions: every "ADDBO_API <type> addbo_<name>(" in the header.
file(READ ${HEADER} header)
string(REGEX MATCHALL "ADDBO_API[^;(]*[ *](addbo_[a-z_]+)\\(" declarations "${header}")
set(expected)
foreach(declaration IN LISTS declarations)
  string(REGEX MATCH "addbo_[a-z_]+" name "${declaration}")
  list(APPEND expected ${name})
endforeach()
list(SORT expected)
list(LENGTH expected expected_count)
if(expected_count LESS 15)
  message(FATAL_ERROR "found only ${expected_count} declarations in ${HEADER}: ${expected}")
endif()

execute_process(COMMAND ${NM} -D --defined-only ${LIBRARY}
  OUTPUT_VARIABLE dynamic RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} -D failed on ${LIBRARY}")
endif()
# Lines look like "0000000000005500 T addbo_ask"; keep the names.
string(REGEX MATCHALL "[^ \n]+\n" names "${dynamic}\n")
set(exported)
foreach(line IN LISTS names)
  string(STRIP "${line}" name)
  list(APPEND exported ${name})
endforeach()
list(SORT exported)
if(NOT exported STREQUAL expected)
  message(FATAL_ERROR "libaddbo.so exports\n  ${exported}\nbut addbo.h declares\n  ${expected}")
endif()

execute_process(COMMAND ${NM} -C ${LIBRARY} OUTPUT_VARIABLE all RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR NOT all MATCHES " addbo::core::parse_config_text\\(")
  message(FATAL_ERROR "${LIBRARY} does not contain the core's addbo::core::parse_config_text")
endif()
message(STATUS "libaddbo.so exports exactly the ${expected_count} functions of addbo.h")
