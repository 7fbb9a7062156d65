#pragma once
// The reference every accuracy study measures against: the exact solution
// (method exact, rational arithmetic) of the very data the working precision
// was given, and the condition numbers that the theory's bounds are stated in,
// computed at 256 bits from the exact data.
#include "femc/solution.hpp"
#include "femc/system.hpp"
#include "numerics.hpp"

namespace femc::studies {

struct ExactReference {
  Solution<rational> solution;
  Index rank = 0;       // exact rank of A
  double kappa_A = 1;   // σ₁/σ_r of A
  double kappa_M = 1;   // λ_max/λ_min of M
  double kappa_B = 1;   // σ₁/σ_r of B = A L⁻ᵀ (M = LLᵀ; W^{1/2}B when weighted)
  double norm_B = 0;    // σ₁ of B
  // η = ‖r‖/(‖B‖‖x‖): the relative size of the least-squares residual
  // r = W^{1/2}(A q̈ − b) against ‖B‖ times the transformed solution
  // x = Lᵀ(q̈ − M⁻¹(Q + C)); 0 for consistent constraints.
  double eta = 0;
  double kappa_W = 1;   // λ_max/λ_min of W
  // The transformed problem Gauss's principle solves: minimize ‖x‖ subject
  // to B x = d_W in the least-squares sense, with x = Lᵀ(q̈ − a),
  // a = M⁻¹(Q + C) and d_W = W^{1/2}(b − A a). Exact, for the residual
  // ratios of measure.hpp.
  Vector<rational> a;
  Matrix<rational> M_inverse;
  double norm_d = 0;    // ‖d_W‖
};

ExactReference exact_reference(const System<rational>& sys);

// The first-order bound on the relative forward error of q̈, Qᴺ and Qᵂ at
// unit roundoff u for a solver whose error grows as κ(B)^p
// (Capabilities::error_growth): u·(κ(B)^p + κ(M) + κ(B)²η)
// (conditioning.cpp states where it comes from).
double forward_error_bound(const ExactReference& ref, double u, int error_growth);

template <class S>
System<rational> exact_system(const System<S>& s) {
  return System<rational>{to_rational(s.M), to_rational(s.A), to_rational(s.b),
                          to_rational(s.Q), to_rational(s.C), to_rational(s.W)};
}

template <class S>
System<S> system_as(const System<rational>& s) {
  return from_rational<S>(s);
}

// Frobenius norm of an exact matrix, to double accuracy.
double frobenius(const Matrix<rational>& X);

}  // namespace femc::studies
