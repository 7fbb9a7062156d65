#!/usr/bin/env bash
# The MPI runner of femc study (studies/framework/distribute.hpp), label mpi:
#   same       mpirun -n 2 gives the table of one process, byte for byte, and
#              the same record apart from its timing fields
#   resume     a rank killed mid-run loses only its cell in flight: the rerun
#              reuses the cells already written and gives the same table
#   shards     two shards started together over stale cells do not remove
#              each other's cells (the folder lock of runner.cpp)
#   verify     mpirun -n 2 femc verify gives the report of one process (the
#              claims and the studies' cells spread over both ranks, each
#              with its own solver process), for a passing solver and for a
#              failing one with its counterexamples
#   report     mpirun -n 2 femc report --check (the regression gate, its
#              quick studies' cells spread over both ranks) prints the verdict
#              of one process, once (the output of the test regression_gate,
#              a ctest fixture, is that of one process)
#   interrupt  Ctrl-C (SIGINT) of femc study, alone or under mpirun, leaves
#              the finished cells and no report, and the rerun resumes; of
#              femc verify, leaves the previous report as it was
#   reference  the quick two-bars study of one process (135 cells), which
#              resume and interrupt compare against (a ctest fixture:
#              computed once, not once per case). The quick size, not the
#              full one (267 cells, 57 s of CPU for each of the five runs):
#              what is tested is the runner's bookkeeping, not the study;
#              same compares its two-bars run with it too
# Usage: check.sh CASE FEMC MPIRUN WORK_DIR [SOURCE_DIR] [REFERENCE_DIR] [GATE_OUTPUT]
set -euo pipefail
case_name=$1 femc=$2 mpirun=$3 work=$4 src=${5:-} reference=${6:-} gate_output=${7:-}
rm -rf "$work" && mkdir -p "$work"
# Two ranks on this machine's 2 cores; root is allowed (CI runs as root).
mpi() { "$mpirun" --allow-run-as-root --oversubscribe -n 2 "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# The record without the fields that time the run or say how many threads
# ran it (the reference ran with --jobs 2).
record() {
  /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
for k in ("wall_seconds_last_invocation", "cell_seconds_total", "jobs"): r.pop(k, None)
print(json.dumps(r, sort_keys=True, indent=1))' "$1"
}
same_report() {  # study dir_a dir_b
  cmp "$2/$1/$1.csv" "$3/$1/$1.csv" || fail "$1: the tables differ"
  diff <(record "$2/$1/$1.json") <(record "$3/$1/$1.json") || fail "$1: the records differ"
}

case "$case_name" in
same)
  [ -e "$reference/two-bars/two-bars.csv" ] || fail "no reference study in '$reference' (the mpi_reference fixture)"
  mkdir -p "$work/one" "$work/two"
  for s in two-bars trajectories; do
    one="$reference"  # two-bars of one process: the fixture
    if [ "$s" != two-bars ]; then
      one="$work/one"
      "$femc" study "$s" --out "$one" >/dev/null
    fi
    mpi "$femc" study "$s" --out "$work/two" >"$work/two.out"
    same_report "$s" "$one" "$work/two"
    [ "$(grep -c "cells computed" "$work/two.out")" -eq 1 ] || fail "$s: not one report line: $(cat "$work/two.out")"
  done
  ;;
reference)
  "$femc" study two-bars --jobs 2 --out "$work" >/dev/null
  [ -e "$work/two-bars/two-bars.csv" ] || fail "no reference table"
  exit 0
  ;;
resume)
  [ -e "$reference/two-bars/two-bars.csv" ] || fail "no reference study in '$reference' (the mpi_reference fixture)"
  mkdir -p "$work/two"
  cells="$work/two/two-bars/cells"
  mpi "$femc" study two-bars --jobs 2 --out "$work/two" >"$work/run1.out" 2>&1 &
  launcher=$!
  for _ in $(seq 600); do  # until 10 cells are written (at most 60 s)
    [ "$(ls "$cells" 2>/dev/null | grep -c '\.csv$' || true)" -ge 10 ] && break
    sleep 0.1
  done
  # Rank 1, found by its environment.
  rank1=""
  for p in $(pgrep -f "study two-bars --jobs 2 --out $work/two" || true); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then rank1=$p; fi
  done
  [ -n "$rank1" ] || fail "rank 1 not found"
  kill -9 "$rank1"
  if wait "$launcher"; then fail "the job ended well although rank 1 was killed"; fi
  kept=$(ls "$cells" | grep -c '\.csv$' || true)
  [ -e "$work/two/two-bars/two-bars.csv" ] && fail "a report was written by the killed job"
  [ "$kept" -ge 10 ] && [ "$kept" -lt 135 ] || fail "$kept cells kept"
  mpi "$femc" study two-bars --jobs 2 --out "$work/two" >"$work/run2.out"
  grep -q "reused" "$work/run2.out" || fail "no reuse: $(cat "$work/run2.out")"
  reused=$(sed -n 's/.* computed, \([0-9]*\) reused.*/\1/p' "$work/run2.out")
  [ "$reused" -eq "$kept" ] || fail "reused $reused of the $kept cells kept"
  same_report two-bars "$reference" "$work/two"
  echo "killed rank 1 with $kept of 135 cells written; the rerun reused them all"
  ;;
shards)
  mkdir -p "$work/one"
  "$femc" study two-bars --out "$work/one" >/dev/null
  for round in 1 2 3 4 5; do
    d="$work/shards$round"
    mkdir -p "$d"
    # Stale cells: those of shard 1/2 under another commit.
    "$femc" study two-bars --shard 1/2 --out "$d" >/dev/null
    sed -i 's/"commit": "[^"]*"/"commit": "stale"/' "$d/two-bars/cells/config.json"
    "$femc" study two-bars --shard 1/2 --out "$d" >"$d/a.out" 2>&1 &
    a=$!
    "$femc" study two-bars --shard 2/2 --out "$d" >"$d/b.out" 2>&1 &
    b=$!
    wait "$a" && wait "$b" || fail "round $round: a shard failed: $(cat "$d/a.out" "$d/b.out")"
    "$femc" study two-bars --merge --out "$d" >"$d/merge.out" || fail "round $round: $(cat "$d/merge.out")"
    same_report two-bars "$work/one" "$d"
  done
  ;;
verify)
  # The conformance record without the count of process starts (one per rank).
  conformance() {
    /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); r["process"].pop("starts")
print(json.dumps(r, indent=1))' "$1"
  }
  # The example solvers call numpy, whose BLAS splits its work by the cores
  # it may use, and mpirun binds each rank (with its solver) to one core:
  # their answers would differ in the last bits. One BLAS thread everywhere.
  export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
  # 30 cases a claim: the same report from 1 and 2 ranks is what is tested
  # (100 cases took 50 s a run: the draws' exact references at 256 bits).
  for solver in numpy_pinv wrong_solver; do
    cmd="/usr/bin/python3 $src/examples/solvers/$solver.py"
    status=0
    "$femc" verify --solver "$cmd" --cases 30 --studies conditioning -o "$work/one" >"$work/one.out" 2>&1 || status=$?
    mstatus=0
    mpi "$femc" verify --solver "$cmd" --cases 30 --studies conditioning -o "$work/two" >"$work/two.out" 2>&1 || mstatus=$?
    [ "$status" = "$mstatus" ] || fail "$solver: exit $mstatus under mpirun, $status alone: $(cat "$work/two.out")"
    name=$(ls "$work/one")
    a="$work/one/$name" b="$work/two/$name"
    diff <(conformance "$a/conformance.json") <(conformance "$b/conformance.json") || fail "$solver: the records differ"
    diff <(grep -v '^- Process:' "$a/README.md") <(grep -v '^- Process:' "$b/README.md") || fail "$solver: the READMEs differ"
    diff -r "$a/counterexamples" "$b/counterexamples" || fail "$solver: the counterexamples differ"
    cmp "$a/studies/conditioning/conditioning.csv" "$b/studies/conditioning/conditioning.csv" ||
      fail "$solver: the study's tables differ"
    cmp "$a/studies/metrics.json" "$b/studies/metrics.json" || fail "$solver: the gate metrics differ"
    grep -q -- "--- the solver of rank 1 ---" "$b/solver-stderr.txt" ||
      [ ! -s "$a/solver-stderr.txt" ] || fail "$solver: rank 1's solver stderr is not in the report"
    ls -A "$work/two" | grep -q '\.tmp-' && fail "$solver: a temporary report was left"
    echo "$solver: exit $status, the same report from 1 and 2 ranks ($(ls "$a/counterexamples" | wc -l) counterexamples)"
    rm -rf "$work/one" "$work/two"
  done
  ;;
report)
  [ -e "$gate_output" ] || fail "no output of the test regression_gate at '$gate_output' (its fixture)"
  status=$(tail -n 1 "$gate_output" | sed -n 's/^exit //p')  # the last line, the test's own
  head -n -1 "$gate_output" >"$work/one.out"
  mstatus=0
  mpi "$femc" report --check "$src/reports/baseline" >"$work/two.out" 2>&1 || mstatus=$?
  [ "$status" = "$mstatus" ] || fail "exit $mstatus under mpirun, $status alone: $(cat "$work/two.out")"
  diff "$work/one.out" "$work/two.out" || fail "the verdicts differ"
  echo "the gate's verdict from 1 and 2 ranks: exit $status, $(tail -1 "$work/one.out")"
  ;;
interrupt)
  # Background jobs in their own process groups, which do not ignore SIGINT
  # (as they do without job control), so that a signal to the group is
  # Ctrl-C at a terminal: femc, its solver process, mpirun and its ranks.
  set -m
  # Sends SIGINT to the job $1's process group once $2 holds at least $3
  # files named *$4.
  interrupt_when() {
    for _ in $(seq 600); do
      [ "$(ls "$2" 2>/dev/null | grep -c -- "$4\$" || true)" -ge "$3" ] && break
      sleep 0.1
    done
    kill -INT -- "-$1"
  }
  [ -e "$reference/two-bars/two-bars.csv" ] || fail "no reference study in '$reference' (the mpi_reference fixture)"
  for how in alone mpirun; do
    d="$work/$how" && mkdir -p "$d"
    cells="$d/two-bars/cells"
    if [ "$how" = alone ]; then
      "$femc" study two-bars --jobs 2 --out "$d" >"$d/run1.out" 2>&1 &
    else
      mpi "$femc" study two-bars --jobs 2 --out "$d" >"$d/run1.out" 2>&1 &
    fi
    job=$!
    interrupt_when "$job" "$cells" 10 .csv
    if wait "$job"; then fail "$how: the study ended well although interrupted"; fi
    [ -e "$d/two-bars/two-bars.csv" ] || [ -e "$d/two-bars/two-bars.json" ] && fail "$how: an interrupted study wrote a report"
    kept=$(ls "$cells" | grep -c '\.csv$' || true)
    [ "$kept" -ge 10 ] && [ "$kept" -lt 135 ] || fail "$how: $kept cells kept"
    "$femc" study two-bars --jobs 2 --out "$d" >"$d/run2.out"
    reused=$(sed -n 's/.* computed, \([0-9]*\) reused.*/\1/p' "$d/run2.out")
    [ "$reused" -eq "$kept" ] || fail "$how: reused $reused of the $kept cells kept"
    same_report two-bars "$reference" "$d"
    echo "$how: interrupted with $kept of 135 cells written; no report; the rerun reused them all"
  done
  # femc verify: the previous report stays whole; the next run removes the
  # interrupted one's temporary directory.
  cmd="/usr/bin/python3 $src/examples/solvers/numpy_pinv.py"
  v="$work/verify"
  # (a few claims and cases: the interruption is what is tested)
  few="--claims E1,U1 --cases 20"
  "$femc" verify --solver "$cmd" $few --studies "" -o "$v" >/dev/null 2>&1
  cp "$v/numpy-pinv/conformance.json" "$work/before.json"
  "$femc" verify --solver "$cmd" $few --studies conditioning --seed 7 -o "$v" >/dev/null 2>&1 &
  job=$!
  interrupt_when "$job" "$v/.numpy-pinv.tmp-$job/studies/conditioning/cells" 10 .csv
  if wait "$job"; then fail "verify: ended well although interrupted"; fi
  cmp "$v/numpy-pinv/conformance.json" "$work/before.json" || fail "verify: the interrupted run changed the report"
  [ -d "$v/.numpy-pinv.tmp-$job" ] || fail "verify: interrupted outside its studies (no temporary report)"
  "$femc" verify --solver "$cmd" $few --studies "" --seed 7 -o "$v" >/dev/null 2>&1
  ls -A "$v" | grep -q '\.tmp-' && fail "verify: the interrupted run's temporary report was not removed"
  grep -q '"seed": 7' "$v/numpy-pinv/conformance.json" || fail "verify: the rerun wrote no report"
  echo "verify: interrupted in its studies; the previous report stayed; the next run cleared the temporary one"
  ;;
*)
  fail "unknown case $case_name"
  ;;
esac
rm -rf "$work"
