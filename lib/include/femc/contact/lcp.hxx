#pragma once
// The bodies of lcp.hpp's function templates. The library instantiates
// them for the model scalars (double, long double, float128, MPFR:
// lib/src/instantiate/contact.cpp.in); include this file to use them at
// another scalar type.
#include "femc/contact/lcp.hpp"

namespace femc::contact {

namespace detail {

template <class S>
void check_lcp_input(const Matrix<S>& A, const Vector<S>& B) {
  if (A.rows() != A.cols() || A.rows() != B.size())
    throw InputError("A", "must be k×k with k = size of B (" + std::to_string(B.size()) + ")");
}

}  // namespace detail

template <class S>
LcpSolutions<S> enumerate_lcp(const Matrix<S>& A, const Vector<S>& B) {
  detail::check_lcp_input(A, B);
  const Index k = B.size();
  if (k > kMaxEnumeratedContacts)
    throw InputError("contacts", std::to_string(k) + " exceeds the enumeration limit " +
                                     std::to_string(kMaxEnumeratedContacts));
  const S u = unit_roundoff<S>();
  const S c = S(4 * (k + 1));
  LcpSolutions<S> out;
  bool degenerate = false;
  for (unsigned long mask = 0; mask < (1ul << k); ++mask) {
    std::vector<Index> J;
    for (Index i = 0; i < k; ++i)
      if (mask & (1ul << i)) J.push_back(i);
    Vector<S> lambda = Vector<S>::Zero(k);
    S tol_lambda(0);
    if (!J.empty()) {
      const Index r = Index(J.size());
      Matrix<S> AJJ(r, r);
      Vector<S> rhs(r);
      for (Index a = 0; a < r; ++a) {
        rhs(a) = -B(J[a]);
        for (Index b = 0; b < r; ++b) AJJ(a, b) = A(J[a], J[b]);
      }
      Eigen::FullPivLU<Matrix<S>> lu(AJJ);
      // Singular block: exactly (exact types) or numerically (rank decided at
      // c·u relative to the largest pivot, the LU's own rounding level).
      lu.setThreshold(u == S(0) ? S(0) : S(c * u));
      if (!lu.isInvertible()) {
        // Consistent singular block => possibly a continuum of solutions.
        Vector<S> x = lu.solve(rhs);
        if ((AJJ * x - rhs).norm() <= c * u * (AJJ.norm() * x.norm() + rhs.norm())) degenerate = true;
        continue;
      }
      const Vector<S> x = lu.solve(rhs);
      for (Index a = 0; a < r; ++a) lambda(J[a]) = x(a);
      // τ_λ = c·u·κ(A_JJ)·‖λ_J‖∞, κ from the LU's reciprocal condition estimate
      if (u != S(0)) tol_lambda = c * u / lu.rcond() * detail::max_abs(x);
    }
    bool ok = true;
    for (Index i = 0; i < k && ok; ++i)
      if (lambda(i) < -tol_lambda) ok = false;
    if (!ok) continue;
    const Vector<S> w = A * lambda + B;
    const Vector<S> scale = A.cwiseAbs() * lambda.cwiseAbs() + B.cwiseAbs();
    for (Index i = 0; i < k && ok; ++i)
      if (!(mask & (1ul << i)) && w(i) < -c * u * scale(i)) ok = false;
    if (!ok) continue;
    for (Index i = 0; i < k; ++i)
      if (lambda(i) < S(0)) lambda(i) = S(0);  // within τ_λ of the boundary
    bool seen = false;
    for (const Vector<S>& other : out.solutions) {
      const S d = detail::max_abs(Vector<S>(other - lambda));
      const S ref = std::max<S>(detail::max_abs(other), detail::max_abs(lambda));
      if (d <= S(2) * tol_lambda + c * u * ref) seen = true;
    }
    if (!seen) out.solutions.push_back(lambda);
  }
  if (degenerate)
    out.status = LcpStatus::Degenerate;
  else if (out.solutions.empty())
    out.status = LcpStatus::None;
  else
    out.status = out.solutions.size() == 1 ? LcpStatus::Unique : LcpStatus::Multiple;
  return out;
}

template <class S>
LemkeResult<S> lemke(const Matrix<S>& A, const Vector<S>& B, Index max_pivots) {
  detail::check_lcp_input(A, B);
  const Index k = B.size();
  if (max_pivots == 0) max_pivots = 50 * (k + 1);
  LemkeResult<S> res;
  res.lambda = Vector<S>::Zero(k);
  if (k == 0 || B.minCoeff() >= S(0)) {
    res.status = LemkeStatus::Solved;
    return res;
  }
  // Columns: 0..k−1 w, k..2k−1 λ, 2k z₀, 2k+1 right-hand side.
  const Index z0 = 2 * k, rhs = 2 * k + 1;
  Matrix<S> T = Matrix<S>::Zero(k, 2 * k + 2);
  T.leftCols(k).setIdentity();
  T.block(0, k, k, k) = -A;
  T.col(z0).setConstant(S(-1));
  T.col(rhs) = B;
  std::vector<Index> basis(k);
  for (Index i = 0; i < k; ++i) basis[i] = i;

  auto pivot = [&](Index row, Index col) {
    T.row(row) /= T(row, col);
    for (Index i = 0; i < k; ++i)
      if (i != row && T(i, col) != S(0)) T.row(i) -= T(i, col) * T.row(row);
    basis[row] = col;
  };
  // z₀ enters; the most negative B_i leaves.
  Index row = 0;
  for (Index i = 1; i < k; ++i)
    if (B(i) < B(row)) row = i;
  Index leaving = basis[row];
  pivot(row, z0);
  res.pivots = 1;
  while (res.pivots < max_pivots) {
    // The complement of the variable that left enters.
    const Index entering = leaving < k ? leaving + k : leaving - k;
    Index best = -1;
    S best_ratio(0);
    for (Index i = 0; i < k; ++i) {
      if (T(i, entering) <= S(0)) continue;
      const S ratio = T(i, rhs) / T(i, entering);
      if (best < 0 || ratio < best_ratio || (ratio == best_ratio && basis[i] == z0)) {
        best = i;
        best_ratio = ratio;
      }
    }
    if (best < 0) {
      res.status = LemkeStatus::SecondaryRay;
      return res;
    }
    leaving = basis[best];
    pivot(best, entering);
    ++res.pivots;
    if (leaving == z0) {
      for (Index i = 0; i < k; ++i)
        if (basis[i] >= k && basis[i] < 2 * k) res.lambda(basis[i] - k) = T(i, rhs);
      res.status = LemkeStatus::Solved;
      return res;
    }
  }
  res.status = LemkeStatus::IterationLimit;
  return res;
}

}  // namespace femc::contact
