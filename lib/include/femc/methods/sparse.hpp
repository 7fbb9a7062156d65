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
// Rank: decided as by cod, at the same τ (rank.hpp), on the singular values
// of the kept part of Pᵀ's sparse QR, in two steps
// (decomposition/sparse_complete_orthogonal.hpp): Heath's cut drops a
// column whose remaining norm |R_kk| is at or below τ·d₁ (then the smallest
// singular value is too), and inverse iteration on the kept triangle finds
// the dependencies a QR ordered for fill hides, applying rank.hpp's cut,
// formed-rank band (the rank of A, by a sparse QR of Aᵀ, settling it) and
// data cut. Each dependency found the second way costs one more
// factorization; the exact dependencies of redundant joints are caught by
// the first.
//
// Accuracy: backward stable in P like cod (Givens rotations, triangular
// solves), without cod's column pivoting, whose protection of Qᴺ at large
// κ(M) it does not have (cod.hpp); the studies measure both.
//
// Why femc's own kernels in double too, not CHOLMOD and SPQR: on the scaling
// benchmark's mechanisms they took 1.0–1.7× (CHOLMOD against the LLT) and
// 1.2–3.0× (SPQR against the Givens QR) the time (bench/bench_suitesparse.cpp,
// reports/performance.md), and one code path serves every scalar type.
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/sparse_system.hpp"
#include "femc/system.hpp"

namespace femc {

// The method of methods/list.hpp, on a dense system (stored sparse first).
template <class S>
Solution<S> solve_sparse(const System<S>& sys, const Options<S>& opt);
// On a sparse system that passed validate_entries (sparse_system.hpp): M
// and W not positive definite throw validate()'s InputError.
template <class S>
Solution<S> solve_sparse(const SparseSystem<S>& sys, const Options<S>& opt);

}  // namespace femc
