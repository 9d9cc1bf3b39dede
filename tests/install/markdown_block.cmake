# addbo_markdown_block(<file> <after> <fence> <out>): the text of the first fenced block whose
# opening line is exactly <fence> (e.g. "```java", "```xml pom.xml") after the first occurrence
# of the text <after> in the Markdown <file> (e.g. "### Java"; "" for the file's start). Fails
# naming what is missing. For the tests that run the documentation's own commands and files
# (install_java_maven, install_readme_rpath, ...), so that what the docs show is what is tested.
function(addbo_markdown_block file after fence out)
  file(READ "${file}" text)
  set(start 0)
  if(NOT after STREQUAL "")
    string(FIND "${text}" "${after}" start)
    if(start EQUAL -1)
      message(FATAL_ERROR "${file} has no \"${after}\"")
    endif()
  endif()
  string(SUBSTRING "${text}" ${start} -1 text)
  string(FIND "${text}" "\n${fence}\n" open)
  if(open EQUAL -1)
    message(FATAL_ERROR "${file} has no block ${fence} after \"${after}\"")
  endif()
  string(LENGTH "\n${fence}\n" fence_length)
  math(EXPR open "${open} + ${fence_length}")
  string(SUBSTRING "${text}" ${open} -1 text)
  string(FIND "${text}" "\n```" close)
  if(close EQUAL -1)
    message(FATAL_ERROR "${file}: the block ${fence} after \"${after}\" is not closed")
  endif()
  math(EXPR close "${close} + 1")  # keep the block's last newline
  string(SUBSTRING "${text}" 0 ${close} block)
  set(${out} "${block}" PARENT_SCOPE)
endfunction()

# addbo_quickstart_result(<readme> <out>): a regular expression matching the result the README
# says every quickstart prints ("Each program ... prints `best ...`"), so that the tests that run
# a quickstart hold the README to it. A -0.0000 may print without its minus (C# on Mono).
function(addbo_quickstart_result readme out)
  file(READ "${readme}" text)
  string(REGEX MATCH "prints `(best [^`]*)`" found "${text}")
  if(NOT found)
    message(FATAL_ERROR "${readme} does not say what the quickstarts print (prints `best ...`)")
  endif()
  string(REGEX REPLACE "([][()*+.?^$|\\\\])" "\\\\\\1" expected "${CMAKE_MATCH_1}")
  string(REPLACE "-0\\.0000" "-?0\\.0000" expected "${expected}")
  set(${out} "${expected}" PARENT_SCOPE)
endfunction()
