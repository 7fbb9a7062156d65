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
        # Every loop passes flat configurations, where A loses rank N: the
        # index-3 formulation passes them at double (dynamics/simulate.hpp);
        # its step 5e-4 s keeps B0 within 1e-3 of the closed form over the
        # 20 s for N = 40 (models/benchmarks/README.md).
        "formulation": "index-3",
        "step": "5e-4",
    }
    write("a02_n_four_bar_%d.json" % n, model)


def bricard():
    """A04: Bricard's mechanism, five uniform rods of 1 m, 1 kg and 0.1 m
    square section in a closed loop of six revolute joints, two of them on
    the ground; from rest under gravity 9.81 in -y, 10 s.

    The joints sit at the corners of a unit "chair" A..F with axes y, z, x,
    y, z, x; rod k runs from joint k to joint k+1. Every body frame is
    parallel to the ground frame at the start (orientation: identity), so the
    rods' inertias are diagonal in it, with the axial moment on the rod's own
    axis, and the joint axes are the same vectors in both bodies' frames.
    """
    ia, it = "1/600", "101/1200"  # m(b^2 + c^2)/12: axial (0.1 by 0.1), transverse (1 by 0.1)
    corners = {"A": (0, 0, 0), "B": (1, 0, 0), "C": (1, -1, 0), "D": (1, -1, 1), "E": (0, -1, 1), "F": (0, 0, 1)}
    axes = {"A": "y", "B": "z", "C": "x", "D": "y", "E": "z", "F": "x"}
    unit = {"x": ["1", "0", "0"], "y": ["0", "1", "0"], "z": ["0", "0", "1"]}
    order = "ABCDEF"

    def vec(v):
        return [text(x) for x in v]

    bodies, centres = [], {}
    for k in range(1, 6):
        p, q = corners[order[k - 1]], corners[order[k]]
        centre = tuple(mpf(a + b) / 2 for a, b in zip(p, q))
        along = [i for i in range(3) if p[i] != q[i]][0]
        inertia = [it, it, it]
        inertia[along] = ia
        centres[k] = centre
        bodies.append({"name": "rod%d" % k, "mass": "1", "inertia": inertia, "position": vec(centre)})

    def offset(k, corner):  # a corner in rod k's frame (parallel to the ground frame)
        return vec(tuple(mpf(c) - x for c, x in zip(corners[corner], centres[k])))

    joints = []
    for j, corner in enumerate(order):  # joint j joins rod j (or the ground) to rod j+1 (or the ground)
        b1 = "ground" if j == 0 else "rod%d" % j
        b2 = "ground" if j == 5 else "rod%d" % (j + 1)
        p1 = vec(corners[corner]) if j == 0 else offset(j, corner)
        p2 = vec(corners[corner]) if j == 5 else offset(j + 1, corner)
        joints.append({"name": corner, "type": "revolute", "body1": b1, "point1": p1, "body2": b2, "point2": p2,
                       "axis1": unit[axes[corner]], "axis2": unit[axes[corner]]})
    model = {
        "kind": "spatial",
        "name": "A04 Bricard's mechanism",
        "description": "five rods in a loop of six revolute joints: Gruebler counts 0 degrees of freedom, it moves "
                       "with 1 (one constraint row is redundant, and none in particular); from rest under gravity; "
                       "IFToMM benchmark A04",
        "sources": [
            "IFToMM library of computational benchmark problems, A04 (Gonzalez, Dopico, Lugris, Cuadrado, "
            "Multibody System Dynamics 16 (2006) 179-190; lim.ii.udc.es/mbsbenchmark, A04_specification): five "
            "rods of 1 m and 1 kg, gravity 9.81 N/kg in -y, 10 s; reference quantity: the trajectory of P3 and "
            "the energy",
            "the geometry (joints at (0,0,0), (1,0,0), (1,-1,0), (1,-1,1), (0,-1,1), (0,0,1) with axes y, z, x, "
            "y, z, x), the square section of 0.1 m and the start from rest as the benchmark's reproductions give "
            "them (the OpenSim MBS benchmarks, updated to the IFToMM requirements in 2015; Exudyn's "
            "bricardMechanism.py): the specification's text itself was not available here",
            "inertia of a uniform bar: m(b^2 + c^2)/12 about each axis; P3 is the joint C, the end of rod2 at "
            "(0, -0.5, 0) in rod2's frame",
        ],
        "gravity": ["0", "-9.81", "0"],
        "bodies": bodies,
        "joints": joints,
        "t_end": "10",
    }
    write("a04_bricard.json", model)


def flyball_governor():
    """A05: the stiff flyball governor. A shaft turning freely about z on the
    ground, a slider on it (prismatic, turning with it), two rods hinged at
    the shaft's top at (+-0.05, 0, 1), each carrying a point mass of 5 kg at
    its tip, and two spring-dampers from the slider's faces to the rods'
    midpoints. Starts at s = 0.5 m with the rods 30 degrees below the
    horizontal (the springs at rest length), the whole turning rigidly at
    2 pi rad/s about z; gravity 9.81 in -z; 10 s.

    Each rod and its tip mass are one body (rigidly joined, they move as
    one): mass 5.3 kg, centre of mass d = (0.3*0.5 + 5*1)/5.3 = 103/106 m
    from the hinge along the rod, which is the body's x-axis.
    """
    rho = mpf(3000)
    m_bar = rho * mpf("0.01") * mpf("0.01") * 1  # 0.3 kg
    m_tip = mpf(5)
    d = (m_bar * mpf("0.5") + m_tip * 1) / (m_bar + m_tip)
    bar_axial = m_bar * (mpf("0.01") ** 2 * 2) / 12
    bar_transverse = m_bar * (1 + mpf("0.01") ** 2) / 12
    rod_transverse = bar_transverse + m_bar * (mpf("0.5") - d) ** 2 + m_tip * (1 - d) ** 2
    cube = mpf(3) * (mpf("0.1") ** 2 * 2) / 12
    alpha = mp.pi / 6
    omega = 2 * mp.pi

    def vec(v):
        return [text(x) for x in v]

    def spin(r):  # the velocity of a point r turning at omega about z
        return (-omega * r[1], omega * r[0], mpf(0))

    bodies = [
        {"name": "shaft", "mass": text(m_bar), "inertia": vec((bar_transverse, bar_transverse, bar_axial)),
         "position": ["0", "0", "0.5"], "angular_velocity": ["0", "0", text(omega)]},
        {"name": "slider", "mass": "3", "inertia": vec((cube, cube, cube)), "position": ["0", "0", "0.5"],
         "angular_velocity": ["0", "0", text(omega)]},
    ]
    joints = [
        {"name": "bearing", "type": "revolute", "body1": "ground", "point1": ["0", "0", "0"], "body2": "shaft",
         "point2": ["0", "0", "-0.5"], "axis1": ["0", "0", "1"], "axis2": ["0", "0", "1"]},
        {"name": "sleeve", "type": "prismatic", "body1": "shaft", "point1": ["0", "0", "0"], "body2": "slider",
         "point2": ["0", "0", "0"], "axis1": ["0", "0", "1"]},
    ]
    forces = []
    for name, side, degrees in (("rod1", 1, 30), ("rod2", -1, 150)):
        hinge = (side * mpf("0.05"), mpf(0), mpf(1))
        along = (side * cos(alpha), mpf(0), -sin(alpha))
        centre = tuple(h + d * a for h, a in zip(hinge, along))
        bodies.append({"name": name, "mass": text(m_bar + m_tip),
                       "inertia": vec((bar_axial, rod_transverse, rod_transverse)), "position": vec(centre),
                       "orientation": {"axis": ["0", "1", "0"], "degrees": str(degrees)},
                       "velocity": vec(spin(centre)), "angular_velocity": ["0", "0", text(omega)]})
        joints.append({"name": "hinge " + name, "type": "revolute", "body1": "shaft",
                       "point1": [text(side * mpf("0.05")), "0", "0.5"], "body2": name, "point2": vec((-d, 0, 0)),
                       "axis1": ["0", "1", "0"], "axis2": ["0", "1", "0"]})
        forces.append({"name": "strut " + name, "type": "spring-damper", "body1": "slider",
                       "point1": [text(side * mpf("0.05")), "0", "0"], "body2": name,
                       "point2": vec((mpf("0.5") - d, 0, 0)), "stiffness": "8e5", "damping": "4e4", "length": "0.5"})
    model = {
        "kind": "spatial",
        "name": "A05 stiff flyball governor",
        "description": "a shaft turning freely about z, a slider on it and two rods with tip masses held by stiff "
                       "spring-dampers; started turning at 2 pi rad/s; IFToMM benchmark A05",
        "sources": [
            "IFToMM library of computational benchmark problems, A05 (Gonzalez, Dopico, Lugris, Cuadrado, "
            "Multibody System Dynamics 16 (2006) 179-190; lim.ii.udc.es/mbsbenchmark, A05_specification): shaft "
            "and rods 1 x 0.01 x 0.01 m, slider a 0.1 m cube, density 3000 kg/m^3, point masses of 5 kg, "
            "spring-dampers K = 8e5 N/m, C = 4e4 Ns/m, rest length 0.5 m, s = 0.5 m, alpha = 30 deg, 2 pi rad/s, "
            "gravity 9.81 in -z, 10 s; reference quantity: the slider's height s",
            "the layout (hinges at (+-0.05, 0, 1) on the shaft's top, the masses at the rods' tips, the "
            "spring-dampers from the slider's faces (+-0.05, 0, 0) to the rods' midpoints, the shaft free after "
            "the start) as the benchmark's reproductions give it (the OpenSim MBS benchmarks, updated to the "
            "IFToMM requirements in 2015; Exudyn's stiffFlyballGovernorKT.py): the specification's text itself "
            "was not available here",
            "each rod and its tip mass are one body: mass 5.3 kg, centre 103/106 m from the hinge; inertias of "
            "uniform boxes, m(b^2 + c^2)/12, moved to that centre by Steiner's rule; every body's velocity the "
            "rigid rotation at 2 pi rad/s about z; computed by models/benchmarks/generate.py at 60 digits",
        ],
        "gravity": ["0", "0", "-9.81"],
        "bodies": bodies,
        "joints": joints,
        "forces": forces,
        "t_end": "10",
    }
    write("a05_flyball_governor.json", model)


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
    n_four_bar(1000)  # the large mechanism of the sparse solver (report: reports/mechanisms/)
    andrews_squeezer()
    bricard()
    flyball_governor()
    sys.exit(0)
