#!/usr/bin/env bash
# The MPI runner of femc study (studies/framework/distribute.hpp), label mpi:
#   same       mpirun -n 2 gives the table of one process, byte for byte, and
#              the same record apart from its timing fields
#   resume     a rank killed mid-run loses only its cell in flight: the rerun
#              reuses the cells already written and gives the same table
#   shards     two shards started together over stale cells do not remove
#              each other's cells (the folder lock of runner.cpp)
# Usage: check.sh CASE FEMC MPIRUN WORK_DIR
set -euo pipefail
case_name=$1 femc=$2 mpirun=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
# Two ranks on this machine's 2 cores; root is allowed (CI runs as root).
mpi() { "$mpirun" --allow-run-as-root --oversubscribe -n 2 "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# The record without the fields that time the run.
record() {
  /usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
for k in ("wall_seconds_last_invocation", "cell_seconds_total"): r.pop(k, None)
print(json.dumps(r, sort_keys=True, indent=1))' "$1"
}
same_report() {  # study dir_a dir_b
  cmp "$2/$1/$1.csv" "$3/$1/$1.csv" || fail "$1: the tables differ"
  diff <(record "$2/$1/$1.json") <(record "$3/$1/$1.json") || fail "$1: the records differ"
}

case "$case_name" in
same)
  mkdir -p "$work/one" "$work/two"
  for s in two-bars trajectories; do
    "$femc" study "$s" --out "$work/one" >/dev/null
    mpi "$femc" study "$s" --out "$work/two" >"$work/two.out"
    same_report "$s" "$work/one" "$work/two"
    [ "$(grep -c "cells computed" "$work/two.out")" -eq 1 ] || fail "$s: not one report line: $(cat "$work/two.out")"
  done
  ;;
resume)
  mkdir -p "$work/one" "$work/two"
  "$femc" study two-bars --size full --jobs 2 --out "$work/one" >/dev/null
  cells="$work/two/two-bars/cells"
  mpi "$femc" study two-bars --size full --jobs 2 --out "$work/two" >"$work/run1.out" 2>&1 &
  launcher=$!
  for _ in $(seq 600); do  # until 40 cells are written (at most 60 s)
    [ "$(ls "$cells" 2>/dev/null | grep -c '\.csv$' || true)" -ge 40 ] && break
    sleep 0.1
  done
  # Rank 1, found by its environment.
  rank1=""
  for p in $(pgrep -f "study two-bars --size full --jobs 2 --out $work/two" || true); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1"; then rank1=$p; fi
  done
  [ -n "$rank1" ] || fail "rank 1 not found"
  kill -9 "$rank1"
  if wait "$launcher"; then fail "the job ended well although rank 1 was killed"; fi
  kept=$(ls "$cells" | grep -c '\.csv$' || true)
  [ -e "$work/two/two-bars/two-bars.csv" ] && fail "a report was written by the killed job"
  [ "$kept" -ge 40 ] && [ "$kept" -lt 267 ] || fail "$kept cells kept"
  mpi "$femc" study two-bars --size full --jobs 2 --out "$work/two" >"$work/run2.out"
  grep -q "reused" "$work/run2.out" || fail "no reuse: $(cat "$work/run2.out")"
  reused=$(sed -n 's/.* computed, \([0-9]*\) reused.*/\1/p' "$work/run2.out")
  [ "$reused" -eq "$kept" ] || fail "reused $reused of the $kept cells kept"
  same_report two-bars "$work/one" "$work/two"
  echo "killed rank 1 with $kept of 267 cells written; the rerun reused them all"
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
*)
  fail "unknown case $case_name"
  ;;
esac
rm -rf "$work"
