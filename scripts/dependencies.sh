# Sourced by scripts/test and scripts/demo: installs the Debian packages addbo builds with,
# only when one is missing (apt-get needs root; as another user it runs through sudo).
# The library (C API, C++ wrapper), its tests, examples and benchmarks; python3 runs
# scripts/c_api_reference (ctest docs_c_api_reference) and scripts/benchmarks:
ADDBO_PACKAGES_CORE=(cmake make g++ libeigen3-dev nlohmann-json3-dev doctest-dev gnuplot-nox
  pkgconf python3)
# The C++ examples in a simulation engine (examples/box2d: Box2D 2.4) and on a cluster
# (examples/mpi: Open MPI's mpirun and headers):
ADDBO_PACKAGES_CORE+=(libbox2d-dev openmpi-bin libopenmpi-dev)
# The Java, C# and Lua bindings, which a C or C++ user does not need (--no-bindings); the Lua
# module is built and tested for every Lua installed (5.1, LuaJIT, 5.2, 5.3, 5.4), and luarocks
# installs it into a tree in ctest bindings_lua_luarocks_tree:
ADDBO_PACKAGES_BINDINGS=(swig openjdk-17-jdk-headless mono-mcs nuget mono-xbuild lua5.4 liblua5.4-dev
  lua5.1 liblua5.1-0-dev luajit libluajit-5.1-dev lua5.2 liblua5.2-dev lua5.3 liblua5.3-dev
  luarocks)
# The game-engine example (examples/love): LOVE (LuaJIT inside), headless under Xvfb:
ADDBO_PACKAGES_BINDINGS+=(love xvfb xauth)
# Maven and the plugins it builds, packages and runs with, read offline from
# /usr/share/maven-repo by ctest install_java_maven (junit5 holds a BOM the compiler plugin's
# dependencies import; jar and surefire for `mvn package`, exec for `mvn exec:java`):
ADDBO_PACKAGES_BINDINGS+=(maven libmaven-resources-plugin-java libmaven-compiler-plugin-java junit5
  libmaven-jar-plugin-java libsurefire-java libexec-maven-plugin-java)
ADDBO_PACKAGES=("${ADDBO_PACKAGES_CORE[@]}" "${ADDBO_PACKAGES_BINDINGS[@]}")

# addbo_install_dependencies [--no-bindings]: everything, or only ADDBO_PACKAGES_CORE.
addbo_install_dependencies() {
  local wanted=("${ADDBO_PACKAGES[@]}")
  [ "${1:-}" = "--no-bindings" ] && wanted=("${ADDBO_PACKAGES_CORE[@]}")
  local missing=()
  local package
  for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing missing packages: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
}
