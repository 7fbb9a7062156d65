#!/usr/bin/env bash
# Builds the libFuzzer target with clang (AddressSanitizer + UBSan) and runs
# it on the seed corpus for a given time.
#   fuzz/build-and-run.sh OUT_DIR SECONDS [extra libFuzzer flags]
# OUT_DIR keeps the binary (rebuilt when a source is newer) and the corpus
# the run grows; the seed corpus in fuzz/corpus is never modified. A crash
# writes OUT_DIR/crash-* and exits non-zero.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
out=$1 seconds=$2
shift 2
mkdir -p "$out/corpus"
bin="$out/fuzz_solve"
sources=("$here/fuzz_solve.cpp" "$here/instantiate_double.cpp" "$root/lib/src/options.cpp" "$root/lib/src/data_precision.cpp"
         "$root/lib/src/scalar/number_text.cpp" "$root/lib/src/scalar/builtin.cpp" "$root/lib/src/io/json_system.cpp")
rebuild=0
[ -x "$bin" ] || rebuild=1
for s in "${sources[@]}" "$root"/lib/include/femc/*.hpp "$root"/lib/include/femc/*.hxx "$root"/lib/include/femc/*/*.h*; do
  [ "$s" -nt "$bin" ] && rebuild=1
done
if [ $rebuild = 1 ]; then
  echo "fuzz: building $bin with clang++" >&2
  clang++ -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined \
    -I "$root/lib/include" -I /usr/include/eigen3 "${sources[@]}" -o "$bin" -lmpfr -lgmp
fi
cp -n "$here"/corpus/* "$out/corpus/" 2>/dev/null || true
# UB stops the run (halt_on_error), except Eigen's benign empty-matrix
# reference (tests/ubsan.supp). -rss_limit_mb: the reader's caps keep a
# document far below this.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$root/tests/ubsan.supp"
"$bin" "$out/corpus" -max_total_time="$seconds" -rss_limit_mb=4096 -max_len=65536 \
  -artifact_prefix="$out/" -print_final_stats=1 "$@"
