#!/bin/sh
# Runs the benchmark suite (bench/) on one thread and writes the raw JSON and
# reports/performance.md. Usage: scripts/bench.sh BUILD_DIR [extra benchmark flags]
# (make bench builds BUILD_DIR/bench/femc_bench first).
set -eu
build=${1:-build/release}
[ $# -gt 0 ] && shift
mkdir -p reports
# One thread for OpenBLAS (the executable also calls openblas_set_num_threads(1)).
# min_time 0.2 s per benchmark: enough repetitions of the fast solves, while
# a solve slower than that runs once or twice (total about 10 minutes).
OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$build/bench/femc_bench" \
  --benchmark_min_time=0.2 \
  --benchmark_out=reports/performance.json --benchmark_out_format=json "$@"
python3 scripts/bench-report.py reports/performance.json reports/performance.md \
  --load-after "$(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrote reports/performance.md and reports/performance.json"
