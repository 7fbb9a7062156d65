#pragma once
// Method `cod` (the default): the General Gauss Principle solved through
// factors, with no explicit inverse, inverse square root or pseudoinverse.
//
// Problem (001 Result 1, (15)): find
//   q̈ = argmin { ‖z − M⁻¹(Q + C)‖²_M : z ∈ Z_W },
//   Z_W = argmin_z (A z − b)ᵀ W (A z − b),
// and the split M q̈ = Q + Qᴺ + Qᵂ of 002 (33) / 001 (15).
//
// How: any factors M = L Lᵀ and W = L_W L_Wᵀ may stand in for the symmetric
// square roots (the problem above is stated without them), so with the
// Cholesky factors, P = L_Wᵀ A L⁻ᵀ and b̃ = L_Wᵀ b,
//   z_s = L⁻¹Q + P⁺(b̃ − P L⁻¹Q) + (I − P⁺P) L⁻¹C,   q̈ = L⁻ᵀ z_s,
// where P⁺ is applied through a complete orthogonal decomposition
// (decomposition/complete_orthogonal.hpp). The result does not depend on the
// factor chosen (checked by the tests). Rank is decided on P.
// Cost: n³/3 (Cholesky) + O(m n²) (transform) + O(m n r) (decomposition).
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_cod(const System<S>& sys, const Options<S>& opt);

}  // namespace femc
