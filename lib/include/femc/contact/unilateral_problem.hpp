#pragma once
// The acceleration-level unilateral contact problem of 003 Section 3.
//
// k contacts with gaps g_N(q, t) ≥ 0 (003 (18)). At the acceleration level
//   g̈_N = W_N q̈ + W̄_N                                           003 (19)
// and the equations of motion with normal forces λ and Coulomb sliding
// friction F_t = S U λ (one tangent per contact, planar)
//   M q̈ = Q + W_Nᵀ λ + W_tᵀ S U λ                                003 (20), (40)
// give g̈_N = A λ + B with
//   A = W_N M⁻¹ (W_Nᵀ + W_tᵀ S U),   B = W_N M⁻¹ Q + W̄_N          003 (22)
// S = diag(s_i), U = diag(μ_i). Derived (003 Example 4.1 (27) agrees only
// with this sign): friction opposes the sliding velocity ẋ_t = W_t q̇, so
// s_i = −sgn(ẋ_t,i). 003 Example 4.2 prints S = diag(sgn ẋ_A, sgn ẋ_C); with
// that sign friction would push along the sliding and do positive work.
//
// M⁻¹ is never formed: A and B come from one Cholesky factorization of M.
#include <Eigen/Cholesky>

#include "femc/errors.hpp"
#include "femc/linalg.hpp"

namespace femc::contact {

// The contact geometry and friction data at one state (q, q̇, t).
template <class S>
struct ContactData {
  Matrix<S> WN;     // k×n: rows ∂g_N,i/∂q
  Vector<S> WbarN;  // k:   g̈_N − W_N q̈ (the velocity-product terms)
  Matrix<S> Wt;     // k×n: rows of the tangential (slip) velocities ẋ_t = W_t q̇
  Vector<S> WbarT;  // k:   ẍ_t − W_t q̈ (needed only to resolve sticking)
  Vector<S> s;      // k:   −sgn(ẋ_t,i) ∈ {−1, 0, 1}
  Vector<S> mu;     // k:   friction coefficients μ_i ≥ 0
};

// The LCP/QP data: g̈_N = A λ + B.
template <class S>
struct UnilateralProblem {
  Matrix<S> A;
  Vector<S> B;
};

// −sgn(v) as a scalar: the friction direction factor s of 003 (22).
template <class S>
S friction_sign(const S& slip_velocity) {
  if (slip_velocity > S(0)) return S(-1);
  if (slip_velocity < S(0)) return S(1);
  return S(0);
}

// The generalized contact forces of λ: normal W_Nᵀλ (ideal: it does no work
// while the gap stays closed) and friction W_tᵀ S U λ (the non-ideal part Qᵂ).
template <class S>
struct ContactForces {
  Vector<S> normal;
  Vector<S> friction;
};

template <class S>
ContactForces<S> contact_forces(const ContactData<S>& c, const Vector<S>& lambda);

// 003 (22). Throws InputError("M", …) when M is not positive definite.
template <class S>
UnilateralProblem<S> make_unilateral_problem(const Matrix<S>& M, const Vector<S>& Q,
                                             const ContactData<S>& c);

// 003 (40): q̈ = M⁻¹ (Q + W_Nᵀ λ + W_tᵀ S U λ), by the Cholesky factor.
template <class S>
Vector<S> contact_acceleration(const Matrix<S>& M, const Vector<S>& Q, const ContactData<S>& c,
                               const Vector<S>& lambda);

}  // namespace femc::contact
