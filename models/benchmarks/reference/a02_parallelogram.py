#!/usr/bin/env python3
"""An independent check of A02 (models/benchmarks/README.md): on the
parallelogram branch every crank keeps crank 0's angle theta and every
coupler translates, level, with the cranks' tips, so the N-four-bar is a
system of one degree of freedom. With links of length L = 1 and mass m = 1:

  kinetic   T = (1/2) I theta'^2,  I = (N + 1)/3 + N
            (cranks turning about their ends, m L^2/3 each; couplers moving
            with the tips' speed L |theta'|, without turning),
  potential V = g c sin(theta),    c = (N + 1)/2 + N
            (cranks' centres at height sin(theta)/2, couplers' at sin(theta)),

so theta'' = -k cos(theta), k = g c / I, from theta = pi/2, theta' = -1 (B0
at 1 m/s in +x). With psi = theta + pi/2 this is the pendulum
psi'' = -k sin(psi) turning over the top, energy E = psi'^2/2 - k cos(psi)
= 1/2 + k, and with phi = psi/2

  phi'^2 = Omega^2 (1 - m sin^2 phi),  Omega^2 = (E + k)/2,  m = 4k/(2E + 2k) < 1,

so phi(t) = am(K(m) - Omega t | m). With u = K(m) - Omega t and sn, cn, dn
of (u | m):

  B0 = (cos theta, sin theta) = (2 sn cn, 2 sn^2 - 1),  theta' = -2 Omega dn.

The script evaluates this closed form with mpmath at 50 digits and writes
a02_n_four_bar_40_exact.csv: B0 (the benchmark's reference point), its
velocity and the energy every 0.1 s over the benchmark's 20 s, to 30
digits. Given femc's runs of a02_n_four_bar_40.json (femc simulate's CSV,
e.g. reports/mechanisms/a02_n40.128.csv, or make_references.py's
a02_n_four_bar_40_femc128.csv), it prints their largest difference from it
at their records. It shares no code or method with femc. --taylor also
integrates theta'' = -k cos(theta) with mpmath's Taylor-series solver
(mp.odefun) at 40 digits and compares, a check of the closed form (about 6
minutes).

Usage: a02_parallelogram.py [--taylor] [FEMC_CSV ...]   (without --taylor: seconds)
"""
import os
import sys

from mpmath import mp, mpf

import reference_table

HERE = os.path.dirname(os.path.abspath(__file__))
N = 40


def constants(n):
    """g, I, c, k of the one-degree-of-freedom branch (above)."""
    g, inertia, c = mpf("9.81"), mpf(n + 1) / 3 + n, mpf(n + 1) / 2 + n
    return g, inertia, c, g * c / inertia


def with_energy(n, th_cos, th_sin, w):
    g, inertia, c, _ = constants(n)
    return [th_cos, th_sin, -th_sin * w, th_cos * w, inertia * w * w / 2 + g * c * th_sin]


def closed_form(n, times):
    """(x_B0, y_B0, vx_B0, vy_B0, energy) at each time, by Jacobi's elliptic functions."""
    _, _, _, k = constants(n)
    energy = mpf(1) / 2 + k
    m = 4 * k / (2 * energy + 2 * k)
    omega = mp.sqrt((energy + k) / 2)
    quarter = mp.ellipk(m)
    out = []
    for t in times:
        u = quarter - omega * t
        sn, cn, dn = (mp.ellipfun(f, u, m=m) for f in ("sn", "cn", "dn"))
        out.append(with_energy(n, 2 * sn * cn, 2 * sn * sn - 1, -2 * omega * dn))
    return out


def taylor(n, times):
    """The same by mp.odefun on theta'' = -k cos(theta)."""
    _, _, _, k = constants(n)
    theta = mp.odefun(lambda t, y: [y[1], -k * mp.cos(y[0])], 0, [mp.pi / 2, mpf(-1)])
    return [with_energy(n, mp.cos(th), mp.sin(th), w) for th, w in (theta(t) for t in times)]


def femc_b0(row):
    """B0, its velocity and the energy of a row of femc's CSV: make_references.py's
    columns, or femc simulate's (crank0's centre and angle; B0 is (0.5, 0) in its frame)."""
    if "x_B0" in row:
        return [mpf(row[c]) for c in ("x_B0", "y_B0", "vx_B0", "vy_B0", "energy")]
    th, w = mpf(row["θ_crank0"]), mpf(row["dθ_crank0"])
    half = mpf("0.5")
    return [mpf(row["x_crank0"]) + half * mp.cos(th), mpf(row["y_crank0"]) + half * mp.sin(th),
            mpf(row["dx_crank0"]) - half * w * mp.sin(th), mpf(row["dy_crank0"]) + half * w * mp.cos(th),
            mpf(row["energy"])]


NAMES = ["x_B0", "y_B0", "vx_B0", "vy_B0", "energy"]


def main():
    mp.dps = 50
    times = [mpf(k) / 10 for k in range(201)]
    exact = closed_form(N, times)
    # Zero to the 50 digits worked at is printed 0.
    reference_table.write(os.path.join(HERE, "a02_n_four_bar_%d_exact.csv" % N), NAMES,
                          zip(map(reference_table.time_text, times), exact), 30, zero_below=mpf(10) ** -45)
    if "--taylor" in sys.argv[1:]:
        with mp.workdps(40):
            series = taylor(N, times)
        gap = max(abs(a - b) for p, q in zip(exact, series) for a, b in zip(p, q))
        print("closed form against the Taylor solver at 40 digits: largest difference %s" % mp.nstr(gap, 3))
    for run in (a for a in sys.argv[1:] if a != "--taylor"):
        rows = reference_table.read(run)
        print("%s: %d records to t = %s" % (run, len(rows), mp.nstr(mpf(rows[-1]["t"]), 6)))
        ref = closed_form(N, [mpf(r["t"]) for r in rows])
        for j, name in enumerate(NAMES):
            d, t = max((abs(femc_b0(r)[j] - e[j]), mpf(r["t"])) for r, e in zip(rows, ref))
            print("  %-6s: largest difference from the closed form %s (t = %s)" % (name, mp.nstr(d, 3), mp.nstr(t, 4)))
        if "crank_spread" in rows[0]:
            print("  largest spread of the cranks' angles from crank 0's: %s"
                  % mp.nstr(max(mpf(r["crank_spread"]) for r in rows), 3))


if __name__ == "__main__":
    main()
