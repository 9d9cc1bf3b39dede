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
