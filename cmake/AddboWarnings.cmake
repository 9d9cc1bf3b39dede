# The warnings addbo's own code builds clean of and its language standards, set on addbo's
# targets rather than for the directory tree, so that they reach neither a parent project that
# takes addbo in with add_subdirectory() nor the targets of the packages it finds.
# addbo_target_defaults() is called once, at the end of the top-level CMakeLists.txt, and
# applies them to every target of the library, the tests, the examples, the benchmarks and the
# bindings (whose SWIG-generated sources are compiled with -w: bindings/CMakeLists.txt).
#
# ADDBO_WERROR (on in CI: scripts/test) makes a new warning an error.
set(ADDBO_WARNING_OPTIONS -Wall -Wextra -Wpedantic -Wshadow -Wconversion)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  # Clang's -Wconversion includes the signed/unsigned conversions GCC's leaves out (size_t
  # against Eigen's signed indices, hundreds of them): the same set on both compilers.
  list(APPEND ADDBO_WARNING_OPTIONS -Wno-sign-conversion)
endif()
if(ADDBO_WERROR)
  list(APPEND ADDBO_WARNING_OPTIONS -Werror)
endif()

# C++17 without GNU extensions (-std=c++17, not gnu++17: the same floating-point contraction
# rules on every compiler, so results stay bit-identical) and C99, unless a target asks for
# another standard itself (tests/c/header_c99, tests/dl); then the warnings.
function(addbo_apply_target_defaults target)
  get_target_property(type ${target} TYPE)
  if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    return()  # interface libraries and custom targets compile nothing
  endif()
  foreach(property_value IN ITEMS "CXX_STANDARD=17" "CXX_STANDARD_REQUIRED=ON"
                                  "CXX_EXTENSIONS=OFF" "C_STANDARD=99")
    string(REPLACE "=" ";" pair "${property_value}")
    list(GET pair 0 property)
    list(GET pair 1 value)
    get_target_property(current ${target} ${property})
    if(current STREQUAL "current-NOTFOUND")
      set_target_properties(${target} PROPERTIES ${property} ${value})
    endif()
  endforeach()
  target_compile_options(${target} PRIVATE ${ADDBO_WARNING_OPTIONS})
endfunction()

# Every target defined in `directory` and the directories below it.
function(addbo_target_defaults directory)
  get_property(targets DIRECTORY "${directory}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    addbo_apply_target_defaults(${target})
  endforeach()
  get_property(subdirectories DIRECTORY "${directory}" PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    addbo_target_defaults("${subdirectory}")
  endforeach()
endfunction()
