# Installation of the addbo library beyond the library files and the headers (which the
# top-level CMakeLists.txt installs): a CMake package (find_package(addbo) -> targets addbo::addbo
# and addbo::addbo_static), a pkg-config file, $ORIGIN-relative RUNPATHs so that an installed
# tree can be moved, and stripped installed libraries (ADDBO_INSTALL_STRIP,
# ADDBO_INSTALL_DEBUG_INFO). Included from the top-level CMakeLists.txt after
# install(TARGETS ${ADDBO_LIBRARY_TARGETS} EXPORT addboTargets ...).
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ADDBO_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/addbo" CACHE STRING
    "Where the CMake package files of addbo are installed (relative to the prefix)")
set(ADDBO_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig" CACHE STRING
    "Where addbo.pc is installed (relative to the prefix)")

# The same names in the build tree as in an installed package, for add_subdirectory() users.
add_library(addbo::addbo ALIAS addbo)
if(ADDBO_BUILD_STATIC)
  add_library(addbo::addbo_static ALIAS ${ADDBO_STATIC_TARGET})
endif()

# addbo_install_rpath(<target> <destination>): the target, installed into <destination>, finds
# libaddbo through RUNPATH $ORIGIN/<path from destination to the library directory>.
function(addbo_install_rpath target destination)
  foreach(dir destination libdir)
    set(path "${destination}")
    if(dir STREQUAL "libdir")
      set(path "${CMAKE_INSTALL_LIBDIR}")
    endif()
    if(NOT IS_ABSOLUTE "${path}")
      set(path "${CMAKE_INSTALL_PREFIX}/${path}")
    endif()
    set(${dir}_abs "${path}")
  endforeach()
  file(RELATIVE_PATH relative "${destination_abs}" "${libdir_abs}")
  string(REGEX REPLACE "/$" "" relative "${relative}")
  if(relative STREQUAL "")
    set(origin "$ORIGIN")
  else()
    set(origin "$ORIGIN/${relative}")
  endif()
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "${origin}")
endfunction()

if(ADDBO_BUILD_SHARED)
  addbo_install_rpath(addbo "${CMAKE_INSTALL_LIBDIR}")
endif()

# addbo_install_binding_module(<target> <destination>): a binding's native module (the Java,
# C# and Lua ones; their RUNPATH is set with addbo_install_rpath) installed into <destination>
# and, with ADDBO_INSTALL_STRIP (read again at install time, as for the libraries below), stripped of its
# debug information: a RelWithDebInfo Lua module is 3.3 MB, and one is built per Lua version.
function(addbo_install_binding_module target destination)
  install(TARGETS ${target} LIBRARY DESTINATION "${destination}")
  if(NOT CMAKE_OBJCOPY)
    return()
  endif()
  set(directory "${destination}")
  if(NOT IS_ABSOLUTE "${directory}")
    set(directory "\${CMAKE_INSTALL_PREFIX}/${directory}")
  endif()
  install(CODE "
    if(NOT DEFINED ADDBO_INSTALL_STRIP)
      set(ADDBO_INSTALL_STRIP ${ADDBO_INSTALL_STRIP})
    endif()
    if(ADDBO_INSTALL_STRIP)
      set(module \"\$ENV{DESTDIR}${directory}/$<TARGET_FILE_NAME:${target}>\")
      execute_process(COMMAND \"${CMAKE_OBJCOPY}\" --strip-unneeded \"\${module}\"
        RESULT_VARIABLE status)
      if(NOT status EQUAL 0)
        message(FATAL_ERROR \"objcopy --strip-unneeded \${module} failed (\${status})\")
      endif()
      message(STATUS \"Stripped: \${module}\")
    endif()")
endfunction()

# CMake package: addboTargets.cmake (imported targets), addboConfig.cmake and a
# version file (same major version = compatible, like the library's SOVERSION).
install(EXPORT addboTargets NAMESPACE addbo:: FILE addboTargets.cmake
  DESTINATION "${ADDBO_INSTALL_CMAKEDIR}")
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/addboConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/package/addboConfig.cmake"
  INSTALL_DESTINATION "${ADDBO_INSTALL_CMAKEDIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/addboConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/package/addboConfig.cmake"
  "${PROJECT_BINARY_DIR}/package/addboConfigVersion.cmake"
  DESTINATION "${ADDBO_INSTALL_CMAKEDIR}")

# pkg-config: relocatable through ${pcfiledir} when the directories are relative.
function(addbo_pc_dir out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
if(IS_ABSOLUTE "${ADDBO_INSTALL_PKGCONFIGDIR}")
  set(ADDBO_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH ADDBO_PC_PREFIX "/prefix/${ADDBO_INSTALL_PKGCONFIGDIR}" "/prefix")
  string(REGEX REPLACE "/$" "" ADDBO_PC_PREFIX "${ADDBO_PC_PREFIX}")  # ../.., not ../../
  set(ADDBO_PC_PREFIX "\${pcfiledir}/${ADDBO_PC_PREFIX}")
endif()
addbo_pc_dir(ADDBO_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
addbo_pc_dir(ADDBO_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
# Libs.private, for `pkg-config --static`: what libaddbo.a needs when a C compiler links it (the
# C++ runtime of cmake/AddboStaticLibrary.cmake) and the threads library (learning runs on
# threads). Empty without the static library: libaddbo.so brings its own dependencies.
set(ADDBO_PC_LIBS_PRIVATE "")
if(ADDBO_BUILD_STATIC)
  set(private_libs)
  foreach(lib IN LISTS ADDBO_CXX_RUNTIME_LIBS)
    list(APPEND private_libs "-l${lib}")
  endforeach()
  if(CMAKE_THREAD_LIBS_INIT)
    list(APPEND private_libs "${CMAKE_THREAD_LIBS_INIT}")
  else()
    # Threads are in libc itself since glibc 2.34; the empty libpthread keeps older systems right.
    list(APPEND private_libs -lpthread)
  endif()
  string(JOIN " " ADDBO_PC_LIBS_PRIVATE ${private_libs})
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/addbo.pc.in" "${PROJECT_BINARY_DIR}/package/addbo.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/package/addbo.pc" DESTINATION "${ADDBO_INSTALL_PKGCONFIGDIR}")

# --- Stripped installed libraries ----------------------------------------------------------------
# The build keeps its debug information (RelWithDebInfo by default: a 43 MB libaddbo.so), for
# developers and for backtraces of the tests; the installed copies drop it (0.87 MB).
# ADDBO_INSTALL_DEBUG_INFO keeps it apart instead: the shared library's goes, compressed, to
# <libdir>/.debug/<file>.debug, named by a .gnu_debuglink section of the library; gdb looks in
# .debug/ beside the library by itself, so the tree stays relocatable. A static archive cannot
# point at separate debug information: with ADDBO_INSTALL_DEBUG_INFO it keeps its own. Both
# options are read again when installing, so that
#   cmake -DADDBO_INSTALL_DEBUG_INFO=ON -DCMAKE_INSTALL_PREFIX=<prefix> \
#         -P <build>/cmake_install.cmake
# overrides them (tests/install does, to test both ways from one build).
if(CMAKE_OBJCOPY AND CMAKE_READELF)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(libdir "${CMAKE_INSTALL_LIBDIR}")
  else()
    set(libdir "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}")
  endif()
  foreach(target IN LISTS ADDBO_LIBRARY_TARGETS)
    get_target_property(type ${target} TYPE)
    install(CODE "
      if(NOT DEFINED ADDBO_INSTALL_STRIP)
        set(ADDBO_INSTALL_STRIP ${ADDBO_INSTALL_STRIP})
      endif()
      if(NOT DEFINED ADDBO_INSTALL_DEBUG_INFO)
        set(ADDBO_INSTALL_DEBUG_INFO ${ADDBO_INSTALL_DEBUG_INFO})
      endif()
      set(ADDBO_STRIP_INSTALLED \"\$ENV{DESTDIR}${libdir}/$<TARGET_FILE_NAME:${target}>\")
      set(ADDBO_STRIP_BUILT \"$<TARGET_FILE:${target}>\")
      set(ADDBO_STRIP_TYPE ${type})
      set(ADDBO_STRIP_WORK_DIR \"${PROJECT_BINARY_DIR}/installed-debug-info\")
      set(ADDBO_OBJCOPY \"${CMAKE_OBJCOPY}\")
      set(ADDBO_READELF \"${CMAKE_READELF}\")
      include(\"${CMAKE_CURRENT_LIST_DIR}/AddboStripInstalled.cmake\")")
  endforeach()
elseif(ADDBO_INSTALL_STRIP)
  message(WARNING "objcopy or readelf not found: the installed libraries keep their debug "
    "information (ADDBO_INSTALL_STRIP has no effect)")
endif()
