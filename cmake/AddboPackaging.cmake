# Installation of the addbo library beyond the library file and the headers (which the top-level
# CMakeLists.txt installs): a CMake package (find_package(addbo) -> target addbo::addbo), a
# pkg-config file, and $ORIGIN-relative RUNPATHs so that an installed tree can be moved.
# Included from the top-level CMakeLists.txt after install(TARGETS addbo EXPORT addboTargets ...).
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ADDBO_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/addbo" CACHE STRING
    "Where the CMake package files of addbo are installed (relative to the prefix)")
set(ADDBO_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig" CACHE STRING
    "Where addbo.pc is installed (relative to the prefix)")

# The same name in the build tree as in an installed package, for add_subdirectory() users.
add_library(addbo::addbo ALIAS addbo)

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

addbo_install_rpath(addbo "${CMAKE_INSTALL_LIBDIR}")

# CMake package: addboTargets.cmake (imported target addbo::addbo), addboConfig.cmake and a
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
  set(ADDBO_PC_PREFIX "\${pcfiledir}/${ADDBO_PC_PREFIX}")
endif()
addbo_pc_dir(ADDBO_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
addbo_pc_dir(ADDBO_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/addbo.pc.in" "${PROJECT_BINARY_DIR}/package/addbo.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/package/addbo.pc" DESTINATION "${ADDBO_INSTALL_PKGCONFIGDIR}")
