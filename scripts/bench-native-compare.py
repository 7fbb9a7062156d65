#!/usr/bin/env python3
"""Default against -march=native builds of femc_bench (scripts/bench-native.sh).

    bench-native-compare.py DEFAULT1.json NATIVE1.json [DEFAULT2.json NATIVE2.json ...]

Prints, per benchmark, both times of the first pair and default ÷ native of
every pair (> 1: native is faster), then, for each build in each pair, the
ratios of the timed targets (bench-report.py's ratio_targets, the one list
the performance report reads) and dense cod ÷ sparse at N = 40.
"""
import importlib.util
import json
import os
import sys


def bench_report():
    """scripts/bench-report.py as a module (its name has a hyphen)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-report.py")
    spec = importlib.util.spec_from_file_location("bench_report", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


report = bench_report()


def load(path):
    with open(path) as f:
        return report.Results(json.load(f))


def times(r):
    """Seconds of CPU per iteration, by benchmark name."""
    return {b["name"]: b["t"] for runs in (r.femc, r.anchor, r.opcost_run, r.scaling, r.dense_kernels, r.kernels)
            for b in runs.values()}


def ratios(r):
    """(label, ratio, goal, kind): the timed targets, then dense cod ÷ sparse at N = 40."""
    out = [(label, measured, goal, kind) for label, _, measured, goal, kind in report.ratio_targets(r)]
    for family in report.SCALING_FAMILIES:
        sp, cod = r.scaling.get((family, "double", "sparse", 40)), r.scaling.get((family, "double", "cod", 40))
        out.append((f"dense cod ≥ {report.SCALING_SPEEDUP_TARGET:g}× slower than sparse, {family} N = 40 in double",
                    report.ratio(cod and cod["t"], sp and sp["t"]),
                    report.SCALING_SPEEDUP_TARGET, "at_least"))
    return out


def main():
    files = sys.argv[1:]
    if not files or len(files) % 2:
        sys.exit(__doc__)
    pairs = [(load(files[i]), load(files[i + 1])) for i in range(0, len(files), 2)]
    timed = [(times(d), times(n)) for d, n in pairs]
    print("| benchmark | default | native | default ÷ native, each pair |")
    print("|---|---|---|---|")
    for name in sorted(timed[0][0]):
        each = [d[name] / n[name] for d, n in timed if name in d and name in n]
        if each:
            print(f"| `{name}` | {report.fmt_time(timed[0][0][name])} | {report.fmt_time(timed[0][1].get(name))} | "
                  + ", ".join(f"{x:.2f}" for x in each) + " |")
    print()
    print("| target (ratio) | default, each pair | native, each pair |")
    print("|---|---|---|")
    per_build = [[ratios(p[k]) for p in pairs] for k in (0, 1)]
    for i, (label, _, goal, kind) in enumerate(per_build[0][0]):
        cols = [", ".join(report.fmt_ratio(rows[i][1]) for rows in runs if rows[i][1] is not None) or "—"
                for runs in per_build]
        print(f"| {label} | {cols[0]} | {cols[1]} |")


if __name__ == "__main__":
    main()
