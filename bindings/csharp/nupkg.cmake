# Writes Addbo.<version>.nupkg at install time (cmake --install), from the files just installed:
#   Addbo.nuspec
#   lib/<framework>/Addbo.dll, Addbo.xml        the assembly (mcs targets .NET Framework 4.5)
#   runtimes/linux-x64/native/libaddbo_csharp.so, libaddbo.so.<major>
#   build/Addbo.targets                         (Addbo.targets beside this script) copies the
#                                               native libraries into an msbuild or xbuild
#                                               project's output after each build
# libaddbo_csharp.so finds libaddbo.so.<major> beside it (RUNPATH $ORIGIN), so a project that
# restores the package, or copies these files beside its program, needs no library path.
# With Debian's nuget (NUGET set) the package is made by `nuget pack`; otherwise the script
# writes the zip itself in the same layout, with the Open Packaging parts NuGet reads
# ([Content_Types].xml, _rels/.rels).
# Input: CLIDIR (the installed Addbo.dll's directory), LIBADDBO (the installed libaddbo.so.<major>),
# NUGET_DIR (where the package goes), VERSION, FRAMEWORK, NUSPEC_IN, WORK_DIR, NUGET (optional).
set(stage "${WORK_DIR}/stage")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${stage}/lib/${FRAMEWORK}" "${stage}/runtimes/linux-x64/native")
configure_file("${CMAKE_CURRENT_LIST_DIR}/Addbo.targets" "${stage}/build/Addbo.targets" COPYONLY)
set(ADDBO_NUGET_VERSION "${VERSION}")
set(ADDBO_NUGET_FRAMEWORK "${FRAMEWORK}")
set(ADDBO_NUGET_FILES "")
if(NUGET)
  set(ADDBO_NUGET_FILES "\n  <files>\n    <file src=\"lib/**\" target=\"lib\" />\n"
    "    <file src=\"runtimes/**\" target=\"runtimes\" />\n"
    "    <file src=\"build/**\" target=\"build\" />\n  </files>")
  string(CONCAT ADDBO_NUGET_FILES ${ADDBO_NUGET_FILES})
endif()
configure_file("${NUSPEC_IN}" "${stage}/Addbo.nuspec" @ONLY)
foreach(file Addbo.dll Addbo.xml)
  configure_file("${CLIDIR}/${file}" "${stage}/lib/${FRAMEWORK}/${file}" COPYONLY)
endforeach()
get_filename_component(libaddbo_name "${LIBADDBO}" NAME)
foreach(file "${CLIDIR}/libaddbo_csharp.so" "${LIBADDBO}")
  get_filename_component(name "${file}" NAME)
  # configure_file reads through the symbolic link libaddbo.so.<major> -> libaddbo.so.<version>.
  configure_file("${file}" "${stage}/runtimes/linux-x64/native/${name}" COPYONLY)
endforeach()

set(package "${NUGET_DIR}/Addbo.${VERSION}.nupkg")
file(MAKE_DIRECTORY "${NUGET_DIR}")
file(REMOVE "${package}")
if(NUGET)
  # A HOME of its own: nuget reads and writes its user configuration there.
  file(MAKE_DIRECTORY "${WORK_DIR}/home")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "HOME=${WORK_DIR}/home"
                          "XDG_CONFIG_HOME=${WORK_DIR}/home"
                          "${NUGET}" pack "${stage}/Addbo.nuspec" -BasePath "${stage}"
                          -OutputDirectory "${NUGET_DIR}" -NoPackageAnalysis -NonInteractive
    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0 OR NOT EXISTS "${package}")
    message(FATAL_ERROR "nuget pack failed (${status}):\n${output}")
  endif()
  message(STATUS "Packed by nuget: ${package}")
else()
  file(WRITE "${stage}/[Content_Types].xml"
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
    "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\" />"
    "<Default Extension=\"nuspec\" ContentType=\"application/octet\" />"
    "<Default Extension=\"dll\" ContentType=\"application/octet\" />"
    "<Default Extension=\"xml\" ContentType=\"application/octet\" />"
    "<Default Extension=\"so\" ContentType=\"application/octet\" />"
    "<Default Extension=\"targets\" ContentType=\"application/octet\" />"
    "<Override PartName=\"/runtimes/linux-x64/native/${libaddbo_name}\" ContentType=\"application/octet\" />"
    "</Types>\n")
  file(WRITE "${stage}/_rels/.rels"
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
    "<Relationship Type=\"http://schemas.microsoft.com/packaging/2010/07/manifest\" "
    "Target=\"/Addbo.nuspec\" Id=\"R0\" /></Relationships>\n")
  # Files only (no directory entries), with paths relative to the package root.
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -E tar cf "${package}" --format=zip
            "[Content_Types].xml" "_rels/.rels" Addbo.nuspec
            "lib/${FRAMEWORK}/Addbo.dll" "lib/${FRAMEWORK}/Addbo.xml"
            runtimes/linux-x64/native/libaddbo_csharp.so "runtimes/linux-x64/native/${libaddbo_name}"
            build/Addbo.targets
    WORKING_DIRECTORY "${stage}" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "cannot write ${package}")
  endif()
  message(STATUS "Packed (zip written by CMake, nuget not found): ${package}")
endif()
# Listed in install_manifest.txt like the installed files (without DESTDIR, as they are); in
# a test's cmake -P run the list is simply unused.
set(listed "${package}")
if(NOT "$ENV{DESTDIR}" STREQUAL "")
  string(LENGTH "$ENV{DESTDIR}" destdir_length)
  string(SUBSTRING "${package}" ${destdir_length} -1 listed)
endif()
list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${listed}")
