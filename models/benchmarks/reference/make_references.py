#!/usr/bin/env python3
"""Writes the reference solutions of models/benchmarks/reference/ with femc
itself: each benchmark integrated at 128 bits by Bulirsch-Stoer extrapolation
at tolerance 1e-30 (femc simulate --stepper bulirsch-stoer), the benchmark's
own quantities taken from the body coordinates, printed to 32 digits.

Run: python3 models/benchmarks/reference/make_references.py build/release/cli/femc
(a few minutes; models/benchmarks/README.md says how the digits were checked).
"""
import csv
import io
import os
import subprocess
import sys

from mpmath import mp, mpf

mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)


def simulate(femc, model, dt, precision="128", tol="1e-30"):
    out = subprocess.run([femc, "simulate", os.path.join(BENCH, model), "--precision", precision,
                          "--stepper", "bulirsch-stoer", "--tol", tol, "--dt", dt],
                         check=True, capture_output=True, text=True).stdout
    table = out[:out.index("\n{")] if "\n{" in out else out
    return list(csv.DictReader(io.StringIO(table)))


def andrews_angles(row, d=""):
    """beta, Theta, gamma, Phi, delta, Omega, epsilon (Hairer & Wanner) from body angles."""
    th = [mpf(row[d + "θ_body%d" % k]) for k in range(1, 8)]
    return [th[0], th[1] - th[0], th[2], th[3] - th[4], th[4], th[5] - th[6], th[6]]


ANDREWS_NAMES = ["beta", "Theta", "gamma", "Phi", "delta", "Omega", "epsilon"]


def a03(femc):
    rows = simulate(femc, "a03_andrews_squeezer.json", "0.001")
    path = os.path.join(HERE, "a03_andrews_squeezer_femc128.csv")
    with open(path, "w") as f:
        f.write("t," + ",".join(ANDREWS_NAMES) + "," + ",".join("d" + n for n in ANDREWS_NAMES) + "\n")
        for r in rows:
            values = andrews_angles(r) + andrews_angles(r, "d")
            f.write(mp.nstr(mpf(r["t"]), 6) + "," + ",".join(mp.nstr(v, 32) for v in values) + "\n")
    print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_references.py PATH/TO/femc")
    a03(sys.argv[1])
