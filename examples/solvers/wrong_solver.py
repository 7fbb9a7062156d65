#!/usr/bin/env python3
"""A deliberately wrong solver, to see `femc verify` name what it breaks: the
literal formula of numpy_pinv.py with two classic mistakes,

  - W ignored (P = A M^{-1/2}, b̃ = b): wrong for inconsistent constraints,
    where W decides which least-squares motion is right (001 Result 1, G9);
  - the working part dropped: Qᶜ = Qᴺ only, q̈ = M⁻¹(Q + Qᴺ), as if the
    constraints did no work (002 (33): Qᵂ = M^{1/2}(I − P⁺P) M^{-1/2} C).

    femc verify --solver "python3 examples/solvers/wrong_solver.py"
"""
import numpy as np

import numpy_pinv


def wrong(M, A, b, Q, C, W):
    qdd, QN, QW, lam, rank = numpy_pinv.literal(M, A, b, Q, C, np.eye(A.shape[0]))
    return np.linalg.solve(M, Q + QN), QN, np.zeros_like(QW), lam, rank


if __name__ == "__main__":
    numpy_pinv.main(wrong, dict(numpy_pinv.HANDSHAKE, name="wrong-solver"))
