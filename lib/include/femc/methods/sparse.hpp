#pragma once
// Method `sparse`: cod's algebra (methods/cod.hpp) on sparse factors, for
// mechanisms of thousands of bodies.
//
// Problem (001 Result 1, (15)): q̈ = argmin { ‖z − M⁻¹(Q + C)‖²_M : z ∈ Z_W },
// Z_W = argmin_z (A z − b)ᵀ W (A z − b), and the split M q̈ = Q + Qᴺ + Qᵂ of
// 002 (33), with λ the minimum-norm solution of Aᵀλ = Qᴺ.
//
// How: M = F Fᵀ and W = F_W F_Wᵀ by sparse Cholesky with a fill-reducing
// ordering (decomposition/sparse_cholesky.hpp), P = F_Wᵀ A F⁻ᵀ, and the
// formulas of cod with P⁺ applied through two sparse QR factorizations
// (decomposition/sparse_complete_orthogonal.hpp). Pᵀ = F⁻¹ Aᵀ F_W is formed
// sparse: for a mechanism in body coordinates F is block-diagonal and Pᵀ has
// the pattern of Aᵀ. Every cost is then linear in the number of bodies of a
// chain or a ladder (reports/performance.md measures it).
//
// Rank: Heath's cut in the sparse QR of Pᵀ, at τ·d₁ with d₁ the largest
// constraint-row norm of P and τ = 20·(m + n)·ε (rank.hpp,
// heath_rank_tolerance: the rounding a dependent column keeps in a QR that
// is not pivoted by norm), then a rank-revealing step on the smallest
// singular value of the kept triangle, by inverse iteration, which applies
// rank.hpp's cut, formed-rank band (the rank of A, by a sparse QR of Aᵀ,
// settling it) and data cut (decomposition/sparse_complete_orthogonal.hpp).
// Each dependency found this way costs one more factorization; the exact
// dependencies of redundant joints are caught by the first step.
//
// Accuracy: backward stable in P like cod (Givens rotations, triangular
// solves), without cod's column pivoting, whose protection of Qᴺ at large
// κ(M) it does not have (cod.hpp); the studies measure both.
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/sparse_system.hpp"
#include "femc/system.hpp"

namespace femc {

// The method of methods/list.hpp, on a dense system (stored sparse first).
template <class S>
Solution<S> solve_sparse(const System<S>& sys, const Options<S>& opt);
// On a sparse system that passed validate(sparse_system.hpp).
template <class S>
Solution<S> solve_sparse(const SparseSystem<S>& sys, const Options<S>& opt);

}  // namespace femc
