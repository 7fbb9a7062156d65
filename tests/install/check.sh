#!/usr/bin/env bash
# Installs the build in BUILD_DIR into a fresh prefix, then configures, builds
# and tests the downstream project beside this script against it: a solve,
# and the claims run on the downstream project's own solver.
set -euo pipefail
build=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$(dirname "$0")" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
ctest --test-dir "$work/build" --output-on-failure >/dev/null || ctest --test-dir "$work/build" --output-on-failure
