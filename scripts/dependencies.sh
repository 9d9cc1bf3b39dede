# Sourced by scripts/test and scripts/demo: installs the Debian packages addbo builds with,
# only when one is missing (apt-get needs root; as another user it runs through sudo).
ADDBO_PACKAGES=(cmake make g++ libeigen3-dev nlohmann-json3-dev doctest-dev gnuplot-nox
  swig openjdk-17-jdk-headless mono-mcs lua5.4 liblua5.4-dev pkgconf)

addbo_install_dependencies() {
  local missing=()
  local package
  for package in "${ADDBO_PACKAGES[@]}"; do
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
