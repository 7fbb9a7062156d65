#!/usr/bin/env bash
# Integrates the benchmark mechanisms of models/benchmarks/ (and the engines'
# change-point four-bar, models/examples/) from their model files at double
# and at 128 bits and writes OUT/<run>.csv (one row per
# record), OUT/<run>.json (femc's summary) and OUT/<run>.ms (wall time), or
# OUT/<run>.error when femc refused the run,
# then the plots and OUT/README.md (models/benchmarks/plot_mechanisms.py).
# The 128-bit (A04, A05: float128) runs are references: Bulirsch–Stoer near
# the unit roundoff, or Radau IIA for the stiff A05. Where the benchmark's
# span costs too much, the run is shortened and the table below says so (the
# report repeats it); A05's float128 run covers 0.5 s (about 75 s; its 10 s
# reference is committed in models/benchmarks/reference/). A02 runs with its
# files' default, the index-3 formulation (N = 2 and N = 40 over the
# benchmark's 20 s with its 400 outputs; N = 1000 sparse over 2 s, every 4th
# record kept: a row holds 12 006 numbers; N = 40 at 128 bits over 0.5 s),
# beside the projected and index-1 formulations over 2 s, which leave the
# branch at the first flat configuration: index-1 says so (exit 5, warnings
# in the JSON); projected crawls there for fewer or more steps by the last
# bits of OpenBLAS's kernels, and says so either way (docs/simulation.md). The
# other singular mechanisms with the index-3 formulation beside their
# defaults: A03 and A04 (redundant throughout) against their references, the
# change-point four-bar through θ = 0 and −π (the projected formulation
# leaves its branch there and says so). Two runs at a time (2 cores).
# Usage: simulate-mechanisms.sh FEMC OUT_DIR
set -euo pipefail
femc=$1 out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
bench=$here/models/benchmarks
mkdir -p "$out"
# run name | model file | precision | femc simulate options
runs=(
  "a01.double|a01_simple_pendulum.json|double|--tol 1e-12 --dt 0.5"
  "a01.128|a01_simple_pendulum.json|128|--stepper bulirsch-stoer --tol 1e-30 --dt 0.05 --t-end 20"
  "a02_n2.double|a02_n_four_bar_2.json|double|--dt 0.05"
  "a02_n2.double-projected|a02_n_four_bar_2.json|double|--formulation projected --tol 1e-10 --dt 0.05 --t-end 2"
  "a02_n2.double-index-1|a02_n_four_bar_2.json|double|--formulation index-1 --tol 1e-10 --dt 0.05 --t-end 2"
  "a02_n2.128|a02_n_four_bar_2.json|128|--formulation projected --stepper bulirsch-stoer --tol 1e-20 --dt 0.05 --t-end 2"
  "a02_n40.double|a02_n_four_bar_40.json|double|--method sparse --dt 0.05"
  "a02_n40.128|a02_n_four_bar_40.json|128|--method sparse --dt 0.05 --t-end 0.5"
  "a02_n1000.double|a02_n_four_bar_1000.json|double|--method sparse --dt 0.05 --record-every 4 --t-end 2"
  "a03.double|a03_andrews_squeezer.json|double|--tol 1e-12 --dt 0.0005"
  "a03.128|a03_andrews_squeezer.json|128|--stepper bulirsch-stoer --tol 1e-26 --dt 0.0005"
  "a03.double-index-3|a03_andrews_squeezer.json|double|--formulation index-3 --step 5e-6 --dt 0.0005"
  "a04.double|a04_bricard.json|double|--tol 1e-12 --dt 0.1"
  "a04.double-index-3|a04_bricard.json|double|--formulation index-3 --dt 0.1"
  "a04.float128|a04_bricard.json|float128|--stepper bulirsch-stoer --tol 1e-20 --dt 0.1 --t-end 1"
  "a05.double|a05_flyball_governor.json|double|--tol 1e-10 --dt 0.1"
  "a05.float128|a05_flyball_governor.json|float128|--stepper radau-iia --tol 1e-20 --dt 0.1 --t-end 0.5"
  "change_point.double|../examples/change_point_four_bar.json|double|--dt 0.05"
  "change_point.double-projected|../examples/change_point_four_bar.json|double|--formulation projected --tol 1e-10 --dt 0.05"
)
# One run: OUT/<name>.{csv,json,ms} and a line of the table in OUT/<name>.line.
run_one() {
  local name=$1 file=$2 precision=$3 opts=$4 base="$out/$1" start status=0
  start=$(date +%s%N)
  rm -f "$base.csv" "$base.json" "$base.error" "$base.line" "$base.failed"
  # shellcheck disable=SC2086  # the options are words
  "$femc" simulate "$bench/$file" --precision "$precision" $opts -o "$base.csv" >"$base.json" 2>"$base.error" \
    || status=$?
  # 0: completed; 3: stopped with a reason (in the JSON); 5: completed with
  # a warning (in the JSON); 2: refused with one line (e.g. an overflow at
  # double), which the report states; else a bug.
  if [ "$status" -eq 2 ]; then
    printf '%-20s refused: %s\n' "$name" "$(cat "$base.error")" >"$base.line"
    rm -f "$base.csv" "$base.json"
    return 0
  fi
  [ -s "$base.error" ] || rm -f "$base.error"
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ] && [ "$status" -ne 5 ]; then
    echo "femc simulate $file failed ($status)" >&2
    echo "$status" >"$base.failed"
    return 0
  fi
  echo $(( ($(date +%s%N) - start) / 1000000 )) >"$base.ms"
  field() { sed -n "s/^  \"$1\": \(.*\),\$/\1/p" "$base.json"; }
  printf '%-20s %-9s %-10s %-10s %-12.3e %.3e\n' "$name" "$(field completed)" "$(field steps)" "$(cat "$base.ms")" \
    "$(field max_abs_balance)" "$(field max_position_violation)" >"$base.line"
}
for r in "${runs[@]}"; do
  IFS='|' read -r name file precision opts <<<"$r"
  run_one "$name" "$file" "$precision" "$opts" &
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done  # at most two at a time
done
wait
if compgen -G "$out/*.failed" >/dev/null; then rm -f "$out"/*.failed; exit 1; fi
printf '%-20s %-9s %-10s %-10s %-12s %s\n' run completed steps ms max_balance max_violation
for r in "${runs[@]}"; do cat "$out/${r%%|*}.line"; rm -f "$out/${r%%|*}.line"; done
/usr/bin/python3 "$bench/plot_mechanisms.py" "$out"
