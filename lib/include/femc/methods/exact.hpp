#pragma once
// Method `exact`: rational arithmetic, no square root, exact rank. The oracle
// of the tests and proofs.
//
// The General Gauss Principle (001 (9)–(16)) is stated without square roots:
//   Z_W = { z : AᵀW A z = AᵀW b }            (normal equations, 001 (19))
//   q̈   = argmin_{z ∈ Z_W} (z − a_c)ᵀM(z − a_c),   a_c = M⁻¹(Q + C).
// Its KKT system [M  N; N  0][q̈; μ] = [Q + C; AᵀWb], N = AᵀWA, is consistent
// and determines q̈ uniquely (μ is not unique when A is rank-deficient).
// Then, with Π the M⁻¹-orthogonal projector on Range(Aᵀ):
//   Qᶜ = M q̈ − Q,  Qᵂ = C − Aᵀν with (A M⁻¹Aᵀ)ν = A M⁻¹C  (Qᵂ = (I − Π)C),
//   Qᴺ = Qᶜ − Qᵂ,  λ = A y with AᵀA y = Qᴺ  (the minimum-norm solution),
//   G_g^min = (q̈ − a_c)ᵀM(q̈ − a_c),  ‖δ‖² = (A q̈ − b)ᵀW(A q̈ − b).
// Every linear solve is a full-pivoting LU with zero threshold and is checked
// by substituting back exactly. Only for exact scalar types.
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_exact(const System<S>& sys, const Options<S>& opt);

}  // namespace femc
