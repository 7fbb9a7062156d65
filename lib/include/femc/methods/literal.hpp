#pragma once
// Method `literal`: the papers' formulas as printed, to compare the other
// methods against.
//
//   q̈  = a + M^{-1/2} P⁺(b̃ − P M^{-1/2} Q) + M^{-1/2}(I − P⁺P) M^{-1/2} C   001 (15)
//   Qᴺ = M^{1/2} P⁺(b̃ − P M^{-1/2} Q),  Qᵂ = M^{1/2}(I − P⁺P) M^{-1/2} C    002 (33)
//   λ  = (Aᵀ)⁺ Qᴺ                                                           004 (21), h = 0
//   G_g^min = ‖P⁺[b̃ − P M^{-1/2}(Q + C)]‖²,  ‖δ‖² = ‖(P P⁺ − I) b̃‖²         001 (30), (24)
// with a = M⁻¹Q, B = A M^{-1/2}, P = W^{1/2} B, b̃ = W^{1/2} b. The symmetric
// square roots and M⁻¹ come from an eigendecomposition, P⁺ and (Aᵀ)⁺ are
// formed explicitly from (Jacobi) SVDs with the rank policy of rank.hpp (rank decided
// on the singular values of P). Slow and less accurate by design.
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_literal(const System<S>& sys, const Options<S>& opt);

}  // namespace femc
