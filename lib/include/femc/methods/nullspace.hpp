#pragma once
// Method `nullspace`: reduce the Gaussian to a basis of Null(A).
//
// Every member of Z_W is z_p + Z y, with z_p one weighted least-squares
// solution of A z ≃ b and Z an orthonormal basis of Null(A) (001 (23): the
// members differ by Null(P) = M^{1/2} Null(A)). Minimizing the Gaussian over y
// (001 (25)–(27)) gives the reduced SPD system
//   (ZᵀMZ) y = Zᵀ(Q + C − M z_p),   q̈ = z_p + Z y,
// and the working part of the constraint force is the M⁻¹-orthogonal
// projection of C on M·Null(A):
//   Qᵂ = M Z (ZᵀMZ)⁻¹ Zᵀ C          (= M^{1/2}(I − B⁺B)M^{-1/2}C, 002 (33))
//   Qᴺ = M q̈ − Q − Qᵂ,  λ = (Aᵀ)⁺Qᴺ.
// Z, λ and (W = I) z_p come from one complete orthogonal decomposition of A;
// rank is decided on A itself. Independent of the cod method's algebra: it
// never forms P or M^{-1/2}.
#include "femc/options.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc {

template <class S>
Solution<S> solve_nullspace(const System<S>& sys, const Options<S>& opt);

}  // namespace femc
