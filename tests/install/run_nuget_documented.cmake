# install_bindings_csharp_nuget_install: the README's Quickstart.cs built and run on Mono after
# `nuget install`, by the very lines docs/installing.md gives (its ```sh nuget-mono block, the
# feed at PREFIX instead of /opt/addbo), offline, with a HOME of its own and neither MONO_PATH
# nor LD_LIBRARY_PATH. Then, when xbuild is installed, a project that imports the package's
# build/Addbo.targets as documented: its output directory must receive the native libraries,
# and the program must run from there.
# Input: PREFIX, NUGET_DIR (the feed, relative to PREFIX), VERSION, MAJOR, DOCS, README,
# WORK_DIR, XBUILD (optional).
include("${CMAKE_CURRENT_LIST_DIR}/markdown_block.cmake")
set(app "${WORK_DIR}/app")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${app}" "${WORK_DIR}/home")

addbo_markdown_block("${README}" "### C# (Mono)\n" "```csharp" quickstart)
file(WRITE "${app}/Quickstart.cs" "${quickstart}")
addbo_markdown_block("${DOCS}" "**Running on Mono after `nuget install`.**" "```sh nuget-mono"
  commands)
string(REPLACE "/opt/addbo/share/addbo/nuget" "${PREFIX}/${NUGET_DIR}" commands "${commands}")
set(environment "HOME=${WORK_DIR}/home" "XDG_CONFIG_HOME=${WORK_DIR}/home" --unset=MONO_PATH
  --unset=LD_LIBRARY_PATH)
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env ${environment} sh -e -x -c "${commands}"
  WORKING_DIRECTORY "${app}" RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
message(STATUS "${output}")
addbo_quickstart_result("${README}" expected)
if(NOT status EQUAL 0 OR NOT output MATCHES "${expected}")
  message(FATAL_ERROR "the documented lines failed (${status})")
endif()

if(NOT XBUILD)
  message(STATUS "xbuild not found (Debian: mono-xbuild): build/Addbo.targets is not run")
  return()
endif()
# A project whose build imports the package's targets (Debian has no reference assemblies for
# xbuild to compile C# with, so the program is the one mcs built above).
set(package "packages/Addbo.${VERSION}")
file(WRITE "${app}/Copy.proj" "<Project ToolsVersion=\"4.0\" DefaultTargets=\"Build\" \
xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\">
  <PropertyGroup><OutDir>out/</OutDir></PropertyGroup>
  <Target Name=\"Build\" />
  <Import Project=\"${package}/build/Addbo.targets\" />
</Project>
")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env ${environment} "${XBUILD}" /nologo /verbosity:minimal Copy.proj
  WORKING_DIRECTORY "${app}" RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "xbuild Copy.proj failed (${status}):\n${output}")
endif()
foreach(library libaddbo_csharp.so "libaddbo.so.${MAJOR}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files
    "${app}/${package}/runtimes/linux-x64/native/${library}" "${app}/out/${library}"
    RESULT_VARIABLE different)
  if(different)
    message(FATAL_ERROR "build/Addbo.targets did not copy ${library} into the output directory")
  endif()
endforeach()
file(COPY "${app}/Quickstart.exe" "${app}/${package}/lib/net45/Addbo.dll" DESTINATION "${app}/out")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env ${environment} mono out/Quickstart.exe
  WORKING_DIRECTORY "${app}" RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT status EQUAL 0 OR NOT output MATCHES "best -?0\\.0000")
  message(FATAL_ERROR "the program failed from the output directory (${status}):\n${output}")
endif()
message(STATUS "build/Addbo.targets copied the native libraries: ${output}")
