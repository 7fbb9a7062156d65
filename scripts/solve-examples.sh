#!/usr/bin/env bash
# Solves every bundled example system with every method at every precision
# and writes the results to OUT/<example>.<precision>.<method>.json, with a
# summary table on stdout. Usage: solve-examples.sh FEMC EXAMPLES_DIR OUT_DIR
set -euo pipefail
femc=$1 examples=$2 out=$3
# The methods that run at a precision, as femc describes them (femc describe
# --json: each method's "precisions", from the one lists methods/list.hpp and
# scalar/precisions.hpp; MPFR, named by its bits, is "BITS" there).
described=$("$femc" describe --json)
methods_at() {
  printf '%s' "$described" | /usr/bin/python3 -c '
import json, sys
p = "BITS" if sys.argv[1].isdigit() else sys.argv[1]
print(" ".join(m["name"] for m in json.load(sys.stdin)["methods"] if p in m["precisions"]))' "$1"
}
# The precisions, as femc describes them: the exact ones first, then every
# fixed floating type, then MPFR at these bit counts (its entry is BITS):
# float128's 113, to set beside it, and 256, the reference.
mpfr_bits="113 256"
precisions=$(printf '%s' "$described" | /usr/bin/python3 -c '
import json, sys
p = json.load(sys.stdin)["precisions"]
fixed = [x for x in p if x["name"] != "BITS"]
names = [x["name"] for x in fixed if x["arithmetic"] == "exact"] + [x["name"] for x in fixed if x["arithmetic"] != "exact"]
if any(x["name"] == "BITS" for x in p):
    names += sys.argv[1].split()
print(" ".join(names))' "$mpfr_bits")
[ -n "$precisions" ] || { echo "solve-examples: no precision read from femc describe --json" >&2; exit 2; }
mkdir -p "$out"
printf '%s\n' $precisions > "$out/precisions.txt"
declare -A methods_for
for precision in $precisions; do
  methods_for[$precision]=$(methods_at "$precision")
  [ -n "${methods_for[$precision]}" ] || { echo "solve-examples: no method runs at $precision (femc describe --json)" >&2; exit 2; }
done
printf '%-24s %-12s %-10s %s\n' system precision method "qdd[0]"
for sys in "$examples"/*.json; do
  name=$(basename "$sys" .json)
  for precision in $precisions; do
    for method in ${methods_for[$precision]}; do
      file="$out/$name.$precision.$method.json"
      if "$femc" solve "$sys" --precision "$precision" --method "$method" -o "$file" 2>"$out/.err"; then
        q=$(sed -n '/"qdd"/,/]/p' "$file" | sed -n 2p | tr -d ' ",')
        printf '%-24s %-12s %-10s %s\n' "$name" "$precision" "$method" "$q"
      else
        printf '%-24s %-12s %-10s %s\n' "$name" "$precision" "$method" "refused: $(cat "$out/.err")"
      fi
    done
  done
done
rm -f "$out/.err"
