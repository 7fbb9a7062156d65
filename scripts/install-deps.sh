#!/usr/bin/env bash
# Installs the Debian 12 packages femc builds and tests with, when missing.
# Nothing else is fetched: every dependency is a Debian package.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config make
  libeigen3-dev libboost1.81-dev libmpfr-dev libgmp-dev libmpfrc++-dev libqd-dev
  nlohmann-json3-dev libcli11-dev
  libgtest-dev librapidcheck-dev libbenchmark-dev liblapacke-dev libopenblas-dev python3-matplotlib
  coq libcoq-mathcomp-algebra
  clang libclang-rt-14-dev
  libsimbody-dev  # engines/: the Simbody adapter (optional at build time: the suite passes without it)
  libmujoco-dev   # engines/: the MuJoCo adapter (optional likewise)
  libode-dev      # engines/: the ODE adapter (optional likewise)
  libbullet-dev   # engines/: the Bullet adapter, its double build (bullet-float64.pc; optional likewise)
  libopenmpi-dev openmpi-bin  # studies/: the MPI runner (optional likewise; mpirun for the mpi tests)
  libsuitesparse-dev  # bench/: CHOLMOD and SPQR beside femc's sparse kernels (optional likewise)
  pybind11-dev python3-dev python3-numpy python3-mpmath python3-pytest  # python/: import femc (optional likewise)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "femc: installing missing Debian packages: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
