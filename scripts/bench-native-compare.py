#!/usr/bin/env python3
"""Default against -march=native builds of femc_bench (scripts/bench-native.sh).

    bench-native-compare.py DEFAULT1.json NATIVE1.json [DEFAULT2.json NATIVE2.json ...]

Prints, per benchmark, both times of the first pair and default ÷ native of
every pair (> 1: native is faster), then, for each build in each pair, the
ratios of the timed targets and of dense cod ÷ sparse at N = 40, as the
performance report computes them (bench-report.py: ratio_targets,
scaling_targets, matched across runs by label).
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


def scaling(r):
    return [(label, x, report.SCALING_SPEEDUP_TARGET, "at_least") for label, x in report.scaling_targets(r)]


def main():
    files = sys.argv[1:]
    if not files or len(files) % 2:
        sys.exit(__doc__)
    pairs = [(load(files[i]), load(files[i + 1])) for i in range(0, len(files), 2)]
    print("| benchmark | default | native | default ÷ native, each pair |")
    print("|---|---|---|---|")
    first_default, first_native = pairs[0][0].times, pairs[0][1].times
    for name in sorted(first_default):
        each = [d.times[name] / n.times[name] for d, n in pairs if name in d.times and name in n.times]
        if each:
            print(f"| `{name}` | {report.fmt_time(first_default[name])} | "
                  f"{report.fmt_time(first_native.get(name))} | " + ", ".join(f"{x:.2f}" for x in each) + " |")
    print()
    print("| target (ratio) | default, each pair | native, each pair |")
    print("|---|---|---|")
    builds = [report.targets_across([p[k] for p in pairs], scaling) for k in (0, 1)]
    for label in builds[0][0]:
        cols = [", ".join(report.fmt_ratio(run.get(label)) for run in per_run) for _, per_run in builds]
        print(f"| {label} | {cols[0]} | {cols[1]} |")


if __name__ == "__main__":
    main()
