# Which Lua interpreters the Lua binding is built for: included by ../CMakeLists.txt, whose
# macro addbo_find_lua_interpreters() sets, in the caller's scope:
#   ADDBO_LUA_FOUND        ON when at least one interpreter with its headers was found;
#   ADDBO_LUA_TAGS         the tags of those found, among 51 jit 52 53 54 (Lua 5.1, LuaJIT 2.1,
#                          5.2, 5.3, 5.4), in that order;
#   ADDBO_LUA_MISSING      the tags not found (ctest reports their tests as skipped);
#   ADDBO_LUA_PRIMARY      the tag of the interpreter the version-independent tests use (5.4
#                          when found, else the last found);
# and for every tag, found or not:
#   ADDBO_LUA_<tag>_NAME      "Lua 5.1", "LuaJIT", ...;
#   ADDBO_LUA_<tag>_DIR       the module's directory under the build tree's bindings/lua/
#                             (5.1, luajit, 5.2, 5.3, 5.4);
#   ADDBO_LUA_<tag>_TEST      the test names' part: lua51, luajit, lua52, ... (lua/CMakeLists.txt
#                             makes the primary interpreter's "lua");
#   ADDBO_LUA_<tag>_ABI       the directory of its C modules under lib/lua/ (LuaJIT uses 5.1's);
#   ADDBO_LUA_<tag>_PACKAGES  the Debian packages of the interpreter and its headers;
#   ADDBO_LUA_<tag>_EXECUTABLE, ADDBO_LUA_<tag>_INCLUDE_DIR  when found.
#
# Each interpreter is looked for by its Debian name (lua5.1, luajit, ...) with its headers in
# the matching include directory, and accepted only when the interpreter's _VERSION and the
# header's LUA_VERSION_NUM agree. The module links no Lua library: the interpreter or the host
# program provides the Lua API, so a module must be compiled against the headers of the Lua
# that loads it (a 5.1 module also loads in LuaJIT, whose API is 5.1's).
#
# ADDBO_LUA_INTERPRETER and ADDBO_LUA_INTERPRETER_INCLUDE_DIR, when given (the rockspec gives
# LuaRocks' $(LUA) and $(LUA_INCDIR)), select that one interpreter instead of the search; the
# cache variables ADDBO_LUA<tag>_PROGRAM and ADDBO_LUA<tag>_HEADERS (e.g. ADDBO_LUA54_HEADERS)
# override what the search finds.

set(ADDBO_LUA_ALL_TAGS 51 jit 52 53 54)
set(ADDBO_LUA_51_NAME "Lua 5.1")
set(ADDBO_LUA_jit_NAME "LuaJIT")
set(ADDBO_LUA_52_NAME "Lua 5.2")
set(ADDBO_LUA_53_NAME "Lua 5.3")
set(ADDBO_LUA_54_NAME "Lua 5.4")
foreach(tag 51 52 53 54)
  string(SUBSTRING "${tag}" 0 1 major)
  string(SUBSTRING "${tag}" 1 1 minor)
  set(ADDBO_LUA_${tag}_DIR "${major}.${minor}")
  set(ADDBO_LUA_${tag}_ABI "${major}.${minor}")
  set(ADDBO_LUA_${tag}_TEST "lua${tag}")
  set(ADDBO_LUA_${tag}_PROGRAMS "lua${major}.${minor}" "lua${tag}")
  set(ADDBO_LUA_${tag}_INCLUDE_SUFFIXES "lua${major}.${minor}" "lua${tag}")
  set(ADDBO_LUA_${tag}_VERSION_NUM "50${minor}")
  set(ADDBO_LUA_${tag}_PACKAGES "lua${major}.${minor} liblua${major}.${minor}-dev")
endforeach()
set(ADDBO_LUA_51_PACKAGES "lua5.1 liblua5.1-0-dev")  # Debian's name for 5.1's headers
set(ADDBO_LUA_jit_DIR "luajit")
set(ADDBO_LUA_jit_ABI "5.1")
set(ADDBO_LUA_jit_TEST "luajit")
set(ADDBO_LUA_jit_PROGRAMS luajit)
set(ADDBO_LUA_jit_INCLUDE_SUFFIXES luajit-2.1 luajit-2.0)
set(ADDBO_LUA_jit_VERSION_NUM 501)
set(ADDBO_LUA_jit_PACKAGES "luajit libluajit-5.1-dev")

# The tag of `executable` with headers in `include_dir`, or "" when they do not make a pair.
function(addbo_lua_tag_of executable include_dir out)
  set(${out} "" PARENT_SCOPE)
  execute_process(COMMAND "${executable}" -e "io.write(_VERSION, jit and ' jit' or '')"
    OUTPUT_VARIABLE version ERROR_QUIET RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT EXISTS "${include_dir}/lua.h")
    return()
  endif()
  file(STRINGS "${include_dir}/lua.h" header_line REGEX "define[ \t]+LUA_VERSION_NUM")
  string(REGEX MATCH "[0-9]+" header_number "${header_line}")
  if(version STREQUAL "Lua 5.1 jit")
    set(tag jit)
  else()
    string(REGEX REPLACE "^Lua 5\\.([1-4])$" "5\\1" tag "${version}")
  endif()
  if(NOT tag MATCHES "^(5[1-4]|jit)$" OR NOT header_number STREQUAL ADDBO_LUA_${tag}_VERSION_NUM)
    return()
  endif()
  if(tag STREQUAL "jit" AND NOT EXISTS "${include_dir}/luajit.h")
    return()
  endif()
  set(${out} "${tag}" PARENT_SCOPE)
endfunction()

macro(addbo_find_lua_interpreters)
  set(ADDBO_LUA_TAGS "")  # "", not unset: a cache entry of that name must not show through
  set(ADDBO_LUA_MISSING "")
  foreach(tag IN LISTS ADDBO_LUA_ALL_TAGS)
    set(ADDBO_LUA_${tag}_EXECUTABLE "")
    set(ADDBO_LUA_${tag}_INCLUDE_DIR "")
  endforeach()
  if(ADDBO_LUA_INTERPRETER OR ADDBO_LUA_INTERPRETER_INCLUDE_DIR)
    addbo_lua_tag_of("${ADDBO_LUA_INTERPRETER}" "${ADDBO_LUA_INTERPRETER_INCLUDE_DIR}"
      addbo_lua_given_tag)
    if(NOT addbo_lua_given_tag)
      message(FATAL_ERROR "ADDBO_LUA_INTERPRETER (${ADDBO_LUA_INTERPRETER}) and "
        "ADDBO_LUA_INTERPRETER_INCLUDE_DIR (${ADDBO_LUA_INTERPRETER_INCLUDE_DIR}) are not Lua "
        "5.1 to 5.4 or LuaJIT 2 with that interpreter's lua.h")
    endif()
    set(ADDBO_LUA_TAGS ${addbo_lua_given_tag})
    set(ADDBO_LUA_${addbo_lua_given_tag}_EXECUTABLE "${ADDBO_LUA_INTERPRETER}")
    set(ADDBO_LUA_${addbo_lua_given_tag}_INCLUDE_DIR "${ADDBO_LUA_INTERPRETER_INCLUDE_DIR}")
  else()
    foreach(tag IN LISTS ADDBO_LUA_ALL_TAGS)
      find_program(ADDBO_LUA${tag}_PROGRAM NAMES ${ADDBO_LUA_${tag}_PROGRAMS})
      find_path(ADDBO_LUA${tag}_HEADERS lua.h PATH_SUFFIXES ${ADDBO_LUA_${tag}_INCLUDE_SUFFIXES})
      set(found_tag "")
      if(ADDBO_LUA${tag}_PROGRAM AND ADDBO_LUA${tag}_HEADERS)
        addbo_lua_tag_of("${ADDBO_LUA${tag}_PROGRAM}" "${ADDBO_LUA${tag}_HEADERS}" found_tag)
      endif()
      if(found_tag STREQUAL tag)
        list(APPEND ADDBO_LUA_TAGS ${tag})
        set(ADDBO_LUA_${tag}_EXECUTABLE "${ADDBO_LUA${tag}_PROGRAM}")
        set(ADDBO_LUA_${tag}_INCLUDE_DIR "${ADDBO_LUA${tag}_HEADERS}")
      else()
        list(APPEND ADDBO_LUA_MISSING ${tag})
      endif()
    endforeach()
  endif()
  set(ADDBO_LUA_FOUND OFF)
  set(ADDBO_LUA_PRIMARY "")
  if(ADDBO_LUA_TAGS)
    set(ADDBO_LUA_FOUND ON)
    list(GET ADDBO_LUA_TAGS -1 ADDBO_LUA_PRIMARY)
  endif()
endmacro()
