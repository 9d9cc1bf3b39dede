# install_bindings_csharp_copy_local, _nupkg and _nupkg_zip: a fresh WORK_DIR holding
# only a C# program and the files a copy-local deployment puts beside it, run by Mono with
# neither MONO_PATH nor LD_LIBRARY_PATH: Mono finds Addbo.dll beside the program and
# libaddbo_csharp.so beside Addbo.dll, which finds libaddbo.so.0 through its RUNPATH $ORIGIN.
# Input: MONO, EXE (the program), WORK_DIR, and one of
#  - FILES: "|"-separated paths (symbolic links are followed: libaddbo.so.0 arrives as a file);
#  - NUPKG: the package, unpacked here; its lib/<framework>/Addbo.dll and
#    runtimes/linux-x64/native/* are copied, as a NuGet restore of a project does;
#  - FEED, NUGET and VERSION: `nuget install Addbo` from the local feed FEED (offline, with a
#    HOME of its own so no user configuration or cache is read or written), then the same
#    files from the restored package (with PACK below);
#  - PACK (bindings/csharp/nupkg.cmake) with its inputs CLIDIR, LIBADDBO, VERSION, FRAMEWORK and
#    NUSPEC_IN: the package is first written again into WORK_DIR-feed as a zip by CMake, as
#    when nuget is not installed, then restored by NUGET if given (as FEED), else unpacked (as
#    NUPKG) (install_bindings_csharp_nupkg_zip).
if(DEFINED PACK)
  set(run_dir "${WORK_DIR}")
  set(restorer "${NUGET}")
  set(NUGET "")  # the zip written by CMake
  set(NUGET_DIR "${run_dir}-feed")
  set(WORK_DIR "${run_dir}-pack")
  include("${PACK}")
  set(WORK_DIR "${run_dir}")
  set(NUGET "${restorer}")
  if(NUGET)
    set(FEED "${NUGET_DIR}")
  else()
    set(NUPKG "${NUGET_DIR}/Addbo.${VERSION}.nupkg")
  endif()
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
if(DEFINED FEED)
  set(restored "${WORK_DIR}-restored")
  file(REMOVE_RECURSE "${restored}")
  file(MAKE_DIRECTORY "${restored}/home")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -E env "HOME=${restored}/home" "XDG_CONFIG_HOME=${restored}/home"
            "${NUGET}" install Addbo -Version "${VERSION}" -Source "${FEED}"
            -OutputDirectory "${restored}/packages" -NoCache -NonInteractive
    RESULT_VARIABLE status)
  set(unpacked "${restored}/packages/Addbo.${VERSION}")
  if(NOT status EQUAL 0 OR NOT IS_DIRECTORY "${unpacked}")
    message(FATAL_ERROR "nuget install Addbo ${VERSION} from ${FEED} failed (${status})")
  endif()
elseif(DEFINED NUPKG)
  set(unpacked "${WORK_DIR}-unpacked")
  file(REMOVE_RECURSE "${unpacked}")
  file(MAKE_DIRECTORY "${unpacked}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xf "${NUPKG}" WORKING_DIRECTORY "${unpacked}"
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cannot unpack ${NUPKG}")
  endif()
endif()
if(DEFINED unpacked)
  file(GLOB assembly "${unpacked}/lib/*/Addbo.dll")
  file(GLOB native "${unpacked}/runtimes/linux-x64/native/*")
  set(files ${assembly} ${native})
  list(LENGTH assembly assemblies)
  list(LENGTH native natives)
  if(NOT assemblies EQUAL 1 OR NOT natives EQUAL 2 OR NOT EXISTS "${unpacked}/build/Addbo.targets")
    message(FATAL_ERROR "${unpacked}: expected lib/<framework>/Addbo.dll, two files in "
      "runtimes/linux-x64/native/ and build/Addbo.targets, found: ${files}")
  endif()
else()
  string(REPLACE "|" ";" files "${FILES}")
endif()
foreach(file IN LISTS files EXE)
  get_filename_component(name "${file}" NAME)
  configure_file("${file}" "${WORK_DIR}/${name}" COPYONLY)  # reads through symbolic links
endforeach()
file(GLOB deployed RELATIVE "${WORK_DIR}" "${WORK_DIR}/*")
message(STATUS "deployed in ${WORK_DIR}: ${deployed}")

get_filename_component(name "${EXE}" NAME)
execute_process(
  COMMAND "${CMAKE_COMMAND}" -E env --unset=MONO_PATH --unset=LD_LIBRARY_PATH
          "${MONO}" "${WORK_DIR}/${name}"
  WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${name} failed (${status}) from ${WORK_DIR} without MONO_PATH and "
    "LD_LIBRARY_PATH")
endif()
