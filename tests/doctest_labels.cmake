# Included by ctest after the unit tests are discovered (tests/CMakeLists.txt): labels every
# unit test with its doctest suite, which is its module (TEST_SUITE_BEGIN in each test file), or
# "threads" for the cases that start threads (ctest -L gp, ctest -L threads). Read from the
# executable suite by suite, since doctest's own labelling filters by the test's name, which
# breaks on the commas of many names.
if(NOT EXISTS "${ADDBO_UNIT_TESTS}")
  return()
endif()
execute_process(COMMAND "${ADDBO_UNIT_TESTS}" --list-test-suites
                OUTPUT_VARIABLE suites_output RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  return()
endif()
string(REPLACE "\n" ";" suite_lines "${suites_output}")
foreach(suite IN LISTS suite_lines)
  if(suite STREQUAL "" OR suite MATCHES "^\\[doctest\\]" OR suite MATCHES "^=+$")
    continue()
  endif()
  execute_process(COMMAND "${ADDBO_UNIT_TESTS}" --list-test-cases "--test-suite=${suite}"
                  OUTPUT_VARIABLE cases_output)
  # A name may hold semicolons: split on newlines by hand.
  string(REPLACE ";" "\\;" cases_output "${cases_output}")
  string(REPLACE "\n" ";" case_lines "${cases_output}")
  foreach(name IN LISTS case_lines)
    if(name STREQUAL "" OR name MATCHES "^\\[doctest\\]" OR name MATCHES "^=+$")
      continue()
    endif()
    set_tests_properties("${name}" PROPERTIES LABELS "${suite}")
  endforeach()
endforeach()
