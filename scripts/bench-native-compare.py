#!/usr/bin/env python3
"""Default against -march=native builds of femc_bench (scripts/bench-native.sh).

    bench-native-compare.py DEFAULT1.json NATIVE1.json [DEFAULT2.json NATIVE2.json ...]

Prints, per benchmark, both times of the first pair and default ÷ native of
every pair (> 1: native is faster), then the issue's target ratios (anchor
÷ cod, dense cod ÷ sparse) of each build in each pair.
"""
import json
import sys

UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def load(path):
    with open(path) as f:
        data = json.load(f)
    return {b["name"]: b["cpu_time"] * UNIT[b.get("time_unit", "ns")] for b in data["benchmarks"]
            if b.get("run_type", "iteration") == "iteration" and not b.get("error_occurred")}


def main():
    files = sys.argv[1:]
    if not files or len(files) % 2:
        sys.exit(__doc__)
    pairs = [(load(files[i]), load(files[i + 1])) for i in range(0, len(files), 2)]
    print("| benchmark | default | native | default ÷ native, each pair |")
    print("|---|---|---|---|")
    for name in sorted(pairs[0][0]):
        ratios = [d[name] / n[name] for d, n in pairs if name in d and name in n]
        if ratios:
            print(f"| `{name}` | {pairs[0][0][name] * 1e3:.3f} ms | {pairs[0][1][name] * 1e3:.3f} ms | "
                  + ", ".join(f"{x:.2f}" for x in ratios) + " |")
    print()
    targets = []
    for shape, anchor in (("200x80", "dgelsd"), ("1000x400", "dgelsy")):
        for rank in ("full", "deficient"):
            targets.append((f"{anchor} ÷ cod, {rank} {shape}", f"lapacke/double/{anchor}/{rank}/{shape}",
                            f"femc/double/cod/{rank}/{shape}"))
    for family in ("chain", "a02"):
        targets.append((f"dense cod ÷ sparse, {family} N = 40", f"sparse_scaling/{family}/double/cod/40",
                        f"sparse_scaling/{family}/double/sparse/40"))
    print("| ratio | default, each pair | native, each pair |")
    print("|---|---|---|")
    for label, num, den in targets:
        cols = []
        for k in (0, 1):
            xs = [p[k][num] / p[k][den] for p in pairs if num in p[k] and den in p[k]]
            cols.append(", ".join(f"{x:.2f}" for x in xs) or "—")
        print(f"| {label} | {cols[0]} | {cols[1]} |")


if __name__ == "__main__":
    main()
