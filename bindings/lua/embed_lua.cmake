# cmake -DINPUT=<file.lua> -DOUTPUT=<header.h> -DNAME=<identifier> -P embed_lua.cmake
# Writes a C++ header defining `static const char NAME[]`, the text of INPUT as a raw string
# literal, so that the Lua glue is a real .lua file in the source tree (checked by luac-style
# loading in ctest) and one string in the module. The header is rewritten only when its
# content changes, so that an unchanged file does not recompile the wrapper.
foreach(variable INPUT OUTPUT NAME)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "embed_lua.cmake: -D${variable}=... is missing")
  endif()
endforeach()
file(READ "${INPUT}" text)
set(delimiter "addbo_lua")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains )${delimiter}\", the end of the raw string it is "
    "embedded in: rename the delimiter in embed_lua.cmake")
endif()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${INPUT} by embed_lua.cmake: edit the .lua file, not this one.\n"
  "static const char ${NAME}[] = R\"${delimiter}(${text})${delimiter}\";\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
file(REMOVE "${OUTPUT}.tmp")
