#pragma once
// What a solver can do, declared once by the solver and read by everything
// that runs it (properties, studies, femc verify): which parts of a Solution
// it returns and which systems it accepts. A check whose claim needs what a
// solver does not declare is not applicable to it, not failed.
#include <string>

namespace femc {

// The arithmetic a solver needs: Floating solvers run at femc's floating
// types (double … MPFR); Exact ones at exact types (rational), without
// square roots.
enum class Arithmetic { Floating, Exact };

// The parts of a Solution (solution.hpp) a solver fills in, as bits.
namespace outputs {
enum : unsigned {
  qdd = 1u << 0,           // q̈
  constraint_force = 1u << 1,  // Qᶜ = Qᴺ + Qᵂ
  QN = 1u << 2,            // Qᴺ, the part that does no work
  QW = 1u << 3,            // Qᵂ, the working part
  lambda = 1u << 4,        // λ (minimum norm)
  Gg_min = 1u << 5,        // G_g at the minimum
  delta = 1u << 6,         // ‖δ‖² = min ‖Az − b‖²_W
  rank = 1u << 7,          // the rank it decided, with its tolerance (Diagnostics::rank)
  all = (1u << 8) - 1,
};
}  // namespace outputs

struct Capabilities {
  unsigned outputs = outputs::all;
  // Accepts rank A < m. When false, such a system must be refused with
  // MethodError (checked), and the claims run on full-row-rank draws.
  bool rank_deficient = true;
  // Accepts W ≠ I (else every draw has W = I).
  bool weighted = true;
  // Accepts C ≠ 0 (constraint forces that do work; else C = 0 in every draw).
  bool working_forces = true;
  Arithmetic arithmetic = Arithmetic::Floating;
  // The power p of κ(B) in the solver's forward error (B = W^{1/2} A L⁻ᵀ,
  // M = LLᵀ): to first order ‖Δq̈‖/‖q̈‖ ≲ u·(κ(B)^p + κ(M) + κ(B)²η) for q̈,
  // Qᴺ, Qᵂ (studies/conditioning.cpp). 1 for a backward-stable solve of the
  // least-squares problem in B; 2 for a method that forms G = B Bᵀ, whose
  // condition number is κ(B)² (a range-space or Schur-complement method).
  // The studies draw each solver's theory line from it, so that the
  // regression gate holds each solver to its own law.
  int error_growth = 1;
  // The power s of κ(M) in its constraint residual ‖W^{1/2}(A q̈ − b)‖,
  // which a backward-stable solve in B keeps at u·(‖B‖‖x‖ + ‖d‖)
  // (studies/framework/measure.hpp): 0 when B is formed from a Cholesky
  // factor of M (backward stable for M); 1 when M^{±1/2} are formed
  // explicitly and mixed with solves by M (the papers' literal formula).
  // A method that forms G = B Bᵀ leaves a residual κ(B) times larger, by
  // error_growth alone.
  int residual_mass_power = 0;
  // The matrix on which the solver decides rank; empty when not declared.
  std::string rank_policy;
  // The relative rank tolerance τ the solver declares: it keeps the
  // singular values of P = W^{1/2} A M^{-1/2} above τσ₁ and treats the rest
  // as zero. 0: not declared, and then it is held to the default of
  // femc/rank.hpp, max(m, n)·u. The claims judge it against that policy
  // (femc/verify/rank_policy.hpp).
  double rank_tol = 0;

  bool returns(unsigned wanted) const { return (outputs & wanted) == wanted; }
};

// "q̈, Qᶜ, Qᴺ, …": the outputs named, for reports and messages.
std::string describe_outputs(unsigned outputs);
// "any rank, W, C" or "full row rank, W = I, C = 0": the systems accepted.
std::string describe_systems(const Capabilities& caps);
// "forward error u·(κ(B) + κ(M)), residual ×κ(M)": the error law declared.
std::string describe_error_model(const Capabilities& caps);

}  // namespace femc
