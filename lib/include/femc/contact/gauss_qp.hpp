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
bool is_copositive(const Matrix<S>& P) {
  const Index k = P.rows();
  const S tol = S(4 * (k + 1)) * unit_roundoff<S>() * P.cwiseAbs().maxCoeff();
  for (unsigned long mask = 1; mask < (1ul << k); ++mask) {
    std::vector<Index> J;
    for (Index i = 0; i < k; ++i)
      if (mask & (1ul << i)) J.push_back(i);
    const Index r = Index(J.size());
    Matrix<S> PJ(r, r);
    for (Index a = 0; a < r; ++a)
      for (Index b = 0; b < r; ++b) PJ(a, b) = P(J[a], J[b]);
    if (r == 1) {
      if (PJ(0, 0) < -tol) return false;
      continue;
    }
    Eigen::SelfAdjointEigenSolver<Matrix<S>> eig(PJ);
    for (Index j = 0; j < r; ++j) {
      if (!(eig.eigenvalues()(j) < -tol)) continue;
      const Vector<S> v = eig.eigenvectors().col(j);
      if (v.minCoeff() > S(0) || v.maxCoeff() < S(0)) return false;
    }
  }
  return true;
}

template <class S>
QpResult<S> solve_gauss_qp(const Matrix<S>& A, const Vector<S>& B) {
  detail::check_lcp_input(A, B);
  const Index k = B.size();
  if (k > kMaxEnumeratedContacts)
    throw InputError("contacts", std::to_string(k) + " exceeds the enumeration limit " +
                                     std::to_string(kMaxEnumeratedContacts));
  QpResult<S> out;
  out.lambda = Vector<S>::Zero(k);
  if (k == 0) {
    out.status = QpStatus::Unique;
    return out;
  }
  const S u = unit_roundoff<S>();
  const S c = S(4 * (k + 1));
  Eigen::FullPivLU<Matrix<S>> luA(A);
  luA.setThreshold(c * u);
  if (!luA.isInvertible()) {
    out.status = QpStatus::Singular;
    return out;
  }
  const Matrix<S> Ainv = luA.inverse();  // k×k status check only (see header)
  const Matrix<S> P = (Ainv + Ainv.transpose()) / S(2);
  if (!is_copositive(P)) {
    out.status = QpStatus::Unbounded;
    return out;
  }
  const Matrix<S> As = (A + A.transpose()) / S(2);
  std::vector<Vector<S>> minimizers;
  S best(0);
  for (unsigned long mask = 0; mask < (1ul << k); ++mask) {
    std::vector<Index> J;
    for (Index i = 0; i < k; ++i)
      if (mask & (1ul << i)) J.push_back(i);
    const Index r = Index(J.size());
    Matrix<S> K = Matrix<S>::Zero(k + r, k + r);
    Vector<S> rhs = Vector<S>::Zero(k + r);
    K.topLeftCorner(k, k) = As;
    for (Index a = 0; a < r; ++a) {
      K.block(0, k + a, k, 1) = -A.row(J[a]).transpose();
      K.block(k + a, 0, 1, k) = A.row(J[a]);
      rhs(k + a) = -B(J[a]);
    }
    Eigen::FullPivLU<Matrix<S>> lu(K);
    lu.setThreshold(c * u);
    if (!lu.isInvertible()) continue;
    const Vector<S> x = lu.solve(rhs);
    const Vector<S> lambda = x.head(k);
    const S tol_nu = c * u / lu.rcond() * detail::max_abs(x);
    bool ok = true;
    for (Index a = 0; a < r && ok; ++a)
      if (x(k + a) < -tol_nu) ok = false;
    const Vector<S> w = A * lambda + B;
    const Vector<S> scale = A.cwiseAbs() * lambda.cwiseAbs() + B.cwiseAbs();
    for (Index i = 0; i < k && ok; ++i)
      if (!(mask & (1ul << i)) && w(i) < -c * u * scale(i)) ok = false;
    if (!ok) continue;
    const S f = lambda.dot(As * lambda) / S(2);
    const S ftol = c * u * (lambda.cwiseAbs().dot(As.cwiseAbs() * lambda.cwiseAbs())) + tol_nu * tol_nu;
    if (minimizers.empty() || f < best - ftol) {
      minimizers.assign(1, lambda);
      best = f;
    } else if (detail::abs_of(S(f - best)) <= ftol) {
      bool seen = false;
      for (const Vector<S>& m : minimizers) {
        const S ref = std::max<S>(detail::max_abs(m), detail::max_abs(lambda));
        if (detail::max_abs(Vector<S>(m - lambda)) <= S(2) * tol_nu + c * u * ref) seen = true;
      }
      if (!seen) minimizers.push_back(lambda);
    }
  }
  // A nonsingular: the feasible set is nonempty (λ = −A⁻¹B is in it) and the
  // QP is bounded below, so a minimizer exists. It is missed only when its
  // KKT matrix is singular, which needs A_s not positive definite (with A_s
  // positive definite and A_J of full row rank every KKT matrix is
  // nonsingular); reported as NonUnique rather than guessed.
  if (minimizers.empty()) {
    out.status = QpStatus::NonUnique;
    return out;
  }
  out.lambda = minimizers.front();
  out.objective = best;
  out.status = minimizers.size() == 1 ? QpStatus::Unique : QpStatus::NonUnique;
  return out;
}

}  // namespace femc::contact
