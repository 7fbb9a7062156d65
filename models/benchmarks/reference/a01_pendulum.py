#!/usr/bin/env python3
"""A01's exact solution (models/benchmarks/README.md): a point mass on a
massless link of length L = 1, released at rest from the horizontal
(P1 = (1, 0)) under gravity g = 9.81 in -y. With alpha the angle from the
downward vertical (P1 = (sin alpha, -cos alpha)), alpha'' = -g sin alpha
from alpha = pi/2 at rest, whose solution is

  sin(alpha/2) = k sn(u | m),  u = K(m) - omega t,  k = sin(pi/4),  m = k^2 = 1/2,
  omega = sqrt(g),

so, with sn, cn, dn of (u | m) (cos(alpha/2) = dn):

  x = 2 k sn dn,              y = 2 m sn^2 - 1,
  x' = -2 k omega cn (dn^2 - m sn^2),  y' = -4 m omega sn cn dn.

The script evaluates this with mpmath at 50 digits and writes
a01_simple_pendulum_exact.csv: P1 and its velocity every 10 s over the
benchmark's 2000 s, printed to 30 digits. Given femc's output CSVs (e.g.
reports/mechanisms/a01.128.csv), it prints their largest difference from
the exact P1 at their records. It shares no code or method with femc.

Usage: a01_pendulum.py [FEMC_CSV ...]
"""
import os
import sys

from mpmath import mp, mpf

import reference_table

HERE = os.path.dirname(os.path.abspath(__file__))


def exact(t):
    """(x, y, x', y') of P1 at time t."""
    m, omega = mpf(1) / 2, mp.sqrt(mpf("9.81"))
    k = mp.sqrt(m)
    u = mp.ellipk(m) - omega * t
    sn, cn, dn = (mp.ellipfun(f, u, m=m) for f in ("sn", "cn", "dn"))
    return [2 * k * sn * dn, 2 * m * sn * sn - 1, -2 * k * omega * cn * (dn * dn - m * sn * sn),
            -4 * m * omega * sn * cn * dn]


def main():
    mp.dps = 50
    # Zero to the 50 digits worked at (the velocity at t = 0) is printed 0.
    reference_table.write(os.path.join(HERE, "a01_simple_pendulum_exact.csv"), ["x_P1", "y_P1", "vx_P1", "vy_P1"],
                          (("%d" % t, exact(mpf(t))) for t in range(0, 2001, 10)), 30, zero_below=mpf(10) ** -45)
    for run in sys.argv[1:]:
        rows = reference_table.read(run)
        worst = max(abs(mpf(r[c]) - e) for r in rows
                    for c, e in zip(("x_P1", "y_P1", "dx_P1", "dy_P1"), exact(mpf(r["t"]))))
        print("%s: %d records to t = %s, largest difference from the exact P1 and its velocity %s"
              % (run, len(rows), mp.nstr(mpf(rows[-1]["t"]), 6), mp.nstr(worst, 3)))


if __name__ == "__main__":
    main()
