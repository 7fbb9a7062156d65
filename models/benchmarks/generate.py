#!/usr/bin/env python3
"""Writes the benchmark model files of this directory from their published
definitions (models/benchmarks/README.md says where each number comes from).

Published data (masses, lengths, inertias, forces) are copied as the decimal
strings of the source. Only the initial positions of the bodies' centres of
mass are computed: from the published initial angles, by the forward
kinematics written below, at 60 digits (mpmath), and printed to 40, so that
femc reads them at any working precision up to ~130 bits without the file
being the limit (femc then closes the joints at the working precision).

Run: python3 models/benchmarks/generate.py   (rewrites the JSON files)
"""
import json
import os
import sys

from mpmath import mp, mpf, cos, sin

mp.dps = 60
HERE = os.path.dirname(os.path.abspath(__file__))


def text(x, digits=40):
    """A decimal string of x to `digits` significant digits."""
    s = mp.nstr(mpf(x), digits, min_fixed=-5, max_fixed=5, strip_zeros=True)
    return "0" if s in ("0.0", "-0.0") else s


def rot(angle, local):
    """The ground-frame vector of a body-frame offset, for a body at `angle`."""
    c, s = cos(angle), sin(angle)
    return (c * local[0] - s * local[1], s * local[0] + c * local[1])


def add(*vs):
    return (sum(v[0] for v in vs), sum(v[1] for v in vs))


def neg(v):
    return (-v[0], -v[1])


def write(name, model):
    path = os.path.join(HERE, name)
    # One line per key, per body, joint and force, per source.
    lines = ["{"]
    items = list(model.items())
    for i, (k, v) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if k in ("sources", "bodies", "joints", "forces"):
            lines.append("  %s: [" % json.dumps(k))
            for j, x in enumerate(v):
                lines.append("    " + json.dumps(x, ensure_ascii=False) + ("," if j + 1 < len(v) else ""))
            lines.append("  ]" + comma)
        else:
            lines.append("  %s: %s%s" % (json.dumps(k), json.dumps(v, ensure_ascii=False), comma))
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", os.path.relpath(path))


def andrews_squeezer():
    """A03: Andrews' squeezing mechanism, the seven bodies of Hairer & Wanner
    (Solving ODEs II, sec. VII.7) and of the IVP test set (Mazzia & Magherini,
    problem 'andrews'), in body coordinates.

    The relative-angle coordinates of the source become body angles so that
    each body's angle is one of the source's absolute angles:
      body  angle   pivot            the source's angles
      1     beta    O (ground)       beta
      2     beta+Theta  F on body 1  Theta = angle2 - angle1
      3     gamma   B (ground)       gamma
      4     Phi+delta   G on body 5  Phi = angle4 - angle5
      5     delta   A (ground)       delta
      6     Omega+eps   H on body 7  Omega = angle6 - angle7
      7     eps     A (ground)       eps
    Every joint point and centre of mass below is read off the source's
    constraints g and mass matrix (the derivation is in README.md).
    """
    P = {k: mpf(v) for k, v in PARAMS.items()}
    beta, theta, gamma, phi, delta, omega, eps = (mpf(a) for a in ANDREWS_ANGLES)
    O = (mpf(0), mpf(0))
    A = (P["xa"], P["ya"])
    B = (P["xb"], P["yb"])
    a1, a2, a3, a4, a5, a6, a7 = beta, beta + theta, gamma, phi + delta, delta, omega + eps, eps
    # Body-frame points, each relative to the body's centre of mass.
    ra, rr, da, d = P["ra"], P["rr"], P["da"], P["d"]
    sa, sb, sc, sd, ss = P["sa"], P["sb"], P["sc"], P["sd"], P["ss"]
    e, ea, zt, ta, tb = P["e"], P["ea"], P["zt"], P["ta"], P["tb"]
    zf, fa, u, ua, ub = P["zf"], P["fa"], P["u"], P["ua"], P["ub"]
    com = {
        1: add(O, rot(a1, (ra, 0))),
        2: add(O, rot(a1, (rr, 0)), rot(a2, (-da, 0))),
        3: add(B, rot(a3, (sa, -sb))),
        5: add(A, rot(a5, (ta, tb))),
        4: add(A, rot(a5, (zt, 0)), rot(a4, (0, -(e - ea)))),
        7: add(A, rot(a7, (ua, ub))),
        6: add(A, rot(a7, (0, -u)), rot(a6, (zf - fa, 0))),
    }
    angle = {1: a1, 2: a2, 3: a3, 4: a4, 5: a5, 6: a6, 7: a7}

    def pt(*xs):
        return [text(x) for x in xs]

    bodies = []
    for k in range(1, 8):
        bodies.append({"name": "body%d" % k, "mass": PARAMS["m%d" % k], "inertia": PARAMS["i%d" % k],
                       "position": pt(*com[k]), "angle": text(angle[k])})
    s = lambda x: text(x)  # noqa: E731  (lengths derived from two published ones)
    joints = [
        {"name": "O", "type": "revolute", "body1": "ground", "point1": ["0", "0"], "body2": "body1",
         "point2": [s(-ra), "0"]},
        {"name": "F", "type": "revolute", "body1": "body1", "point1": [s(rr - ra), "0"], "body2": "body2",
         "point2": [s(da), "0"]},
        {"name": "E23", "type": "revolute", "body1": "body2", "point1": [s(da - d), "0"], "body2": "body3",
         "point2": [s(-sa), s(sb - ss)]},
        {"name": "B", "type": "revolute", "body1": "ground", "point1": [PARAMS["xb"], PARAMS["yb"]],
         "body2": "body3", "point2": [s(-sa), s(sb)]},
        {"name": "A5", "type": "revolute", "body1": "ground", "point1": [PARAMS["xa"], PARAMS["ya"]],
         "body2": "body5", "point2": [s(-ta), s(-tb)]},
        {"name": "G", "type": "revolute", "body1": "body5", "point1": [s(zt - ta), s(-tb)], "body2": "body4",
         "point2": ["0", s(e - ea)]},
        {"name": "E24", "type": "revolute", "body1": "body2", "point1": [s(da - d), "0"], "body2": "body4",
         "point2": ["0", s(-ea)]},
        {"name": "A7", "type": "revolute", "body1": "ground", "point1": [PARAMS["xa"], PARAMS["ya"]],
         "body2": "body7", "point2": [s(-ua), s(-ub)]},
        {"name": "H", "type": "revolute", "body1": "body7", "point1": [s(-ua), s(-u - ub)], "body2": "body6",
         "point2": [s(-(zf - fa)), "0"]},
        {"name": "E26", "type": "revolute", "body1": "body2", "point1": [s(da - d), "0"], "body2": "body6",
         "point2": [s(fa), "0"]},
    ]
    forces = [
        {"name": "motor", "type": "torque", "body": "body1", "reaction": "ground", "torque": PARAMS["mom"]},
        {"name": "spring", "type": "spring", "body1": "ground", "point1": [PARAMS["xc"], PARAMS["yc"]],
         "body2": "body3", "point2": [s(sd - sa), s(sb - sc)], "stiffness": PARAMS["c0"], "length": PARAMS["l0"]},
    ]
    model = {
        "kind": "planar",
        "name": "A03 Andrews' squeezing mechanism",
        "description": "seven bodies, a driving torque on the crank and a spring, no gravity; "
                       "IFToMM benchmark A03, Hairer & Wanner's and the IVP test set's 'andrews'",
        "sources": [
            "E. Hairer, G. Wanner, Solving Ordinary Differential Equations II, 2nd ed., Springer 1996, sec. VII.7 "
            "(after W. Schiehlen, Multibody Systems Handbook, Springer 1990): every mass, inertia, length, the "
            "torque mom and the spring (c0, l0), as printed; the same values in the IVP test set "
            "(F. Mazzia, C. Magherini, Test Set for Initial Value Problem Solvers, release 2.4, problem andrews)",
            "the initial angles beta, Theta, gamma, Phi, delta, Omega, epsilon (30 digits) from the IVP test set; "
            "the bodies' positions and angles computed from them by models/benchmarks/generate.py at 60 digits",
            "the centres of mass of bodies 3, 5 and 7 are at the published distances (sa, sb), (ta, tb), (ua, ub) "
            "from their ground pivots; the directions of these offsets are chosen here (the source gives only the "
            "mass matrix, in which only the distances enter: with no gravity, a body turning about a fixed pivot "
            "moves the same for any direction of its centre of mass)",
            "reference: the IVP test set's solution at t = 0.03 (PSIDE, tolerance 1e-14), in "
            "models/benchmarks/reference/a03_andrews_ivp_testset.csv",
        ],
        "gravity": ["0", "0"],
        "bodies": bodies,
        "joints": joints,
        "forces": forces,
        "t_end": "0.03",
    }
    write("a03_andrews_squeezer.json", model)


def simple_pendulum():
    """A01: a lumped mass of 1 kg on a massless link of 1 m, from rest with
    the link horizontal (P1 at x = +1 m), gravity 9.81 in -y, 2000 s."""
    model = {
        "kind": "planar",
        "name": "A01 simple pendulum",
        "description": "a lumped mass of 1 kg on a massless link of 1 m, released at rest from the horizontal; "
                       "IFToMM benchmark A01",
        "sources": [
            "IFToMM library of computational benchmark problems, A01 (M. Gonzalez, D. Dopico, U. Lugris, "
            "J. Cuadrado, Multibody System Dynamics 16 (2006) 179-190; lim.ii.udc.es/mbsbenchmark, "
            "A01_specification): mass 1 kg, length 1 m, gravity 9.81 N/kg in -y, at rest with x(P1) = +1 m, "
            "2000 s; reference quantity: x and y of P1",
            "the lumped mass is a body whose centre is P1 and whose link is a distance joint to the origin: its "
            "rotation is a free coordinate nothing couples to, so its inertia (1 kg m^2 here) does not enter the "
            "motion of P1 (models/README.md)",
        ],
        "gravity": ["0", "-9.81"],
        "bodies": [{"name": "P1", "mass": "1", "inertia": "1", "position": ["1", "0"]}],
        "joints": [{"name": "link", "type": "distance", "body1": "ground", "point1": ["0", "0"], "body2": "P1",
                    "length": "1"}],
        "t_end": "2000",
    }
    write("a01_simple_pendulum.json", model)


def n_four_bar(n):
    """A02: N four-bar loops in a row, 2N+1 uniform links of 1 m and 1 kg: the
    cranks i = 0..N turn about A_i = (i, 0) and start vertical (B_i = (i, 1)),
    the couplers join B_(i-1) to B_i; B0 starts at 1 m/s in +x (every crank
    turning at -1 rad/s, the couplers translating)."""
    bodies, joints = [], []
    inertia = "1/12"  # a uniform rod of 1 kg and 1 m about its centre
    for i in range(n + 1):
        bodies.append({"name": "crank%d" % i, "mass": "1", "inertia": inertia, "position": [str(i), "0.5"],
                       "angle": text(mp.pi / 2), "velocity": ["0.5", "0"], "angular_velocity": "-1"})
        joints.append({"name": "A%d" % i, "type": "revolute", "body1": "ground", "point1": [str(i), "0"],
                       "body2": "crank%d" % i, "point2": ["-0.5", "0"]})
    for i in range(1, n + 1):
        bodies.append({"name": "coupler%d" % i, "mass": "1", "inertia": inertia, "position": [str(i - 1) + ".5", "1"],
                       "velocity": ["1", "0"]})
        joints.append({"name": "B%d-left" % (i - 1), "type": "revolute", "body1": "crank%d" % (i - 1),
                       "point1": ["0.5", "0"], "body2": "coupler%d" % i, "point2": ["-0.5", "0"]})
        joints.append({"name": "B%d-right" % i, "type": "revolute", "body1": "crank%d" % i,
                       "point1": ["0.5", "0"], "body2": "coupler%d" % i, "point2": ["0.5", "0"]})
    model = {
        "kind": "planar",
        "name": "A02 N-four-bar, N = %d" % n,
        "description": "%d four-bar loops in a row (%d links of 1 m and 1 kg), started upright with B0 at 1 m/s; "
                       "every loop passes the flat configuration, where the degrees of freedom jump from 1 to %d; "
                       "IFToMM benchmark A02" % (n, 2 * n + 1, n + 1),
        "sources": [
            "IFToMM library of computational benchmark problems, A02 (Gonzalez, Dopico, Lugris, Cuadrado, "
            "Multibody System Dynamics 16 (2006) 179-190; lim.ii.udc.es/mbsbenchmark, A02_specification): "
            "2N+1 links of 1 m with a uniformly distributed mass of 1 kg, gravity 9.81 N/kg in -y, N = 40, "
            "the x-velocity of B0 1 m/s at the start, 20 s; reference quantity: position and velocity of B0",
            "the start position (cranks upright on A_i = (i, 0), couplers level at y = 1) is the specification's "
            "figure as described by the benchmark's reproductions (e.g. the OpenSim MBS benchmarks, A02); "
            "inertia m L^2/12 of a uniform rod",
        ],
        "gravity": ["0", "-9.81"],
        "bodies": bodies,
        "joints": joints,
        "t_end": "20",
    }
    write("a02_n_four_bar_%d.json" % n, model)


# Hairer & Wanner (1996), sec. VII.7, and the IVP test set's andrews: as printed.
PARAMS = {
    "m1": "0.04325", "m2": "0.00365", "m3": "0.02373", "m4": "0.00706", "m5": "0.07050", "m6": "0.00706",
    "m7": "0.05498",
    "i1": "2.194e-6", "i2": "4.410e-7", "i3": "5.255e-6", "i4": "5.667e-7", "i5": "1.169e-5", "i6": "5.667e-7",
    "i7": "1.912e-5",
    "xa": "-0.06934", "ya": "-0.00227", "xb": "-0.03635", "yb": "0.03273", "xc": "0.014", "yc": "0.072",
    "d": "0.028", "da": "0.0115", "e": "0.02", "ea": "0.01421", "rr": "0.007", "ra": "0.00092",
    "l0": "0.07785", "ss": "0.035", "sa": "0.01874", "sb": "0.01043", "sc": "0.018", "sd": "0.02",
    "ta": "0.02308", "tb": "0.00916", "u": "0.04", "ua": "0.01228", "ub": "0.00449", "zf": "0.02", "zt": "0.04",
    "fa": "0.01421", "mom": "0.033", "c0": "4530",
}
# beta, Theta, gamma, Phi, delta, Omega, epsilon at t = 0 (IVP test set, 30 digits).
ANDREWS_ANGLES = [
    "-0.0617138900142764496358948458001", "0", "0.455279819163070380255912382449",
    "0.222668390165885884674473185609", "0.487364979543842550225598953530", "-0.222668390165885884674473185609",
    "1.23054744454982119249735015568",
]

if __name__ == "__main__":
    simple_pendulum()
    n_four_bar(40)
    n_four_bar(2)  # the tests' short runs
    andrews_squeezer()
    sys.exit(0)
