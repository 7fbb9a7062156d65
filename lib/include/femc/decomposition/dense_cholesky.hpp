#pragma once
// M = L Lᵀ for a symmetric positive definite M (its lower triangle read),
// with the operations method cod needs: X ← L⁻¹X and X ← LᵀX for many
// columns at once, v ← M⁻¹v, and κ₁(M) by Hager's estimator
// (cholesky_condition.hpp).
//
// double runs LAPACK's blocked dpotrf, dtrsm and dtrmm (lapack.hpp). MPFR
// runs mpfr_kernels.hpp's factorization and triangular solves on the raw
// mpfr_t, with member scratch numbers. The other types run what Eigen::LLT and L.solveInPlace(X)
// run, operation for operation (Eigen's blocked llt_inplace and
// triangular_solve_matrix), with the triangular solve's packing buffers kept
// here: Eigen allocates them at each call once they pass its 128 KB stack
// limit. All but double take LᵀX as a triangular matrix–vector product per
// column, into a kept vector (Eigen's blocked product allocates as its solve
// does).
// Storage is reused: a factorization or solve of the shape of the previous
// one allocates nothing. The solves write into that storage (MPFR's scratch
// numbers, the other types' packing buffers), const as they are: one object
// must not solve from two threads at once, whatever the type but double.
#include <Eigen/Cholesky>
#include <memory>
#include <type_traits>

#include "femc/decomposition/cholesky_condition.hpp"
#include "femc/decomposition/lapack.hpp"
#include "femc/decomposition/mpfr_kernels.hpp"

namespace femc {

template <class S>
class DenseCholesky {
 public:
  // Factors M; false when M is not positive definite at the precision of S
  // (then the factor is unspecified).
  bool compute(const Matrix<S>& M) {
    L_ = M;
    if constexpr (std::is_same_v<S, double>)
      ok_ = lapack::cholesky_lower_in_place(L_);
    else if constexpr (std::is_same_v<S, mpfr_real>)
      ok_ = mpfr_kernels::cholesky_lower_in_place(L_, scratch_);
    else
      ok_ = Eigen::internal::llt_inplace<S, Eigen::Lower>::blocked(L_) == -1;
    return ok_;
  }
  bool ok() const { return ok_; }
  Index rows() const { return L_.rows(); }

  auto matrixL() const { return L_.template triangularView<Eigen::Lower>(); }
  auto matrixU() const { return L_.transpose().template triangularView<Eigen::Upper>(); }

  // v ← M⁻¹v = L⁻ᵀL⁻¹v.
  template <class V>
  void solve_in_place(V& v) const {
    if constexpr (std::is_same_v<S, mpfr_real>) {
      mpfr_kernels::solve_lower_in_place(L_, v, scratch_);
      mpfr_kernels::solve_lower_transposed_in_place(L_, v, scratch_);
    } else {
      matrixL().solveInPlace(v);
      matrixU().solveInPlace(v);
    }
  }

  // v ← L⁻¹v.
  void solve_L_in_place(Vector<S>& v) const {
    if constexpr (std::is_same_v<S, mpfr_real>)
      mpfr_kernels::solve_lower_in_place(L_, v, scratch_);
    else
      matrixL().solveInPlace(v);
  }

  // v ← L⁻ᵀv.
  template <class V>
  void solve_Lt_in_place(V& v) const {
    if constexpr (std::is_same_v<S, mpfr_real>)
      mpfr_kernels::solve_lower_transposed_in_place(L_, v, scratch_);
    else
      matrixU().solveInPlace(v);
  }

  // X ← L⁻¹X.
  void solve_L_in_place(Matrix<S>& X) const {
    const Index size = X.rows(), others = X.cols();
    if (size == 0 || others == 0) return;
    if constexpr (std::is_same_v<S, double>) {
      lapack::solve_lower_in_place(L_, X);
    } else if constexpr (std::is_same_v<S, mpfr_real>) {
      mpfr_kernels::solve_lower_in_place(L_, X, scratch_);
    } else {
      if (!blocking_ || blocking_rows_ != size || blocking_cols_ != others) {
        blocking_ = std::make_unique<Blocking>(size, others, size, 1, false);
        blocking_->allocateAll();
        blocking_rows_ = size;
        blocking_cols_ = others;
      }
      Eigen::internal::triangular_solve_matrix<S, Index, Eigen::OnTheLeft, Eigen::Lower, false, Eigen::ColMajor,
                                               Eigen::ColMajor, 1>::run(size, others, L_.data(), L_.outerStride(),
                                                                        X.data(), 1, X.outerStride(), *blocking_);
    }
  }

  // X ← LᵀX.
  void multiply_by_Lt_in_place(Matrix<S>& X) {
    if (X.rows() == 0 || X.cols() == 0) return;
    if constexpr (std::is_same_v<S, double>) {
      lapack::multiply_lower_transposed_in_place(L_, X);
    } else {
      column_.resize(X.rows());
      for (Index j = 0; j < X.cols(); ++j) {
        column_.noalias() = matrixU() * X.col(j);
        X.col(j) = column_;
      }
    }
  }

  // 1/κ₁(M) estimated (LLT::rcond()'s algorithm); l1_norm = ‖M‖₁.
  S rcond(const S& l1_norm, CholeskyConditionScratch<S>& scratch) const {
    return spd_rcond(rows(), l1_norm, [&](Vector<S>& v) { solve_in_place(v); }, scratch);
  }

 private:
  using Blocking = Eigen::internal::gemm_blocking_space<Eigen::ColMajor, S, S, Eigen::Dynamic, Eigen::Dynamic,
                                                        Eigen::Dynamic, 4, false>;
  Matrix<S> L_;  // L on and below the diagonal
  bool ok_ = false;
  Vector<S> column_;  // LᵀX's scratch (all types but double)
  mutable mpfr_kernels::ScratchFor<S> scratch_;  // the MPFR kernels'
  mutable std::unique_ptr<Blocking> blocking_;  // solve_L_in_place's packing buffers (other types)
  mutable Index blocking_rows_ = -1, blocking_cols_ = -1;
};

}  // namespace femc
