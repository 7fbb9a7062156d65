#pragma once
// Method `kkt`: the range-space (Schur complement) method of rigid-body codes
// such as RBDL and Pinocchio, for constraint matrices of full row rank.
//
// For rank A = m the constraints are consistent and q̈ does not depend on W
// (001 Result 2, (44)–(47)); with G = A M⁻¹Aᵀ (004 (23)):
//   λ  = G⁻¹(b − A M⁻¹Q),        Qᴺ = Aᵀλ                      004 (23)
//   ν  = G⁻¹ A M⁻¹C,             Qᵂ = C − Aᵀν                  002 (33) for rank A = m
//   q̈  = M⁻¹(Q + Qᴺ + Qᵂ)
// G is formed as YᵀY with Y = L⁻¹Aᵀ and factored by pivoted LDLᵀ. W is not
// used. Rank is decided on √|D_i| (σ-scale) with the tolerance of rank.hpp,
// raised to the rounding floor √(10(n + m)ε) of the computed G: as
// κ(G) = κ(B)², this method refuses systems with κ(B) ≳ (10(n + m)ε)^{-1/2}
// (≈ 10⁷ in double). A rank-deficient A raises MethodError, never a wrong answer.
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_kkt(const System<S>& sys, const Options<S>& opt);

}  // namespace femc
