#!/bin/sh
# Measures what -march=native (CMake option FEMC_NATIVE) buys: builds
# femc_bench a second time with it, in build/native, then runs the two
# executables alternately on the same filter, three times each, one thread,
# and prints the time ratios (default ÷ native) with the target ratios of
# each run (scripts/bench-native-compare.py). Usage:
#   scripts/bench-native.sh [FILTER]     (after make bench, which builds build/release)
# FEMC_NATIVE_DIR names the native build directory (default build/native).
set -eu
native=${FEMC_NATIVE_DIR:-build/native}
# By default the benchmarks of the timed targets (bench-report.py, at the floor
# bits of make bench's reports/performance.json) and the
# sparse-against-dense ratio at N = 40.
filter=${1:-"$(python3 scripts/bench-report.py reports/performance.json --print-target-filter)|sparse_scaling/(a02|chain)/double/(sparse|cod)/40\$"}
cmake -S . -B "$native" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFEMC_NATIVE=ON -DFEMC_BUILD_BENCH=ON \
  -DFEMC_BUILD_TESTS=OFF >/dev/null
cmake --build "$native" -j 2 --target femc_bench
out=$native/compare
mkdir -p "$out"
for k in 1 2 3; do
  for b in release native; do
    if [ "$b" = release ]; then dir=build/release; else dir=$native; fi
    OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$dir/bench/femc_bench" --benchmark_filter="$filter" \
      --benchmark_min_time=0.2 --benchmark_out="$out/$b-$k.json" --benchmark_out_format=json >/dev/null
  done
done
python3 scripts/bench-native-compare.py "$out"/release-1.json "$out"/native-1.json \
  "$out"/release-2.json "$out"/native-2.json "$out"/release-3.json "$out"/native-3.json
