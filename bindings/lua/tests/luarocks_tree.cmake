# ctest bindings_lua_luarocks_tree: a module installed by LuaRocks into a tree of its own
# (`luarocks --tree DIR`, as without root) is found only once `luarocks path` has set the search
# paths, which is what docs/bindings.md and the README say to do (issue 27, item 5.4):
#   cmake -DLUAROCKS=... -DLUA=... -DLUA_VERSION=5.4 -DMODULE=<built addbo.so> -DEXAMPLE=<.lua>
#         -DWORK_DIR=... -P luarocks_tree.cmake
# The rock installed is a stand-in: a rockspec of build type "none" that installs the module
# already built (the real rockspec's CMake build takes minutes: ctest bindings_lua_rockspec, label
# slow). Skipped (ctest's SKIP_REGULAR_EXPRESSION matches "SKIPPED:") without luarocks.
foreach(variable LUA LUA_VERSION MODULE EXAMPLE WORK_DIR)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "luarocks_tree.cmake: -D${variable}=... is missing")
  endif()
endforeach()
if(NOT LUAROCKS)
  message("SKIPPED: luarocks is not installed (Debian: apt-get install luarocks)")
  return()
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/rock" "${WORK_DIR}/home")
configure_file("${MODULE}" "${WORK_DIR}/rock/addbo.so" COPYONLY)
file(WRITE "${WORK_DIR}/rock/addbo-scm-1.rockspec" [=[
rockspec_format = "3.0"
package = "addbo"
version = "scm-1"
source = { url = "file:///nowhere" }
dependencies = { "lua >= 5.1, < 5.5" }
build = { type = "none", install = { lib = { addbo = "addbo.so" } } }
]=])
set(tree "${WORK_DIR}/tree")
# A HOME of its own: no user configuration is read and nothing is written outside WORK_DIR; no
# search path from the environment (LUA_CPATH, and LUA_CPATH_5_4 for 5.4).
string(REPLACE "." "_" version_suffix "${LUA_VERSION}")
set(environment "HOME=${WORK_DIR}/home" --unset=LUA_PATH --unset=LUA_CPATH
  "--unset=LUA_PATH_${version_suffix}" "--unset=LUA_CPATH_${version_suffix}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env ${environment}
          "${LUAROCKS}" --lua-version "${LUA_VERSION}" --tree "${tree}" make addbo-scm-1.rockspec
  WORKING_DIRECTORY "${WORK_DIR}/rock" RESULT_VARIABLE status OUTPUT_VARIABLE output
  ERROR_VARIABLE output)
if(NOT status EQUAL 0 OR NOT EXISTS "${tree}/lib/lua/${LUA_VERSION}/addbo.so")
  message(FATAL_ERROR "luarocks --tree make failed (${status}):\n${output}")
endif()

# Without `luarocks path`, the interpreter does not look in the tree.
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env ${environment} "${LUA}" "${EXAMPLE}"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status EQUAL 0 OR NOT output MATCHES "module 'addbo' not found")
  message(FATAL_ERROR "expected \"module 'addbo' not found\" without luarocks path (${status}):\n"
    "${output}")
endif()

# As documented: eval "$(luarocks --lua-version <v> --tree <dir> path)", then the interpreter.
set(documented "eval \"$(luarocks --lua-version ${LUA_VERSION} --tree '${tree}' path)\" && '${LUA}' '${EXAMPLE}'")
get_filename_component(luarocks_dir "${LUAROCKS}" DIRECTORY)
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env ${environment} "PATH=${luarocks_dir}:$ENV{PATH}"
          sh -c "${documented}"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0 OR NOT output MATCHES "best y ")
  message(FATAL_ERROR "the documented lines failed (${status}): ${documented}\n${output}")
endif()
message("${documented}\n${output}")
