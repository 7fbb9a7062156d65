#pragma once
// The reference every claim and every accuracy study measures a solver
// against: femc's exact solution (method exact, rational arithmetic) of the
// very data the solver was given, and the quantities the first-order error
// laws are stated in (error_law.hpp), computed from the exact data in MPFR at
// a precision well above the working one.
//
// Notation (M = LLᵀ, W = U_WᵀU_W with U_W upper triangular):
//   B = U_W A L⁻ᵀ, with the singular values of P = W^{1/2} A M^{-1/2};
//   y = L⁻¹(Q + C), the applied force in the metric of M;
//   x = Lᵀ(q̈ − M⁻¹(Q + C)), the constraint's share of the motion (G_g = ‖x‖²);
//   d = U_W(b − A M⁻¹(Q + C)), r = U_W(A q̈ − b) the least-squares residual
//   (‖r‖² = ‖δ‖², 0 for consistent constraints).
// Gauss's principle is the minimum-norm least-squares problem B x ≈ d in
// these coordinates: every error law of femc is stated there.
#include <vector>

#include "femc/scalar/mpfr.hpp"
#include "femc/scalar/rational.hpp"
#include "femc/solution.hpp"
#include "femc/system.hpp"

namespace femc::verify {

struct ExactReference {
  Solution<rational> solution;  // the exact q̈, Qᴺ, Qᵂ, Qᶜ, λ, G_g, ‖δ‖²
  Index rank = 0;               // exact rank of A (and of B, P)
  double kappa_A = 1;           // σ₁/σ_r of A
  double kappa_M = 1;           // λ_max/λ_min of M
  double kappa_W = 1;           // λ_max/λ_min of W
  double kappa_B = 1;           // σ₁/σ_r of B
  // σ₁/σ_r of A L⁻ᵀ, B without W: where W does not matter (consistent
  // constraints, G9) a solver may leave it out, and its error then follows
  // this one (error_law.hpp).
  double kappa_B_unweighted = 1;
  double norm_A = 0;            // σ₁(A)
  double sigma_r_A = 0;         // σ_r(A), the smallest nonzero one (0 when r = 0)
  double norm_M = 0;            // λ_max(M) = ‖L‖²
  double norm_W = 1;            // λ_max(W) = ‖U_W‖²
  double norm_B = 0;            // σ₁(B)
  std::vector<double> sigma_B;  // every singular value of B, non-increasing (min(m, n) of them)
  // … of A and of A L⁻ᵀ (B without W): the matrices other solvers decide
  // rank on (rank_policy.hpp).
  std::vector<double> sigma_A, sigma_B_unweighted;
  double norm_x = 0, norm_d = 0;
  double norm_y = 0;  // ‖L⁻¹Q‖ + ‖L⁻¹C‖ (error_law.hpp)
  double norm_qdd = 0;          // ‖q̈‖₂
  double norm_forces = 0;       // ‖Q‖ + ‖Qᴺ‖ + ‖Qᵂ‖ (2-norms): M q̈ = Q + Qᴺ + Qᵂ as a solver sums it
  double norm_r = 0;            // ‖δ‖
  // η = ‖r‖/(‖B‖‖x‖), the relative size of the least-squares residual; 0
  // for consistent constraints (and when x = 0).
  double eta = 0;
  Vector<rational> a;           // M⁻¹(Q + C)
  Matrix<rational> M_inverse;   // exact
};

// The reference of sys. bits: the MPFR precision of the condition numbers
// and norms (256 resolves κ up to about 10⁶⁰; reference_bits gives one for a
// working precision).
ExactReference exact_reference(const System<rational>& sys, long bits = 256);

// exact_reference(sys, bits), kept for the rest of the process: the claims
// draw the same exact systems from one seed for every solver of the same
// capabilities, and a case's reference (the exact solve, the SVDs at
// `bits`) is most of its time. Thread-safe; the store is emptied when it
// holds 4096 references.
ExactReference memoized_exact_reference(const System<rational>& sys, long bits);

// σ₁/σ_k of an exact matrix (k ≥ 1 its rank, or any leading count), at
// `bits`.
double kappa_of(const Matrix<rational>& X, Index k, long bits);

// Enough bits to resolve the singular values of data rounded to p bits:
// max(256, 2p + 64).
long reference_bits(long working_bits);

// The Gauss solution with the constraint directions of B beyond its k
// largest singular values dropped (k ≤ rank): the answer of a solver that
// keeps the k leading singular values of P = W^{1/2} A M^{-1/2} and treats
// the rest as zero. q̈, Qᴺ, Qᵂ, Qᶜ, G_g and ‖δ‖² at `bits` (MPFR);
// k = rank gives the exact solution to that precision.
Solution<mpfr_real> truncated_solution(const System<rational>& sys, Index k, long bits);

}  // namespace femc::verify
