#pragma once
// The unilateral contact problem of a mechanism that also has joints: 003's
// g̈_N = A λ + B (unilateral_problem.hpp) when the joints' bilateral
// constraints J q̈ = b hold as well.
//
// Gauss's constrained acceleration q̈_J(F, b) of the system (M, J, b) under
// an applied force F (001 (15)) is affine in (F, b) at a fixed state, so
// with the contact forces F = (W_Nᵀ + W_tᵀ S U) λ of 003 (20):
//   q̈ = q̈_J(Q, b) + K (W_Nᵀ + W_tᵀ S U) λ,   K F = q̈_J(F, 0)
//     = M^{-1/2} (I − P) M^{-1/2} F,   P the projector onto range((J M^{-1/2})ᵀ),
// and g̈_N = W_N q̈ + W̄_N gives
//   A = W_N K (W_Nᵀ + W_tᵀ S U),   B = W_N q̈_J(Q, b) + W̄_N.
// Without joints K = M⁻¹ and these are unilateral_problem.hpp's. A and B are
// physical (the feet's accelerations per unit contact force, and without
// contact force), so a mechanism written in other coordinates, e.g. with its
// joints eliminated, gives the same A and B: tests/test_contact_models.cpp
// checks Y4 so. Redundant joints are handled as in any femc solve (the rank
// is decided, P projects onto what the joints span).
//
// Cost: k + 1 solves sharing one factorization of M (the method's workspace,
// methods/workspace.hpp).
#include "femc/contact/unilateral_problem.hpp"
#include "femc/solve.hpp"

namespace femc::contact {

// `joints` is the FEMC problem of the instant without the contacts (its Q
// the applied force, its C zero); `c` the contacts' data at the same state.
template <class S>
UnilateralProblem<S> make_unilateral_problem(const System<S>& joints, const ContactData<S>& c,
                                             const Options<S>& opt = {});

}  // namespace femc::contact
