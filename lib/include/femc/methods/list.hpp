#pragma once
// femc's methods: the one list. Everything that names a method reads it: the
// Method enum and its parser (options.hpp), solve()'s dispatch (solve.hxx),
// the explicit instantiations (lib/CMakeLists.txt parses the lines below),
// the solver registry (solvers/registry.hpp) and, through that registry, the
// properties, the studies, the bench and the plots.
//
// A line:  X(name, Enumerator, arithmetic, workspace, rank_deficient, error_growth, residual_mass_power,
//            rank_policy, description)
//   name            the method's name on the command line and in reports; its
//                   unit is femc/methods/<name>.hpp/.hxx with solve_<name>()
//   arithmetic      Floating: every floating type of femc (square roots);
//                   Exact: exact types only (rational)
//   workspace       Workspace: its unit has a class <Enumerator>Workspace<S>
//                   (method_workspace.hpp's interface) that keeps its storage
//                   between solves, a member of Workspace<S> (workspace.hpp);
//                   NoWorkspace: solve(sys, opt, sol, ws) runs it as solve()
//   rank_deficient  true if it solves systems with rank A < m; false if it
//                   refuses them with MethodError (never a wrong answer)
//   error_growth    the power p of κ(B) in its forward error (Capabilities::
//                   error_growth): 1 backward stable, 2 when it forms B Bᵀ
//   residual_mass_power  the power s of κ(M) in its constraint residual
//                   (Capabilities::residual_mass_power): 0 when it forms B
//                   from a Cholesky factor, 1 with explicit M^{±1/2}
//   rank_policy     the matrix whose rank it decides (rank.hpp)
//
// Adding a method: write its unit, add its line here (keep each X( at the
// start of a line, two spaces in: CMake reads them), and it is instantiated,
// dispatched, parsed, registered, property-tested and studied; with a
// workspace, it is a member of Workspace<S> and solve() with a workspace runs
// it there. A unit that instantiates more than solve_<name> (its workspace
// class, another overload) says so in its .hxx with
//   #define FEMC_INSTANTIATE_<name>(S) template class ...<S>; ...
// which the library's unit for the method expands (lib/src/instantiate/).
#define FEMC_METHODS(X)                                                                                       \
  X(literal, Literal, Floating, Workspace, true, 1, 1, "singular values of P = W^{1/2} A M^{-1/2}",           \
    "the papers' formulas as printed: symmetric square roots, explicit SVD pseudoinverses")                   \
  X(cod, Cod, Floating, Workspace, true, 1, 0, "pivoted QR of P = L_W^T A L^{-T}",                            \
    "General Gauss Principle through Cholesky factors and a complete orthogonal decomposition of P")          \
  X(kkt, Kkt, Floating, Workspace, false, 2, 0, "pivoted LDL^T of G = A M^{-1} A^T, on sqrt|D_i|",            \
    "range-space (Schur complement) method of rigid-body codes, full row rank only")                          \
  X(nullspace, Nullspace, Floating, Workspace, true, 1, 0, "pivoted QR of A (and of L_W^T A)",                \
    "Gaussian reduced to an orthonormal basis of Null(A)")                                                    \
  X(sparse, Sparse, Floating, NoWorkspace, true, 1, 0, "Heath's cut in a sparse QR of P^T = L^{-1} A^T L_W",  \
    "cod's algebra on sparse Cholesky and Givens QR factors, in time linear in a mechanism's size")           \
  X(exact, Exact, Exact, NoWorkspace, true, 1, 0, "exact rank (full-pivoting LU, zero threshold)",            \
    "rational arithmetic, no square root: the oracle of the tests and proofs")

// The workspace column as code: FEMC_IF_WORKSPACE(workspace, text...) is the
// text for a Workspace method and nothing for a NoWorkspace one (Workspace<S>'s
// members, solve()'s dispatch to them, MethodInfo::has_workspace).
#define FEMC_IF_WORKSPACE(workspace, ...) FEMC_IF_WORKSPACE_##workspace(__VA_ARGS__)
#define FEMC_IF_WORKSPACE_Workspace(...) __VA_ARGS__
#define FEMC_IF_WORKSPACE_NoWorkspace(...)
