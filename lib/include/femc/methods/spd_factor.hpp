#pragma once
// The Cholesky factor of M (or of a weight W ≠ I) that a method's workspace
// keeps between solves (methods/cod.hpp, kkt.hpp, nullspace.hpp; literal.hpp
// keeps it for validation and to tell an unchanged M or W):
//
// - validate(X) is validate()'s check of X (symmetric, positive definite),
//   made with the factor the coming solve then uses: no second
//   factorization. Made once per X: a validated factor of an unchanged X
//   answers at once.
// - prepare(X) readies the factor for a solve: it is reused when X equals,
//   entry for entry, the X factored before; otherwise X is factored. A
//   factor that fails throws validate()'s InputError, also under
//   Options::assume_valid: no number comes from a failed factor.
// - κ₁(X) and ‖X‖₁ are computed with the factor (cholesky_condition.hpp).
//
// Reuse gives the same bits as a fresh factorization: the factor is a
// function of X alone. A factorization of the order of the previous one
// allocates nothing.
#include "femc/decomposition/cholesky_condition.hpp"
#include "femc/decomposition/dense_cholesky.hpp"
#include "femc/system.hxx"

namespace femc {

template <class S>
class SpdFactor {
 public:
  // `field` names X in errors ("M", "W").
  explicit SpdFactor(const char* field) : field_(field) {}

  void validate(const Matrix<S>& X) {
    if (validated_ && holds_factor_of(X)) return;
    detail::require_symmetric(X, field_);
    factor(X, true);
    if (!have_) throw detail::not_positive_definite<S>(field_);
    factored_by_validation_ = true;
  }

  void prepare(const Matrix<S>& X) {
    const bool held = holds_factor_of(X);
    reused_ = held && !factored_by_validation_;
    factored_by_validation_ = false;
    if (!held) factor(X, false);
    if (!have_) throw detail::not_positive_definite<S>(field_);
  }

  const DenseCholesky<S>& cholesky() const { return chol_; }
  DenseCholesky<S>& cholesky() { return chol_; }
  const S& kappa() const { return kappa_; }   // κ₁(X) estimate (+∞ beyond the range of S)
  const S& norm1() const { return norm1_; }   // ‖X‖₁
  // Whether the last prepare() reused a factor made by an earlier solve.
  bool reused() const { return reused_; }

 private:
  bool holds_factor_of(const Matrix<S>& X) const {
    return have_ && X_.rows() == X.rows() && X_.cols() == X.cols() && X_ == X;
  }
  void factor(const Matrix<S>& X, bool validated) {
    X_ = X;
    have_ = chol_.compute(X_);
    norm1_ = symmetric_l1_norm(X_);
    kappa_ = have_ ? kappa_from_rcond(chol_.rcond(norm1_, cond_)) : S(0);
    validated_ = validated;
  }

  const char* field_;
  DenseCholesky<S> chol_;
  Matrix<S> X_;  // the X factored in chol_
  bool have_ = false, validated_ = false, reused_ = false;
  bool factored_by_validation_ = false;  // validate() factored X for the coming solve
  S kappa_ = S(1), norm1_ = S(1);
  CholeskyConditionScratch<S> cond_;
};

}  // namespace femc
