#pragma once
// The Gauss optimization model of unilateral contact, 003 (23), (36), (39):
//   λ = argmin ½ λᵀ A λ   subject to   A λ + B ≥ 0.
// The objective is the Gauss function of the contact forces (Y1, 003 (16));
// only the symmetric part A_s = (A + Aᵀ)/2 enters it.
//
// Statuses, never a silent pick:
//  - Unique: one minimizer.
//  - NonUnique: several minimizers with the same value (A_s singular).
//  - Unbounded: the objective is unbounded below on the feasible set. With A
//    nonsingular put w = Aλ + B ≥ 0; then ½λᵀAλ = ½(w − B)ᵀ P (w − B) with
//    P the symmetric part of A⁻¹ (congruent to A_s: (Ay)ᵀA⁻¹(Ay) = yᵀAy).
//    The feasible set is w ≥ 0, so the QP is bounded below iff P is
//    copositive. Copositivity is decided by Kaplan's criterion (W. Kaplan,
//    Linear Algebra Appl. 313 (2000) 203–206): P is copositive iff no
//    principal submatrix has an eigenvector v > 0 with a negative eigenvalue
//    (exact for k ≤ 2; for k ≥ 3 a repeated negative eigenvalue is tested on
//    the computed eigenbasis only). This is Y3's Painlevé region: A < 0.
//  - Singular: A is singular; the feasible set is then not a translated
//    orthant and the model of 003 does not define λ uniquely. Reported, not
//    solved.
//
// Method: every active set J gives a KKT system
//   A_s λ − A_Jᵀ ν = 0,   A_J λ = −B_J,   ν ≥ 0,   (Aλ + B)_{not J} ≥ 0;
// the global minimizer of a QP that is bounded below is one of its KKT points
// (linear constraints need no constraint qualification), so the smallest
// objective among the feasible KKT points is the minimum. A P⁻¹-type
// classification on a k×k matrix forms A⁻¹ (k is the number of contacts):
// that is a status check, not part of the dynamics' fast path.
// Tolerances as in lcp.hpp: c·u·(|A||λ| + |B|) with c = 4(k+1).
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <vector>

#include "femc/contact/lcp.hpp"

namespace femc::contact {

enum class QpStatus { Unique, NonUnique, Unbounded, Singular };

inline const char* to_string(QpStatus s) {
  switch (s) {
    case QpStatus::Unique: return "unique";
    case QpStatus::NonUnique: return "non-unique";
    case QpStatus::Unbounded: return "unbounded";
    case QpStatus::Singular: return "singular";
  }
  return "?";
}

template <class S>
struct QpResult {
  QpStatus status = QpStatus::Singular;
  Vector<S> lambda;  // the minimizer when Unique (one of them when NonUnique)
  S objective = S(0);
};

// Kaplan's criterion; see the header comment.
template <class S>
bool is_copositive(const Matrix<S>& P);

template <class S>
QpResult<S> solve_gauss_qp(const Matrix<S>& A, const Vector<S>& B);

}  // namespace femc::contact
