#pragma once
// Small helpers shared by the methods. No formula of a paper lives here.
#include <Eigen/Cholesky>

#include "femc/decomposition/cholesky_condition.hpp"
#include "femc/solution.hpp"

namespace femc::detail {

// κ₁(M) estimate from a Cholesky factorization (LAPACK-style rcond; the 1-norm
// condition number, within a factor n of the 2-norm one).
template <class S>
std::optional<S> kappa_from_llt(const Eigen::LLT<Matrix<S>>& llt) {
  return kappa_from_rcond(S(llt.rcond()));
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
