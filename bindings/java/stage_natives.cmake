# cmake -P script run when addbo.jar is built: copies the native libraries into the jar's
# staging tree, native/<platform>/ (bindings/java/CMakeLists.txt), with libraries.txt listing
# them in load order (NativeLoader.java reads it). The copies' RUNPATH becomes $ORIGIN (the
# build tree's points into the build directory), and with STRIP=ON they lose their debug
# information as the installed libraries do (ADDBO_INSTALL_STRIP).
# Input: DIR (the directory to fill, emptied first), LIBRARIES ("|"-separated paths, in load
# order: the core before the JNI library), OBJCOPY (may be empty), STRIP.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
string(REPLACE "|" ";" libraries "${LIBRARIES}")
set(index "")
foreach(library IN LISTS libraries)
  get_filename_component(name "${library}" NAME)
  # configure_file follows a symlink (libaddbo.so.0 -> libaddbo.so.0.x.y), where file(COPY)
  # would copy the link itself.
  configure_file("${library}" "${DIR}/${name}" COPYONLY)
  # file(RPATH_SET) is CMake 3.21; before, the copies keep the build tree's RUNPATH, which does
  # no harm: NativeLoader loads the core first, and the JNI library's dependency resolves to it.
  if(NOT CMAKE_VERSION VERSION_LESS 3.21)
    file(READ_ELF "${DIR}/${name}" RUNPATH runpath RPATH rpath)
    if(runpath OR rpath)
      # Written in place: "$ORIGIN" is never longer than the build tree's path it replaces.
      file(RPATH_SET FILE "${DIR}/${name}" NEW_RPATH "$ORIGIN")
    endif()
  endif()
  if(STRIP AND OBJCOPY)
    execute_process(COMMAND "${OBJCOPY}" --strip-unneeded "${DIR}/${name}" RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "${OBJCOPY} --strip-unneeded ${DIR}/${name} failed (${status})")
    endif()
  endif()
  string(APPEND index "${name}\n")
endforeach()
file(WRITE "${DIR}/libraries.txt" "${index}")
