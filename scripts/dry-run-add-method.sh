#!/usr/bin/env bash
# The claim of docs/solving.md ("Adding a solver"), checked: a method with a
# workspace is added in three files — its .hpp, its .hxx and its line in
# methods/list.hpp — and femc then describes it, dispatches it, keeps its
# workspace in femc::Workspace, property-tests it, studies it, plots it and
# benchmarks it, with no other edit.
#
#   scripts/dry-run-add-method.sh WORK_DIR
#
# Copies the sources (git's tracked and untracked-but-not-ignored files) to
# WORK_DIR/src, commits them there, adds the method `cod_twin` (cod's algebra
# under another name, with a workspace class of its own), shows that the
# change is those three files, builds the release preset (with the bench when
# Google Benchmark is found) and checks every place that must see the method.
# A full build: about 13 minutes on 2 cores, so it is not part of make test;
# ctest runs it under the label dry_run (make dry-run).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$1
src="$work/src"
fail() { echo "dry run: $*" >&2; exit 1; }

rm -rf "$src"
mkdir -p "$src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$src")
git -C "$src" init -q
git -C "$src" -c user.name=dry-run -c user.email=dry-run@femc add -A
git -C "$src" -c user.name=dry-run -c user.email=dry-run@femc commit -qm "sources as copied"

# 1. The method's statement.
cat > "$src/lib/include/femc/methods/cod_twin.hpp" <<'EOF'
#pragma once
// Method `cod_twin`: cod's algebra under another name, with a workspace class
// of its own (scripts/dry-run-add-method.sh adds it to show what adding a
// method takes).
#include "femc/methods/cod.hpp"

namespace femc {

template <class S>
Solution<S> solve_cod_twin(const System<S>& sys, const Options<S>& opt);

template <class S>
class CodTwinWorkspace : public CodWorkspace<S> {};

}  // namespace femc
EOF
# 2. Its body, and what the library instantiates of it beyond solve_cod_twin.
cat > "$src/lib/include/femc/methods/cod_twin.hxx" <<'EOF'
#pragma once
#include "femc/methods/cod.hxx"
#include "femc/methods/cod_twin.hpp"

#define FEMC_INSTANTIATE_cod_twin(S) template class CodTwinWorkspace<S>;

namespace femc {

template <class S>
Solution<S> solve_cod_twin(const System<S>& sys, const Options<S>& opt) {
  return solve_with_fresh<CodTwinWorkspace<S>>(sys, opt);
}

}  // namespace femc
EOF
# 3. Its line in the one list, after cod's.
list="$src/lib/include/femc/methods/list.hpp"
python3 - "$list" <<'EOF'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
anchor = '"General Gauss Principle through Cholesky factors and a complete orthogonal decomposition of P")'
at = text.index(anchor)
end = text.index("\n", at) + 1
line = ('  X(cod_twin, CodTwin, Floating, Workspace, true, 1, 0, "pivoted QR of P = L_W^T A L^{-T}",'
        ' "cod under another name (the dry run)") \\\n')
open(path, "w", encoding="utf-8").write(text[:end] + line + text[end:])
EOF
changed=$(git -C "$src" status --porcelain | wc -l)
git -C "$src" status --porcelain
[ "$changed" = 3 ] || fail "the method took $changed changed files, not 3"

bench=OFF
pkg-config --exists benchmark && bench=ON
cd "$src"
cmake --preset release -DFEMC_BUILD_BENCH=$bench >/dev/null
targets=(femc_cli props test_workspace)
[ $bench = ON ] && targets+=(femc_bench)
cmake --build --preset release -j "${JOBS:-2}" --target "${targets[@]}"
b="$src/build/release"

# femc describe: the scripts' source of the methods (bench-report.py,
# report-index.py, solve-examples.sh).
"$b/cli/femc" describe --json | python3 -c '
import json, sys
m = {x["name"]: x for x in json.load(sys.stdin)["methods"]}
assert "cod_twin" in m and m["cod_twin"]["workspace"], "femc describe does not list cod_twin with a workspace"'
# femc solve dispatches it, and agrees with cod.
for m in cod cod_twin; do
  "$b/cli/femc" solve "$src/examples/weighted_inconsistent.json" --method $m > "$work/$m.json"
done
python3 - "$work/cod.json" "$work/cod_twin.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for key in ("qdd", "QN", "QW", "lambda"):
    assert a[key] == b[key], f"cod_twin's {key} differs from cod's"
EOF
# The workspace: Workspace<S> has the member, solve() with a workspace runs it
# and gives solve()'s result bit for bit.
"$b/tests/test_workspace" --gtest_filter='Workspace.U1_G2_MatchesSolveBitForBit_double' | tee "$work/workspace.log"
grep -q "^methods with a workspace:.* cod_twin" "$work/workspace.log" || fail "test_workspace did not run cod_twin"
grep -q "PASSED.* 1 test" "$work/workspace.log" || fail "test_workspace failed"
# The properties: every claim that applies, at double (a few cases each).
RC_PARAMS="seed=20261121 max_success=10" "$b/property_tests/props" --gtest_filter='*.cod_twin.double' | tee "$work/props.log"
grep -q "PASSED.* [1-9][0-9]* tests" "$work/props.log" || fail "no property ran on cod_twin"
# The studies and their plots.
"$b/cli/femc" study conditioning --out "$work/reports" >/dev/null
grep -q ",cod_twin," "$work/reports/conditioning/conditioning.csv" || fail "the conditioning study has no cod_twin row"
/usr/bin/python3 studies/plots/plot_studies.py "$work/reports" conditioning
# The bench: its solve rows, its workspace row and its operation count.
if [ $bench = ON ]; then
  "$b/bench/femc_bench" --benchmark_list_tests > "$work/bench.list"
  for row in femc/double/cod_twin/ femc/double/cod_twin+ws/ femc/mpfr-256/cod_twin/ opcount/cod_twin/; do
    grep -q "^$row" "$work/bench.list" || fail "the bench has no $row rows"
  done
else
  echo "dry run: Google Benchmark not found, the bench not checked"
fi
echo "dry run: cod_twin, added in 3 files, is described, solved, kept in a workspace, property-tested, studied, plotted and benchmarked"
