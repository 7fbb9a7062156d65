#!/usr/bin/env python3
"""Writes the reference solutions of models/benchmarks/reference/ with femc
itself: each benchmark integrated near the unit roundoff by Bulirsch-Stoer
extrapolation (femc simulate --stepper bulirsch-stoer), or by Radau IIA for
the stiff A05 (--stepper radau-iia), the benchmark's own quantities taken
from the body coordinates:
  A03 at 128 bits, tolerance 1e-30, printed to 32 digits;
  A04 at float128 (u = 9.6e-35), tolerance 1e-24, printed to 30 digits (MPFR
  at 128 bits costs 3.5 times as much per evaluation; A04's 10 s take 13
  minutes at float128);
  A05 at float128, Radau IIA with 7 stages at tolerance 1e-20, printed to 25
  digits (its 10 s take about half an hour; an explicit method would take
  hours, held by the struts' stiffness).

Run: python3 models/benchmarks/reference/make_references.py build/release/cli/femc [a03 a04 a05]
(models/benchmarks/README.md says how the digits were checked).
"""
import os
import subprocess
import sys

from mpmath import mp, mpf

import reference_table

mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)


def simulate(femc, model, dt, precision="128", tol="1e-30", t_end=None, stepper="bulirsch-stoer"):
    extra = ["--t-end", t_end] if t_end else []
    out = subprocess.run([femc, "simulate", os.path.join(BENCH, model), "--precision", precision,
                          "--stepper", stepper, "--tol", tol, "--dt", dt] + extra,
                         check=True, capture_output=True, text=True).stdout
    table = out[:out.index("\n{")] if "\n{" in out else out
    return reference_table.parse(table)


def andrews_angles(row, d=""):
    """beta, Theta, gamma, Phi, delta, Omega, epsilon (Hairer & Wanner) from body angles."""
    th = [mpf(row[d + "θ_body%d" % k]) for k in range(1, 8)]
    return [th[0], th[1] - th[0], th[2], th[3] - th[4], th[4], th[5] - th[6], th[6]]


ANDREWS_NAMES = ["beta", "Theta", "gamma", "Phi", "delta", "Omega", "epsilon"]


def a03(femc):
    rows = simulate(femc, "a03_andrews_squeezer.json", "0.001")
    reference_table.write(os.path.join(HERE, "a03_andrews_squeezer_femc128.csv"),
                          ANDREWS_NAMES + ["d" + n for n in ANDREWS_NAMES],
                          ((reference_table.time_text(r["t"]), andrews_angles(r) + andrews_angles(r, "d")) for r in rows),
                          32)


def rotate(p, v):
    """R(p) v for Euler parameters p = (p0, p1, p2, p3) (lib/include/femc/models/spatial.hpp)."""
    p0, e = p[0], p[1:]
    ev = sum(a * b for a, b in zip(e, v))
    cross = (e[1] * v[2] - e[2] * v[1], e[2] * v[0] - e[0] * v[2], e[0] * v[1] - e[1] * v[0])
    return [(p0 * p0 - sum(a * a for a in e)) * v[k] + 2 * ev * e[k] + 2 * p0 * cross[k] for k in range(3)]


def a04(femc):
    """P3 (the joint C, (0, -0.5, 0) in rod2's frame) and the energy, every 0.1 s over 10 s."""
    rows = simulate(femc, "a04_bricard.json", "0.1", precision="float128", tol="1e-24")

    def p3_and_energy(r):
        centre = [mpf(r[c + "_rod2"]) for c in "xyz"]
        p = [mpf(r["p%d_rod2" % k]) for k in range(4)]
        return [a + b for a, b in zip(centre, rotate(p, [0, mpf("-0.5"), 0]))] + [mpf(r["energy"])]
    reference_table.write(os.path.join(HERE, "a04_bricard_float128.csv"), ["x_P3", "y_P3", "z_P3", "energy"],
                          ((reference_table.time_text(r["t"]), p3_and_energy(r)) for r in rows), 30)


def a05(femc):
    """The slider's height s and the energy every 0.1 s over the benchmark's 10 s."""
    rows = simulate(femc, "a05_flyball_governor.json", "0.1", precision="float128", tol="1e-20",
                    stepper="radau-iia")
    reference_table.write(os.path.join(HERE, "a05_flyball_governor_float128.csv"), ["s", "energy"],
                          ((reference_table.time_text(r["t"]), [mpf(r[c]) for c in ("z_slider", "energy")])
                           for r in rows), 25)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: make_references.py PATH/TO/femc [a03 a04 a05]")
    for name in sys.argv[2:] or ["a03", "a04", "a05"]:
        {"a03": a03, "a04": a04, "a05": a05}[name](sys.argv[1])
