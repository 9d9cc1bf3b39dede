# Sourced by scripts/test and scripts/demo: installs the Debian packages addbo builds with,
# only when one is missing (apt-get needs root; as another user it runs through sudo).
# The library (C API, C++ wrapper), its tests, examples and benchmarks:
ADDBO_PACKAGES_CORE=(cmake make g++ libeigen3-dev nlohmann-json3-dev doctest-dev gnuplot-nox
  pkgconf)
# The Java, C# and Lua bindings, which a C or C++ user does not need (--no-bindings):
ADDBO_PACKAGES_BINDINGS=(swig openjdk-17-jdk-headless mono-mcs nuget lua5.4 liblua5.4-dev)
# Maven and the plugins it compiles with, read offline from /usr/share/maven-repo by ctest
# install_java_maven (junit5 holds a BOM the compiler plugin's dependencies import):
ADDBO_PACKAGES_BINDINGS+=(maven libmaven-resources-plugin-java libmaven-compiler-plugin-java junit5)
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
