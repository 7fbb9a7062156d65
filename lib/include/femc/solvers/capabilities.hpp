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
  // The matrix on which the solver decides rank; empty when not declared.
  std::string rank_policy;

  bool returns(unsigned wanted) const { return (outputs & wanted) == wanted; }
};

// "q̈, Qᶜ, Qᴺ, …": the outputs named, for reports and messages.
std::string describe_outputs(unsigned outputs);
// "any rank, W, C" or "full row rank, W = I, C = 0": the systems accepted.
std::string describe_systems(const Capabilities& caps);

}  // namespace femc
