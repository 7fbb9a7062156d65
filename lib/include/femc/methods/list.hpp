#pragma once
// femc's methods: the one list. Everything that names a method reads it: the
// Method enum and its parser (options.hpp), solve()'s dispatch (solve.hxx),
// the explicit instantiations (lib/CMakeLists.txt parses the lines below),
// the solver registry (solvers/registry.hpp) and, through that registry, the
// properties, the studies, the bench and the plots.
//
// A line:  X(name, Enumerator, arithmetic, rank_deficient, rank_policy, description)
//   name            the method's name on the command line and in reports; its
//                   unit is femc/methods/<name>.hpp/.hxx with solve_<name>()
//   arithmetic      Floating: every floating type of femc (square roots);
//                   Exact: exact types only (rational)
//   rank_deficient  true if it solves systems with rank A < m; false if it
//                   refuses them with MethodError (never a wrong answer)
//   rank_policy     the matrix whose rank it decides (rank.hpp)
//
// Adding a method: write its unit, add its line here (keep each X( at the
// start of a line, two spaces in: CMake reads them), and it is instantiated,
// dispatched, parsed, registered, property-tested and studied.
#define FEMC_METHODS(X)                                                                                       \
  X(literal, Literal, Floating, true, "singular values of P = W^{1/2} A M^{-1/2}",                            \
    "the papers' formulas as printed: symmetric square roots, explicit SVD pseudoinverses")                  \
  X(cod, Cod, Floating, true, "pivoted QR of P = L_W^T A L^{-T}",                                             \
    "General Gauss Principle through Cholesky factors and a complete orthogonal decomposition of P")          \
  X(kkt, Kkt, Floating, false, "pivoted LDL^T of G = A M^{-1} A^T, on sqrt|D_i|",                             \
    "range-space (Schur complement) method of rigid-body codes, full row rank only")                          \
  X(nullspace, Nullspace, Floating, true, "pivoted QR of A (and of L_W^T A)",                                  \
    "Gaussian reduced to an orthonormal basis of Null(A)")                                                     \
  X(exact, Exact, Exact, true, "exact rank (full-pivoting LU, zero threshold)",                               \
    "rational arithmetic, no square root: the oracle of the tests and proofs")
