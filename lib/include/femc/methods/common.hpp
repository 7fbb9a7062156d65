#pragma once
// Small helpers shared by the methods. No formula of a paper lives here.
#include <Eigen/Cholesky>

#include "femc/solution.hpp"

namespace femc::detail {

// κ₁(M) estimate from a Cholesky factorization (LAPACK-style rcond; the 1-norm
// condition number, within a factor n of the 2-norm one). When rcond
// underflows, κ is beyond the range of S: reported as +∞, which the
// diagnostics turn into a warning.
template <class S>
std::optional<S> kappa_from_llt(const Eigen::LLT<Matrix<S>>& llt) {
  const S rc = llt.rcond();
  if (rc > S(0)) return S(S(1) / rc);
  return Eigen::NumTraits<S>::infinity();
}

// Two right-hand sides as the columns of one matrix (one solve for both).
template <class S>
Matrix<S> two_columns(const Vector<S>& a, const Vector<S>& b) {
  Matrix<S> X(a.size(), 2);
  X.col(0) = a;
  X.col(1) = b;
  return X;
}

}  // namespace femc::detail
