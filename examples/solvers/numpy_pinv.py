#!/usr/bin/env python3
"""A solver outside femc: the papers' literal formula in numpy, speaking the
femc solver protocol (verify/PROTOCOL.md) on stdin and stdout.

    q̈  = a + M^{-1/2} P⁺(b̃ − P M^{-1/2} Q) + M^{-1/2}(I − P⁺P) M^{-1/2} C    001 (15)
    Qᴺ = M^{1/2} P⁺(b̃ − P M^{-1/2} Q),   Qᵂ = M^{1/2}(I − P⁺P) M^{-1/2} C      002 (33)
    λ  = (Aᵀ)⁺ Qᴺ                                                            004 (21)

with a = M⁻¹Q, P = W^{1/2} A M^{-1/2}, b̃ = W^{1/2} b; the symmetric square
roots from numpy.linalg.eigh, the pseudoinverses from numpy.linalg.pinv with
rcond = max(m, n)·ε (LAPACK's rank threshold).

    femc verify --solver "python3 examples/solvers/numpy_pinv.py"
"""
import json
import sys

import numpy as np

HANDSHAKE = {
    "protocol": "femc-solver/1",
    "name": "numpy-pinv",
    "outputs": ["qdd", "QN", "QW", "lambda", "rank"],
    "rank_deficient": True,
    "weighted": True,
    "working_forces": True,
    "precisions": ["double"],
    "residual_mass_power": 1,  # M^{±1/2} from eigh, mixed with solves by M
    "rank_policy": "singular values of P, numpy.linalg.pinv rcond = max(m, n)·eps",
}


def matrix(rows, r, c):
    return np.array([[float(x) for x in row] for row in rows], dtype=float).reshape(r, c)


def vector(v):
    return np.array([float(x) for x in v], dtype=float)


def roots(X):
    """X^{1/2} and X^{-1/2} of a symmetric positive definite X."""
    w, V = np.linalg.eigh(X)
    return (V * np.sqrt(w)) @ V.T, (V / np.sqrt(w)) @ V.T


def literal(M, A, b, Q, C, W, rcond=None):
    """The formulas above; returns q̈, Qᴺ, Qᵂ, λ and (rank of P, rcond).
    rcond: pinv's relative cut (default max(m, n)·eps, LAPACK's)."""
    n, m = M.shape[0], A.shape[0]
    Mh, Mih = roots(M)
    if m == 0:
        return np.linalg.solve(M, Q + C), np.zeros(n), C.copy(), np.zeros(0), (0, 0.0)
    Wh, _ = roots(W)
    if rcond is None:
        rcond = max(m, n) * np.finfo(float).eps
    P = Wh @ A @ Mih
    Pp = np.linalg.pinv(P, rcond=rcond)
    QN = Mh @ Pp @ (Wh @ b - P @ Mih @ Q)
    QW = Mh @ (np.eye(n) - Pp @ P) @ Mih @ C
    qdd = np.linalg.solve(M, Q + QN + QW)
    lam = np.linalg.pinv(A.T, rcond=rcond) @ QN
    sigma = np.linalg.svd(P, compute_uv=False)  # pinv keeps σ_i > rcond·σ₁
    rank = int(np.sum(sigma > rcond * sigma[0])) if sigma.size and sigma[0] > 0 else 0
    return qdd, QN, QW, lam, (rank, rcond)


def main(solve=literal, handshake=HANDSHAKE, answer_rank_tol=True):
    """Speaks the protocol. answer_rank_tol: whether each answer declares
    the rcond it cut rank at (`rank_tol`)."""
    out = sys.stdout
    out.write(json.dumps(handshake) + "\n")
    out.flush()
    for line in sys.stdin:
        req = json.loads(line)
        n, m = req["n"], req["m"]
        try:
            qdd, QN, QW, lam, (rank, rcond) = solve(matrix(req["M"], n, n), matrix(req["A"], m, n),
                                                    vector(req["b"]), vector(req["Q"]), vector(req["C"]),
                                                    matrix(req["W"], m, m))
            answer = {"id": req["id"], "qdd": [repr(float(x)) for x in qdd], "QN": [repr(float(x)) for x in QN],
                      "QW": [repr(float(x)) for x in QW], "lambda": [repr(float(x)) for x in lam],
                      "rank": rank}
            if answer_rank_tol:
                answer["rank_tol"] = repr(rcond)
        except np.linalg.LinAlgError as e:
            answer = {"id": req["id"], "error": str(e)}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
