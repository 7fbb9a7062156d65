"""A redundant linkage at 256 bits: two copies of one constraint (rank 1 of 2),
solved exactly in its rank and at 256-bit MPFR, with the answer as mpmath
numbers. Run with PYTHONPATH=build/release/python /usr/bin/python3 …
"""
import mpmath

import femc

M = [[2, 0, 0], [0, 3, 0], [0, 0, 5]]
A = [[1, 1, 1], [2, 2, 2]]       # the second row is twice the first: redundant
b = ["1/10", "1/5"]              # consistent: b₂ = 2 b₁, exact as written
Q = [0, 0, "-9.81"]

r = femc.solve(M, A, b, Q, precision=256)
print(r)                          # femc.Result(method='cod', precision='mpfr-256', rank=1, warnings=0)
print("q̈ =", [mpmath.nstr(x, 30) for x in r.qdd])  # mpmath.mpf at 256 bits (77 digits)
e = femc.solve(M, A, b, Q, precision="exact", method="exact")
print("exact q̈ =", [str(x) for x in e.qdd])
with mpmath.workprec(512):  # the 256-bit answer's distance from the exact one, at twice its precision
    error = max(abs(x - mpmath.mpf(y.numerator) / y.denominator) for x, y in zip(r.qdd, e.qdd)) \
        / max(abs(mpmath.mpf(y.numerator) / y.denominator) for y in e.qdd)
    print("relative error:", mpmath.nstr(error, 3), "= u ×", mpmath.nstr(error / mpmath.mpf(2) ** -256, 3))
