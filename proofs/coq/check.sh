#!/usr/bin/env bash
# femc -- build the Coq development out of tree and audit its assumptions.
#
# Usage: bash proofs/coq/check.sh        (from any directory; no network)
#
# 1. copies the .v files of this directory to a fresh temporary directory
#    (so no .vo/.glob/.aux files land in the source tree),
# 2. compiles them with coqc in dependency order (logical prefix Femc),
# 3. compiles Assumptions.v, which runs Print Assumptions on every main
#    theorem, and fails unless every theorem is "Closed under the global
#    context" (no axioms, no Admitted, no section hypotheses left over),
# 4. fails if a Theorem/Corollary of the development is missing from
#    Assumptions.v, or if a source file mentions Admitted/admit/Axiom.
# Exit status 0 iff everything passes.  Set FEMC_COQ_KEEP=1 to keep the
# build directory.

set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCES=(MxRing MoorePenrose Gauss)   # dependency order
COQWARN="-notation-overridden,-ambiguous-paths"

command -v coqc >/dev/null 2>&1 || { echo "check.sh: coqc not found" >&2; exit 2; }
echo "== $(coqc --version | head -n 1)"

BUILD="$(mktemp -d "${TMPDIR:-/tmp}/femc-coq.XXXXXX")"
if [ "${FEMC_COQ_KEEP:-0}" = 1 ]; then
  echo "== build directory kept: $BUILD"
else
  trap 'rm -rf "$BUILD"' EXIT
fi

for f in "${SOURCES[@]}" Assumptions; do
  cp "$HERE/$f.v" "$BUILD/"
done

fail=0

# --- 0. no escape hatches in the sources ---------------------------------
for f in "${SOURCES[@]}"; do
  # strip comments crudely (single-line (* ... *) only) before searching
  if sed -e 's/(\*[^*]*\*)//g' "$HERE/$f.v" \
       | grep -nE '\b(Admitted|admit|Axiom|Axioms|Parameter|Conjecture)\b' >/dev/null; then
    echo "FAIL: $f.v contains Admitted/admit/Axiom/Parameter/Conjecture" >&2
    fail=1
  fi
done

# --- 1. compile ------------------------------------------------------------
cd "$BUILD"
for f in "${SOURCES[@]}"; do
  echo "== coqc $f.v"
  coqc -w "$COQWARN" -Q . Femc "$f.v"
done

# --- 2. every Theorem/Corollary is audited ---------------------------------
declared="$(cat "${SOURCES[@]/%/.v}" \
  | grep -oE '^[[:space:]]*(Theorem|Corollary)[[:space:]]+[A-Za-z0-9_'"'"']+' \
  | awk '{print $2}' | sort -u)"
audited="$(grep -oE '^Print Assumptions [A-Za-z0-9_'"'"']+' Assumptions.v \
  | awk '{print $3}' | sort -u)"
missing="$(comm -23 <(echo "$declared") <(echo "$audited"))"
if [ -n "$missing" ]; then
  echo "FAIL: theorems not audited in Assumptions.v:" >&2
  echo "$missing" | sed 's/^/   /' >&2
  fail=1
fi

# --- 3. Print Assumptions ----------------------------------------------------
echo "== coqc Assumptions.v"
out="$(coqc -w "$COQWARN" -Q . Femc Assumptions.v)"

report="$(printf '%s\n' "$out" | awk '
  /^==> / { if (name != "") verdict(); name = $2; got = ""; next }
  name != "" && NF > 0 { got = (got == "" ? $0 : got " | " $0) }
  function verdict() {
    if (got == "Closed under the global context") { print "ok   " name }
    else { print "FAIL " name ": " got; bad = 1 }
  }
  END { if (name != "") verdict(); exit bad }
')" || fail=1
printf '%s\n' "$report"

n_ok="$(printf '%s\n' "$report" | grep -c '^ok ' || true)"
n_expected="$(echo "$audited" | grep -c . || true)"
if [ "$n_ok" != "$n_expected" ]; then
  echo "FAIL: $n_ok of $n_expected audited theorems are closed" >&2
  fail=1
fi

if [ "$fail" = 0 ]; then
  echo "== PASS: $n_ok theorems, all closed under the global context"
else
  echo "== FAILED" >&2
fi
exit "$fail"
