#!/bin/sh
# Installs the optional peers of hd_suite --peers from Debian's packages: dlib (LIPO + trust
# region), pagmo2 (CMA-ES), Optuna with the cmaes package (TPE and CMA-ES samplers) and torch
# (TuRBO-1, turbo1.py), both used by /usr/bin/python3 only. Re-run CMake afterwards so that it
# finds dlib and pagmo. TuRBO-1 runs about ten times faster with libopenblas0-serial (README.md,
# "Speed"), which is left out here because installing it changes the system's BLAS.
# Needs root (or sudo); non-interactive.
set -eu

packages="libdlib-dev libpagmo-dev python3-optuna python3-cmaes python3-torch"
if [ "$(id -u)" -eq 0 ]; then
  as_root=""
else
  as_root="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
$as_root apt-get update
$as_root apt-get install -y --no-install-recommends $packages
echo "installed: $packages"
echo "now re-run cmake on your build directory and rebuild hd_suite to compile the C++ peers"
