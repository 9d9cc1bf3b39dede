# ctest bindings_lua_rockspec: `luarocks make` of the rockspec in a copy of the source tree,
# offline into a fresh tree, then require("addbo") from that tree with a fresh interpreter.
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -DLUA=... -DVERSION=<project version> -P luarocks_make.cmake
# Skipped (ctest's SKIP_REGULAR_EXPRESSION matches "SKIPPED:") when luarocks is not installed.
foreach(variable SOURCE_DIR WORK_DIR LUA VERSION)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "luarocks_make.cmake: -D${variable}=... is missing")
  endif()
endforeach()

# The rockspec's version is the project's (include/addbo/addbo.h): a release changes both.
set(rockspec "addbo-${VERSION}-1.rockspec")
if(NOT EXISTS "${SOURCE_DIR}/${rockspec}")
  file(GLOB found RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*.rockspec")
  message(FATAL_ERROR "no ${rockspec} for version ${VERSION} in the source tree (found: ${found})")
endif()
file(STRINGS "${SOURCE_DIR}/${rockspec}" version_line REGEX "^version = ")
if(NOT version_line STREQUAL "version = \"${VERSION}-1\"")
  message(FATAL_ERROR "${rockspec}: ${version_line}, expected version = \"${VERSION}-1\"")
endif()

find_program(LUAROCKS luarocks)
if(NOT LUAROCKS)
  message("SKIPPED: luarocks is not installed (Debian: apt-get install luarocks)")
  return()
endif()

# A copy of the sources: luarocks builds in the directory it runs in (build.luarocks/), which
# must not be the source tree. Build directories and .git are left out.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/source")
file(GLOB entries RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
foreach(entry IN LISTS entries)
  if(NOT entry MATCHES "^(build.*|\\.git|\\..*)$")
    file(COPY "${SOURCE_DIR}/${entry}" DESTINATION "${WORK_DIR}/source")
  endif()
endforeach()

set(tree "${WORK_DIR}/tree")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env CMAKE_BUILD_PARALLEL_LEVEL=2
          "${LUAROCKS}" --lua-version 5.4 --tree "${tree}" make "${rockspec}"
  WORKING_DIRECTORY "${WORK_DIR}/source"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "luarocks make failed (${status}):\n${output}")
endif()

# The rock's module beside its library, and nothing else needed: a fresh interpreter with only
# the tree's C module directory on its search path.
set(script [=[
local addbo = require("addbo")
local opt <close> = addbo.Optimizer({ dimension = 2, seed = 1 })
local x = opt:ask()
opt:tell(x, -(x[1] - 0.5) ^ 2)
assert(opt:count() == 1 and opt:info().observations == 1)
io.write(addbo.version(), " from ", package.searchpath("addbo", package.cpath))
]=])
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env "LUA_CPATH=${tree}/lib/lua/5.4/?.so" "LUA_PATH=" --
          "${LUA}" -e "${script}"
  RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0 OR NOT output MATCHES "^${VERSION} from ${tree}/lib/lua/5.4/addbo.so$")
  message(FATAL_ERROR "require(\"addbo\") from the rock's tree failed (${status}): ${output}")
endif()
message("luarocks make: ${output}")
