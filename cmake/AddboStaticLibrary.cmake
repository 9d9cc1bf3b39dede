# The static library libaddbo.a (ADDBO_BUILD_STATIC), as target ${ADDBO_STATIC_TARGET}: the C
# API and the core linked into one relocatable object (ld -r), in which every symbol but the
# addbo_* functions is then made local (objcopy --keep-global-symbol). A program linking it sees
# only the C API, as with libaddbo.so and its version script. A plain archive of the objects
# would show the core's C++ symbols (namespace addbo::core) to the host, whose own may clash
# with them (a host that links another copy of the core, or a different version of Eigen or
# nlohmann_json instantiating the same templates). --force-group-allocation first resolves the
# inline functions' COMDAT groups inside the object: a local definition left in a group would be
# discarded in favour of the host's.
# Included from the top-level CMakeLists.txt (uses ADDBO_CAPI_SOURCES and addbo_core; the
# include directories are set there, as for the shared library). Sets ADDBO_CXX_RUNTIME_LIBS.
include_guard(GLOBAL)
find_package(Threads REQUIRED)
if(NOT CMAKE_LINKER OR NOT CMAKE_OBJCOPY)
  message(FATAL_ERROR "ADDBO_BUILD_STATIC needs ld and objcopy (Debian: binutils)")
endif()

# What the C++ compiler links by itself and the C compiler does not (libstdc++ and libm with
# GCC): a C program linking libaddbo.a needs it. In the target's interface (so that a C-only
# CMake project links it too) and in Libs.private of addbo.pc.
set(ADDBO_CXX_RUNTIME_LIBS)
foreach(lib IN LISTS CMAKE_CXX_IMPLICIT_LINK_LIBRARIES)
  if(NOT lib IN_LIST CMAKE_C_IMPLICIT_LINK_LIBRARIES AND NOT lib IN_LIST ADDBO_CXX_RUNTIME_LIBS)
    list(APPEND ADDBO_CXX_RUNTIME_LIBS ${lib})
  endif()
endforeach()

# The C API's objects, compiled as for the shared library.
add_library(addbo_static_objects OBJECT ${ADDBO_CAPI_SOURCES})
target_link_libraries(addbo_static_objects PRIVATE addbo_core)
target_include_directories(addbo_static_objects PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_compile_definitions(addbo_static_objects PRIVATE ADDBO_BUILDING_LIBRARY)
set_target_properties(addbo_static_objects PROPERTIES
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)

# GCC binds the static variables of inline functions (nlohmann's and Eigen's tables) and inline
# variables STB_GNU_UNIQUE, which objcopy cannot make local; weak (-fno-gnu-unique), it can. Only
# the binding changes: within one program there is one copy either way, and libaddbo.so's
# version script makes them local too.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(addbo_core PRIVATE -fno-gnu-unique)
  target_compile_options(addbo_static_objects PRIVATE -fno-gnu-unique)
endif()

set(ADDBO_STATIC_OBJECT "${PROJECT_BINARY_DIR}/static/addbo.o")
file(MAKE_DIRECTORY "${PROJECT_BINARY_DIR}/static")
add_custom_command(OUTPUT "${ADDBO_STATIC_OBJECT}"
  COMMAND "${CMAKE_LINKER}" -r --force-group-allocation -o "${ADDBO_STATIC_OBJECT}"
          "$<TARGET_OBJECTS:addbo_static_objects>"
          --whole-archive "$<TARGET_FILE:addbo_core>" --no-whole-archive
  COMMAND "${CMAKE_OBJCOPY}" --wildcard --keep-global-symbol=addbo_* "${ADDBO_STATIC_OBJECT}"
  DEPENDS addbo_static_objects addbo_core "$<TARGET_OBJECTS:addbo_static_objects>"
          "$<TARGET_FILE:addbo_core>"
  COMMAND_EXPAND_LISTS VERBATIM
  COMMENT "Linking the C API and the core into static/addbo.o, only the C API global")

add_library(${ADDBO_STATIC_TARGET} STATIC "${ADDBO_STATIC_OBJECT}")
set_source_files_properties("${ADDBO_STATIC_OBJECT}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
target_link_libraries(${ADDBO_STATIC_TARGET} INTERFACE Threads::Threads ${ADDBO_CXX_RUNTIME_LIBS})
set_target_properties(${ADDBO_STATIC_TARGET} PROPERTIES
  LINKER_LANGUAGE CXX OUTPUT_NAME addbo EXPORT_NAME ${ADDBO_STATIC_TARGET})
