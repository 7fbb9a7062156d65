#!/bin/sh
# Runs the benchmark suite (bench/) on one thread and writes the raw JSON and
# reports/performance.md. Usage: scripts/bench.sh BUILD_DIR [extra benchmark flags]
# (make bench builds BUILD_DIR/bench/femc_bench first).
#
# After the full suite, the benchmarks the targets read run again, so that the
# report gives each target ratio over FEMC_BENCH_RUNS runs (default 3) with
# its spread: on a noisy machine one run's ratio can sit on either side of a
# threshold. Extra benchmark flags (a subset run) skip the repeats.
set -eu
build=${1:-build/release}
[ $# -gt 0 ] && shift
runs=${FEMC_BENCH_RUNS:-3}
case $runs in ''|*[!0-9]*|0) echo "bench.sh: FEMC_BENCH_RUNS must be a positive integer, not '$runs'" >&2; exit 2;; esac
[ $# -gt 0 ] && runs=1
mkdir -p reports
rm -f reports/performance-run*.json
# bench-report.py reads femc's methods from this build's femc describe --json.
export FEMC="$build/cli/femc"
# One thread for OpenBLAS (the executable also calls openblas_set_num_threads(1)).
# min_time 0.2 s per benchmark: enough repetitions of the fast solves, while
# a solve slower than that runs once or twice (total about 10 minutes, and
# about 1 minute per repeat of the targets).
bench() {
  OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 "$build/bench/femc_bench" --benchmark_min_time=0.2 "$@"
}
bench --benchmark_out=reports/performance.json --benchmark_out_format=json "$@"
filter=$(python3 scripts/bench-report.py reports/performance.json --print-target-filter)
repeats=""
i=2
while [ "$i" -le "$runs" ]; do
  echo "bench.sh: run $i of $runs, the target benchmarks"
  bench --benchmark_filter="$filter" --benchmark_out="reports/performance-run$i.json" --benchmark_out_format=json
  repeats="$repeats --repeat reports/performance-run$i.json"
  i=$((i + 1))
done
# shellcheck disable=SC2086  # $repeats is a list of options
python3 scripts/bench-report.py reports/performance.json reports/performance.md \
  --load-after "$(cut -d' ' -f1-3 /proc/loadavg)" $repeats
echo "wrote reports/performance.md and reports/performance*.json"
