"""A verdict on a numpy solver in four lines: the range-space formula q̈ = a + M⁻¹Aᵀ(A M⁻¹Aᵀ)⁻¹(b − A a),
declared for full row rank only and with the error growth κ(B)² it has, checked by femc's claims (a
few cases each, for a quick run). Run with PYTHONPATH=build/release/python /usr/bin/python3 …
"""
import numpy as np

import femc


def range_space(M, A, b, Q, C, W):
    a = np.linalg.solve(M, Q + C)
    MiAt = np.linalg.solve(M, A.T)
    return a + MiAt @ np.linalg.solve(A @ MiAt, b - A @ a)


v = femc.verify(range_space, {"rank_deficient": False, "weighted": False, "working_forces": False,
                              "error_growth": 2}, claims=["E1", "U1", "G2"], cases=20, studies=())
print(v)
for c in v.claims:
    print(f"  {c['property']}: {c['verdict']}")
