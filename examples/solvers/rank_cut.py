#!/usr/bin/env python3
"""numpy_pinv.py's literal formula with its pseudoinverses cut at 10⁻⁶
relative (numpy.linalg.pinv with rcond = 1e-6): the kind of cut femc's engine
campaign found in Simbody, which drops every constraint direction whose
singular value is below 10⁻⁶σ₁ as if it were rounding.

    femc verify --solver "python3 examples/solvers/rank_cut.py"             # fails
    femc verify --solver "python3 examples/solvers/rank_cut.py --declare"   # passes

Undeclared, femc holds it to the default tolerance max(m, n)·eps and the
claims fail on every system with a direction between the two: femc names the
direction dropped, its σ/σ₁ and what dropping it costs. With --declare the
handshake and each answer declare rank_tol = 1e-6, and femc judges it
against the Gauss solution with the directions below 1e-6 dropped
(verify/PROTOCOL.md, "Rank").
"""
import sys

import numpy_pinv

RCOND = 1e-6


def cut(M, A, b, Q, C, W):
    return numpy_pinv.literal(M, A, b, Q, C, W, rcond=RCOND)


if __name__ == "__main__":
    declared = "--declare" in sys.argv[1:]
    handshake = dict(numpy_pinv.HANDSHAKE, name="rank-cut-declared" if declared else "rank-cut",
                     rank_policy="singular values of P, numpy.linalg.pinv rcond = 1e-6")
    if declared:
        handshake["rank_tol"] = RCOND
    numpy_pinv.main(cut, handshake, answer_rank_tol=declared)
