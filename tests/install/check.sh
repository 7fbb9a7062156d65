#!/usr/bin/env bash
# Installs the build in BUILD_DIR into a fresh prefix, then configures, builds
# and tests the downstream project beside this script against it: a solve,
# and the claims run on the downstream project's own solver; then the
# installed `femc verify` on the example solver, with its plots drawn by the
# installed script.
set -euo pipefail
build=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$(dirname "$0")" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
ctest --test-dir "$work/build" --output-on-failure >/dev/null || ctest --test-dir "$work/build" --output-on-failure

root=$(cd "$(dirname "$0")/../.." && pwd)
"$work/prefix/bin/femc" verify --solver "/usr/bin/python3 $root/examples/solvers/numpy_pinv.py" --claims E1 --cases 5 \
  --studies conditioning -o "$work/verify" >/dev/null
grep -q "plots: drawn by \`$work/prefix/share/femc/plot_studies.py\`" "$work/verify/numpy-pinv/README.md" ||
  { echo "install: femc verify did not draw its plots with the installed script" >&2; grep plots "$work/verify/numpy-pinv/README.md" >&2; exit 1; }

# The installed Python package, imported by the interpreter it was built for
# from a clean directory (nothing of the source or build tree on its path).
python=$(sed -n 's/^FEMC_PYTHON_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
site=$(sed -n 's/^FEMC_PYTHON_INSTALL_DIR:[A-Z]*=//p' "$build/CMakeCache.txt")
if [ -n "$python" ] && [ -n "$site" ]; then
  [ -e "$work/prefix/$site/femc/__init__.py" ] ||
    { echo "install: the Python module was built but not installed in $site" >&2; exit 1; }
  mkdir -p "$work/clean"
  (cd "$work/clean" && env -u PYTHONPATH -u FEMC_CLI PATH=/usr/bin:/bin PYTHONPATH="$work/prefix/$site" "$python" -c '
import femc, sys
r = femc.solve([[2, 0], [0, 2]], [[1, 1]], [0], [0, -2], precision=256)
assert r.precision == "mpfr-256" and str(r.qdd[0]).startswith("0.5"), r.qdd
assert femc.__file__.startswith(sys.argv[1]), femc.__file__
# femc.verify runs the installed femc command (bin/femc under the same prefix).
v = femc.verify(lambda M, A, b, Q, C, W: femc.solve(M, A, b, Q, C, W).qdd, claims=["E1"], cases=3, studies=())
assert v.passed, v
' "$work/prefix/$site") || { echo "install: the installed femc package does not import and solve" >&2; exit 1; }
else
  echo "install: the Python module was not built; its installed import not checked"
fi
