#pragma once
// Stick, slip and separation at closed contacts, beyond 003.
//
// 003 models sliding contacts only: the friction direction s_i = −sgn(ẋ_t,i)
// comes from the slip velocity, which is undefined when ẋ_t,i = 0. There the
// Coulomb law is set-valued, and this resolver decides the mode of every
// closed contact by enumeration:
//   open:    λ_N,i = 0, g̈_N,i ≥ 0                     (contact loss)
//   slide:   g̈_N,i = 0, λ_N,i ≥ 0, F_t,i = s_i μ_i λ_N,i   (ẋ_t,i ≠ 0: s_i fixed)
//   stick:   g̈_N,i = 0, ẍ_t,i = 0, λ_N,i ≥ 0, |F_t,i| ≤ μ_i λ_N,i
//   slip σ:  g̈_N,i = 0, λ_N,i ≥ 0, F_t,i = σ μ_i λ_N,i, σ ẍ_t,i ≤ 0   (σ = ±1)
// (the last three only where |ẋ_t,i| ≤ the stick speed). Each combination is
// a linear system for the active forces z (M q̈ = Q + G z; the rows of the
// active kinematic conditions E q̈ + Ē = 0 give E M⁻¹ G z = −(E M⁻¹ Q + Ē)),
// solved by LU on the factor of M; the admissible combinations are kept.
// One admissible acceleration: Unique. Several different ones: Multiple
// (a Painlevé-type indeterminacy), none: None. Never a silent pick.
// Tolerances as in lcp.hpp (c = 4(k+1), c·u relative to the terms summed).
#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <vector>

#include "femc/contact/lcp.hpp"
#include "femc/contact/unilateral_problem.hpp"

namespace femc::contact {

enum class ContactMode { Open, Slide, Stick, SlipPositive, SlipNegative };

inline const char* to_string(ContactMode m) {
  switch (m) {
    case ContactMode::Open: return "open";
    case ContactMode::Slide: return "slide";
    case ContactMode::Stick: return "stick";
    case ContactMode::SlipPositive: return "slip+";
    case ContactMode::SlipNegative: return "slip-";
  }
  return "?";
}

template <class S>
struct ModeResolution {
  LcpStatus status = LcpStatus::None;
  std::vector<ContactMode> modes;
  Vector<S> normal;    // λ_N
  Vector<S> friction;  // F_t (tangential force at each contact)
  Vector<S> qdd;
  Index admissible = 0;  // number of admissible combinations found
};

template <class S>
ModeResolution<S> resolve_contact_modes(const Matrix<S>& M, const Vector<S>& Q, const ContactData<S>& d,
                                        const Vector<S>& slip_velocity, const S& stick_speed);

}  // namespace femc::contact
