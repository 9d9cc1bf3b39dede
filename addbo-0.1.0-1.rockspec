-- LuaRocks package of the Lua binding: `luarocks --lua-version 5.4 make` in the source tree (or
-- 5.1, 5.2, 5.3; LuaRocks' 5.1 is LuaJIT when that is its configured interpreter) builds the
-- library and the module with CMake for that interpreter alone (SWIG, a C++17 compiler, Eigen 3,
-- nlohmann_json and the interpreter's headers must be installed; Debian: swig libeigen3-dev
-- nlohmann-json3-dev liblua5.4-dev) and installs require("addbo").
-- The module addbo.so and libaddbo.so go side by side into the tree's C module directory
-- (the module finds the library through its RUNPATH $ORIGIN); the C headers and the CMake and
-- pkg-config files stay in the rock's own directory. The version follows include/addbo/addbo.h;
-- ctest bindings_lua_rockspec checks that they agree and that `luarocks make` works offline.
rockspec_format = "3.0"
package = "addbo"
version = "0.1.0-1"
-- `luarocks make` builds the tree it is run in and never fetches this: the project has no
-- published repository yet, so the address is a placeholder for `luarocks install`.
source = {
  url = "git+https://example.invalid/addbo.git",
  tag = "v0.1.0",
}
description = {
  summary = "High-dimensional Bayesian optimisation (additive GP-UCB) with an ask/tell loop",
  detailed = [[
addbo optimises expensive functions of many variables by Bayesian optimisation over an additive
Gaussian-process model whose structure it learns. The Lua module drives it with ask/tell:
configurations and saved states are Lua tables or JSON text, points are tables of numbers, with
integer variables as Lua integers and categorical variables as the choice itself.]],
  license = "MIT",
}
dependencies = {
  "lua >= 5.1, < 5.5",
}
build = {
  type = "cmake",
  variables = {
    CMAKE_BUILD_TYPE = "Release",
    CMAKE_INSTALL_PREFIX = "$(PREFIX)",
    CMAKE_INSTALL_LIBDIR = "lib",
    -- One libaddbo.so, without the libaddbo.so.0 symlinks: luarocks deploys the files of the
    -- rock's lib directory one by one and breaks a symlink whose target it moved first.
    CMAKE_PLATFORM_NO_VERSIONED_SONAME = "ON",
    ADDBO_INSTALL_LUA_MODULEDIR = "lib",
    ADDBO_INSTALL_CMAKEDIR = "share/cmake/addbo",
    ADDBO_INSTALL_PKGCONFIGDIR = "share/pkgconfig",
    ADDBO_BUILD_TESTS = "OFF",
    ADDBO_BUILD_BENCHMARKS = "OFF",
    ADDBO_BINDINGS_JAVA = "OFF",
    ADDBO_BINDINGS_CSHARP = "OFF",
    ADDBO_BINDINGS_LUA = "ON",
    ADDBO_LUA_INTERPRETER = "$(LUA)",
    ADDBO_LUA_INTERPRETER_INCLUDE_DIR = "$(LUA_INCDIR)",
  },
}
