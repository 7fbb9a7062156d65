#pragma once
// The bodies of gauss_qp.hpp's function templates. The library instantiates
// them for the model scalars (double, long double, float128, MPFR:
// lib/src/instantiate/contact.cpp.in); include this file to use them at
// another scalar type.
#include "femc/contact/gauss_qp.hpp"
#include "femc/contact/lcp.hxx"

namespace femc::contact {

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
