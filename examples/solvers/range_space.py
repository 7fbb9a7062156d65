#!/usr/bin/env python3
"""The textbook range-space method of rigid-body codes, in numpy: with
M = LLᵀ and B = A L⁻ᵀ, the multipliers solve (A M⁻¹Aᵀ) λ = b − A M⁻¹(Q + C)
by a Cholesky factorization of G = A M⁻¹Aᵀ = B Bᵀ, and

    q̈ = M⁻¹(Q + C + Aᵀλ),  Qᴺ = Aᵀ(λ + μ),  Qᵂ = C − Aᵀμ

with G μ = A M⁻¹C (Aᵀμ is the part of C the constraints absorb). It takes
A of full row rank only, refusing a system whose G is not positive definite
in floating point, and W = I (for full row rank q̈ does not depend on W, G9).

κ(G) = κ(B)²: the method's error grows as u·κ(B)², not u·κ(B). It declares
the default error growth 1 all the same, and femc verify fails it on the
ill-conditioned systems; declared as "error_growth": 2 (--declare-growth)
it is held to u·κ(B)² and the draws stop where that law leaves no digit.

    femc verify --solver "python3 examples/solvers/range_space.py"
"""
import sys

import numpy as np

import numpy_pinv

HANDSHAKE = {
    "protocol": "femc-solver/1",
    "name": "range-space",
    "outputs": ["qdd", "QN", "QW", "lambda"],
    "rank_deficient": False,
    "weighted": False,
    "working_forces": True,
    "precisions": ["double"],
    "rank_policy": "none: Cholesky of A M^-1 A^T, refused when it fails",
}


def range_space(M, A, b, Q, C, W):
    n, m = M.shape[0], A.shape[0]
    L = np.linalg.cholesky(M)
    minv = lambda v: np.linalg.solve(L.T, np.linalg.solve(L, v))
    if m == 0:
        return minv(Q + C), np.zeros(n), C.copy(), np.zeros(0), (0, 0.0)
    B = np.linalg.solve(L, A.T).T  # A L⁻ᵀ
    G = B @ B.T
    R = np.linalg.cholesky(G)  # raises LinAlgError: refused
    gsolve = lambda v: np.linalg.solve(R.T, np.linalg.solve(R, v))
    lam = gsolve(b - A @ minv(Q + C))
    mu = gsolve(A @ minv(C))  # C_range = Aᵀμ
    QN = A.T @ (lam + mu)
    QW = C - A.T @ mu
    qdd = minv(Q + C + A.T @ lam)
    return qdd, QN, QW, lam + mu, (m, 0.0)  # λ of Aᵀλ = Qᴺ


if __name__ == "__main__":
    handshake = dict(HANDSHAKE)
    if "--declare-growth" in sys.argv[1:]:
        handshake.update(name="range-space-growth-2", error_growth=2)
    numpy_pinv.main(range_space, handshake, answer_rank_tol=False)
